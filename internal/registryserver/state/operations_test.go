package state

// The operation log and request-id replay: operations and their views,
// delayed visibility, retries answered with the first operation, request
// ids' case and scope, expiry and the sweep of expired records, the caps on
// what operations keep, and all of it across a restart.

import (
	"context"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
)

// metadata decodes an operation's metadata.
func metadata(t *testing.T, op opView) opMetadata {
	t.Helper()
	var m opMetadata
	if err := json.Unmarshal(op.Metadata, &m); err != nil {
		t.Fatalf("metadata %s: %v", op.Metadata, err)
	}
	return m
}

// getOp is the operation name as Operation returns it.
func getOp(t *testing.T, s *State, name string) opView {
	t.Helper()
	return view(t)(s.Operation(name))
}

// With a delay an operation starts not done, without a response; once the
// delay has passed it is done, with the created service as its response and
// its metadata's verb, end time and target; an unknown operation is
// NOT_FOUND.
func TestOperationDelay(t *testing.T) {
	clk := newClock()
	s := open(t, Options{OperationDelay: 300 * time.Millisecond, Now: clk.Now})
	op := view(t)(s.CreateService("", parent, "slow-one", agentService("A", "B")))
	if op.Done || op.Response != nil {
		t.Fatalf("with a delay the operation must start not done: %+v", op)
	}
	if got := getOp(t, s, op.Name); got.Done {
		t.Fatalf("operation done too early: %+v", got)
	}
	clk.advance(300 * time.Millisecond)
	done := getOp(t, s, op.Name)
	var svc resource.Service
	if err := json.Unmarshal(done.Response, &svc); err != nil || !done.Done || svc.Name != parent+"/services/slow-one" {
		t.Fatalf("response %s: %v", done.Response, err)
	}
	var md map[string]any
	_ = json.Unmarshal(done.Metadata, &md)
	if md["verb"] != "create" || md["endTime"] == nil || md["target"] != svc.Name {
		t.Fatalf("metadata %s", done.Metadata)
	}
	_, err := s.Operation(parent + "/operations/nope")
	wantCode(t, err, NotFound)
}

// A resource is invisible while its create operation runs: get, list,
// search, patch see nothing and another create is ALREADY_EXISTS; a cancel
// is recorded while the change completes; creates become visible in the
// order their operations are done; a revision is visible at once.
func TestCreateIsVisibleOnceDone(t *testing.T) {
	clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	s := open(t, Options{OperationDelay: time.Minute, Now: clk.Now})
	ctx := context.Background()
	op := view(t)(s.CreateService("", parent, "slow-agent", agentService("Slow", "Takes a minute.")))
	if op.Done {
		t.Fatalf("create: %+v", op)
	}
	if bop := view(t)(s.CreateBinding("", parent, "slow-binding", &resource.Binding{Target: &resource.Target{Identifier: "urn:mcp:acme:travel:flights"}})); bop.Done {
		t.Fatalf("create binding: %+v", bop)
	}
	searchSlow := func() int {
		t.Helper()
		node, _ := search.ParseQuery("slow", KindAgent.Fields())
		ids, _, err := s.Snapshot(KindAgent, parent).Page(ctx, node, nil, nil, 20)
		if err != nil {
			t.Fatal(err)
		}
		return len(ids)
	}
	svcName := parent + "/services/slow-agent"
	_, err := s.Service(svcName)
	wantCode(t, err, NotFound)
	_, err = s.Derived(KindAgent, parent+"/agents/slow-agent")
	wantCode(t, err, NotFound)
	_, err = s.Binding(parent + "/bindings/slow-binding")
	wantCode(t, err, NotFound)
	if l, _, err := s.ListServices(ctx, parent, nil, nil, 20); err != nil || len(l) != 0 {
		t.Errorf("list while the create runs: %+v %v", l, err)
	}
	if n := searchSlow(); n != 0 {
		t.Errorf("search while the create runs: %d agents", n)
	}
	_, err = s.UpdateService("", svcName, "", &resource.Service{Description: "x"})
	wantCode(t, err, NotFound)
	_, err = s.CreateService("", parent, "slow-agent", agentService("Slow", "Again."))
	wantCode(t, err, AlreadyExists)
	// Cancelling it is recorded; the change, committed already, completes.
	if err := s.CancelOperation(op.Name); err != nil {
		t.Fatal(err)
	}
	if md := metadata(t, getOp(t, s, op.Name)); !md.RequestedCancellation || !strings.Contains(md.StatusMessage, "Cancellation was requested") {
		t.Errorf("a cancelled running operation: %+v", md)
	}
	clk.advance(time.Minute)
	if done := getOp(t, s, op.Name); !done.Done || len(done.Response) == 0 {
		t.Fatalf("after the delay: %+v", done)
	}
	if _, err := s.Service(svcName); err != nil {
		t.Errorf("the service once its operation is done: %v", err)
	}
	if n := searchSlow(); n != 1 {
		t.Errorf("search once the operation is done: %d agents", n)
	}
	if _, err := s.Binding(parent + "/bindings/slow-binding"); err != nil {
		t.Errorf("the binding once its operation is done: %v", err)
	}
	// Creates become visible in the order their operations are done.
	view(t)(s.CreateService("", parent, "first-agent", agentService("First", "Due first.")))
	clk.advance(30 * time.Second)
	view(t)(s.CreateService("", parent, "second-agent", agentService("Second", "Due second.")))
	clk.advance(45 * time.Second)
	s.Settle()
	if _, err := s.Service(parent + "/services/first-agent"); err != nil {
		t.Errorf("the first create, done: %v", err)
	}
	_, err = s.Service(parent + "/services/second-agent")
	wantCode(t, err, NotFound)
	clk.advance(30 * time.Second)
	s.Settle()
	if _, err := s.Service(parent + "/services/second-agent"); err != nil {
		t.Errorf("the second create, done: %v", err)
	}
	// A revision is visible at once: its create also moves its skill's default.
	sk := activeSkill()
	sk.InitialRevision = revision(t, "Fill PDF forms.")
	view(t)(s.CreateSkill("", parent, "pdf-tools", sk))
	clk.advance(time.Minute)
	s.Settle()
	if rop := view(t)(s.CreateRevision("", parent+"/skills/pdf-tools", "rtwo", revision(t, "Merge PDF files."))); rop.Done {
		t.Fatalf("create revision: %+v", rop)
	}
	if _, err := s.Revision(parent + "/skills/pdf-tools/revisions/rtwo"); err != nil {
		t.Errorf("a revision while its create runs: %v", err)
	}
}

// A cancel and a delete of an operation are in the data file: after a
// restart the first is still cancelled and the second gone.
func TestOperationChangesSurviveRestart(t *testing.T) {
	clk := &clock{t: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
	path := t.TempDir() + "/state.db"
	s, err := Open(Options{DataPath: path, Now: clk.Now, OperationDelay: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	pending := opName(t)(s.CreateService("", parent, "agent-one", agentService("One", "First.")))
	gone := opName(t)(s.CreateService("", parent, "agent-two", agentService("Two", "Second.")))
	if err := s.CancelOperation(pending); err != nil {
		t.Fatal(err)
	}
	if err := s.DeleteOperation(gone); err != nil {
		t.Fatal(err)
	}
	mustClose(t, s)
	s2, err := Open(Options{DataPath: path, Now: clk.Now, OperationDelay: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { mustClose(t, s2) })
	if got := getOp(t, s2, pending); !strings.Contains(string(got.Metadata), `"requestedCancellation":true`) {
		t.Errorf("the cancelled operation after a restart: %+v", got)
	}
	_, err = s2.Operation(gone)
	wantCode(t, err, NotFound)
}

// listOps lists the operations of parent that filter selects, a page of one
// at a time.
func listOps(t *testing.T, s *State, filter string) []string {
	t.Helper()
	node, err := search.ParseQuery(filter, OperationFields)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	var after *search.Position
	for {
		views, next, err := s.ListOperations(context.Background(), parent, node, after, 1)
		if err != nil {
			t.Fatalf("list %q: %v", filter, err)
		}
		for _, v := range views {
			var op opView
			_ = json.Unmarshal(v, &op)
			out = append(out, op.Name)
		}
		if after = next; next == nil {
			return out
		}
	}
}

// operations.list pages through the operations by name and filters them;
// a cancel of a done operation changes nothing; a deleted operation is gone
// for get, cancel, delete and list, but a retry of its request still gets
// it.
func TestOperationsListCancelDelete(t *testing.T) {
	s := open(t, Options{})
	const rid = "7a1f7d6e-1a2b-4c3d-8e9f-0a1b2c3d4e5f"
	first := opName(t)(s.CreateService(rid, parent, "agent-one", agentService("One", "First.")))
	view(t)(s.CreateService("", parent, "agent-two", agentService("Two", "Second.")))
	view(t)(s.DeleteService("", parent+"/services/agent-two"))
	// Sorted by name; two operations named in the same millisecond sort by
	// their random suffix, so the first create need not come first.
	if got := listOps(t, s, ""); len(got) != 3 || !slices.IsSorted(got) || !slices.Contains(got, first) {
		t.Errorf("operations: %v", got)
	}
	if got := listOps(t, s, "metadata.verb=delete"); len(got) != 1 {
		t.Errorf("delete operations: %v", got)
	}
	if got := listOps(t, s, "done=true AND metadata.target:agent-one"); len(got) != 1 || got[0] != first {
		t.Errorf("operations on agent-one: %v", got)
	}
	// Cancelling a done operation changes nothing.
	if err := s.CancelOperation(first); err != nil {
		t.Fatal(err)
	}
	if got := getOp(t, s, first); !strings.Contains(string(got.Metadata), `"statusMessage":"Succeeded."`) || strings.Contains(string(got.Metadata), "requestedCancellation") {
		t.Errorf("a done operation after cancel: %s", got.Metadata)
	}
	if err := s.DeleteOperation(first); err != nil {
		t.Fatal(err)
	}
	_, err := s.Operation(first)
	wantCode(t, err, NotFound)
	wantCode(t, s.CancelOperation(first), NotFound)
	wantCode(t, s.DeleteOperation(first), NotFound)
	if got := listOps(t, s, ""); len(got) != 2 || slices.Contains(got, first) {
		t.Errorf("operations after the delete: %v", got)
	}
	if again := opName(t)(s.CreateService(rid, parent, "agent-one", agentService("One", "First."))); again != first {
		t.Errorf("a retry of the deleted operation's request: %s; want the same operation %s", again, first)
	}
}

// A workload PATCH sent again with its requestId returns the same operation.
func TestWorkloadPatchReplay(t *testing.T) {
	s := open(t, Options{})
	const id = "3d4e5f6a-7b8c-4d9e-8f0a-1b2c3d4e5f6a"
	wl := parent + "/applications/app1/workloads/wl"
	first := opName(t)(s.UpdateWorkload(id, wl, "displayName", true, &resource.Workload{DisplayName: "W"}))
	if again := opName(t)(s.UpdateWorkload(id, wl, "displayName", true, &resource.Workload{DisplayName: "W"})); again != first {
		t.Errorf("the same PATCH again = %s; want operation %s", again, first)
	}
}

// A revision create retried with its request id returns the operation of
// the first, with or without a skillRevisionId (it was refused as "already
// used for a different request" once).
func TestRetriedRevisionCreateReplays(t *testing.T) {
	s := open(t, Options{})
	view(t)(s.CreateSkill("", parent, "pdf-tools", activeSkill()))
	for i, id := range []string{"", "chosen-id"} {
		rid := "8a3c1f0e-2b4d-4e6f-8a1b-3c5d7e9f0a1" + strconv.Itoa(i)
		first := opName(t)(s.CreateRevision(rid, parent+"/skills/pdf-tools", id, revision(t, "d")))
		if retry := opName(t)(s.CreateRevision(rid, parent+"/skills/pdf-tools", id, revision(t, "d"))); retry != first {
			t.Errorf("%q: the retry got another operation: %s, then %s", id, first, retry)
		}
	}
	revs, _, err := s.ListRevisions(context.Background(), parent+"/skills/pdf-tools", nil, 100)
	if err != nil || len(revs) != 2 {
		t.Errorf("%d revisions after two creates each sent twice, want 2 (%v)", len(revs), err)
	}
}

// The replay is bound to the revision id the client chose, so the same
// request id sent for another revision id is refused, not replayed.
func TestRevisionRequestIDBoundToItsRevisionID(t *testing.T) {
	s := open(t, Options{})
	view(t)(s.CreateSkill("", parent, "pdf-tools", activeSkill()))
	const rid = "8a3c1f0e-2b4d-4e6f-8a1b-3c5d7e9f0a18"
	view(t)(s.CreateRevision(rid, parent+"/skills/pdf-tools", "first-id", revision(t, "d")))
	_, err := s.CreateRevision(rid, parent+"/skills/pdf-tools", "other-id", revision(t, "d"))
	wantCode(t, err, InvalidArgument, "different request")
}

// The request id is stored under what the client called, so a retry that
// reaches a restarted state still gets the first operation.
func TestRetriedRevisionCreateReplaysAfterARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	s := openFile(t, path)
	view(t)(s.CreateSkill("", parent, "pdf-tools", activeSkill()))
	const rid = "8a3c1f0e-2b4d-4e6f-8a1b-3c5d7e9f0a19"
	first := opName(t)(s.CreateRevision(rid, parent+"/skills/pdf-tools", "", revision(t, "d")))
	mustClose(t, s)
	s = openFile(t, path)
	defer mustClose(t, s)
	if retry := opName(t)(s.CreateRevision(rid, parent+"/skills/pdf-tools", "", revision(t, "d"))); retry != first {
		t.Errorf("the retry after a restart got another operation: %s, then %s", first, retry)
	}
}

// Request ids are UUIDs compared without regard to case, and scoped to the
// parent: the same id in another project is another request.
func TestRequestIDsCaseAndScope(t *testing.T) {
	s := open(t, Options{})
	const rid = "c0ffee00-1234-4abc-8def-0123456789ab"
	op := opName(t)(s.CreateService(rid, parent, "case-one", endpointService()))
	if again := opName(t)(s.CreateService(strings.ToUpper(rid), parent, "case-one", endpointService())); again != op {
		t.Fatalf("retry with the id in upper case: %s; want the first operation %s", again, op)
	}
	// The same id in other projects: for the same service id and another.
	for other, id := range map[string]string{"projects/p2/locations/global": "case-one", "projects/p3/locations/global": "case-two"} {
		if op2 := opName(t)(s.CreateService(rid, other, id, endpointService())); !strings.HasPrefix(op2, other+"/operations/") {
			t.Fatalf("the request in %s was answered with %s", other, op2)
		}
	}
	if _, err := s.Service("projects/p2/locations/global/services/case-one"); err != nil {
		t.Fatalf("the create in the other project did not happen: %v", err)
	}
}

// Operations and request ids are kept for an hour after the operation
// finished, then forgotten, in memory and (at the next write) in the data
// file; after a restart the survivors expire on time too.
func TestOperationsAndRequestIDsExpire(t *testing.T) {
	path := t.TempDir() + "/state.db"
	clk := newClock()
	s, err := Open(Options{DataPath: path, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	const rid, rid2 = "8a3c1f0e-2b4d-4e6f-8a1b-3c5d7e9f0a12", "9b4d2e1f-3c5e-4f70-9b2c-4d6e8f0a1b23"
	op1 := opName(t)(s.CreateService(rid, parent, "expiring-one", endpointService()))
	clk.advance(59 * time.Minute)
	if _, err := s.Operation(op1); err != nil {
		t.Fatalf("operation after 59 minutes: %v", err)
	}
	if again := opName(t)(s.CreateService(rid, parent, "expiring-one", endpointService())); again != op1 {
		t.Fatalf("retry after 59 minutes: %s; want the first operation", again)
	}
	clk.advance(2 * time.Minute)
	_, err = s.Operation(op1)
	wantCode(t, err, NotFound)
	// The request id is forgotten: the retry is a new create of an existing service.
	_, err = s.CreateService(rid, parent, "expiring-one", endpointService())
	wantCode(t, err, AlreadyExists)
	// The next write deletes the expired records from the data file.
	op2 := opName(t)(s.CreateService(rid2, parent, "expiring-two", endpointService()))
	mustClose(t, s)
	if o, r := len(bucketKeys(t, path, bucketOperations)), len(bucketKeys(t, path, bucketRequests)); o != 1 || r != 1 {
		t.Fatalf("data file holds %d operations and %d request ids, want 1 and 1 (the second create's)", o, r)
	}
	// After a restart, the survivors expire on time too.
	s, err = Open(Options{DataPath: path, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, s)
	if again := opName(t)(s.CreateService(rid2, parent, "expiring-two", endpointService())); again != op2 {
		t.Fatalf("retry after the restart: %s, want %s", again, op2)
	}
	clk.advance(time.Hour)
	_, err = s.Operation(op2)
	wantCode(t, err, NotFound)
}

// A request id used again after it expired starts a new request, whose
// record survives the sweep of its predecessor (same key), in memory and
// in the data file. An operation without a request id expires and is
// swept too.
func TestReusedRequestIDSurvivesTheSweepOfItsPredecessor(t *testing.T) {
	path := t.TempDir() + "/state.db"
	clk := newClock()
	s, err := Open(Options{DataPath: path, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	const rid = "3d4e5f60-7182-4394-a5b6-c7d8e9f0a1b2"
	view(t)(s.CreateService(rid, parent, "first", endpointService()))
	view(t)(s.CreateService("", parent, "no-request-id", endpointService()))
	clk.advance(61 * time.Minute)
	second := opName(t)(s.CreateService(rid, parent, "second", endpointService()))
	if again := opName(t)(s.CreateService(rid, parent, "second", endpointService())); again != second {
		t.Fatalf("retry before the restart: %s; want operation %s", again, second)
	}
	mustClose(t, s)
	if o, r := len(bucketKeys(t, path, bucketOperations)), len(bucketKeys(t, path, bucketRequests)); o != 1 || r != 1 {
		t.Errorf("data file holds %d operations and %d request ids, want 1 and 1 (the second create's)", o, r)
	}
	s, err = Open(Options{DataPath: path, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, s)
	if again := opName(t)(s.CreateService(rid, parent, "second", endpointService())); again != second {
		t.Fatalf("retry after the restart: %s; want operation %s", again, second)
	}
}

// One write sweeps at most maxSweep (256) expired records, so that a write
// after a long quiet spell costs a bounded amount; the rest go with later
// writes.
func TestSweepIsBoundedPerWrite(t *testing.T) {
	path := t.TempDir() + "/state.db"
	clk := newClock()
	s, err := Open(Options{DataPath: path, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	const expired = 257
	for i := range expired {
		view(t)(s.CreateService("", parent, fmt.Sprintf("svc-%03d", i), endpointService()))
	}
	clk.advance(61 * time.Minute)
	view(t)(s.DeleteService("", parent+"/services/svc-000"))
	mustClose(t, s)
	if o := len(bucketKeys(t, path, bucketOperations)); o != 2 {
		t.Errorf("after one write, the data file holds %d operations, want 2 (one left of the backlog, and the delete's)", o)
	}
}

// The same, when the old record is swept by a later write (it was beyond the
// sweep of the write that reused its request id).
func TestReusedRequestIDSurvivesALaterSweep(t *testing.T) {
	clk := newClock()
	s := open(t, Options{Now: clk.Now})
	for i := range 256 { // a backlog that fills the next write's sweep
		view(t)(s.CreateService("", parent, fmt.Sprintf("svc-%03d", i), endpointService()))
	}
	const rid = "4e5f6071-8293-44a5-b6c7-d8e9f0a1b2c3"
	view(t)(s.CreateService(rid, parent, "first", endpointService()))
	clk.advance(61 * time.Minute)
	second := opName(t)(s.CreateService(rid, parent, "second", endpointService()))
	view(t)(s.DeleteService("", parent+"/services/svc-000")) // sweeps the old record
	if again := opName(t)(s.CreateService(rid, parent, "second", endpointService())); again != second {
		t.Fatalf("retry after the old record was swept: %s; want operation %s", again, second)
	}
}

// bigService is an endpoint service of about 64 KB: 32 interfaces with URLs
// of 2,000 bytes, the most a service may carry besides its document.
func bigService(display string) *resource.Service {
	svc := endpointService()
	svc.DisplayName = display
	for i := range maxInterfaces {
		svc.Interfaces = append(svc.Interfaces, &resource.Interface{Url: "https://example.test/" + strconv.Itoa(i) + strings.Repeat("a", 1970), ProtocolBinding: "HTTP_JSON"})
	}
	return svc
}

// rename is the update of a service's display name.
func rename(display string) *resource.Service { return &resource.Service{DisplayName: display} }

// Operations keep a bounded response (a reference beyond
// maxOpResponseBytes) and the search index compacts by dead bytes: 300
// patches of a large service pinned a copy of it per operation and per
// dead index version once.
func TestRepeatedPatchesDoNotPinCopies(t *testing.T) {
	s := open(t, Options{})
	svc := parent + "/services/big-one"
	view(t)(s.CreateService("", parent, "big-one", bigService("v")))
	var last string
	for i := range 80 {
		last = opName(t)(s.UpdateService("", svc, "displayName", rename("v"+strconv.Itoa(i))))
	}
	held := 0
	for _, op := range s.ops.byName {
		held += len(op.Response)
	}
	if held > maxOpBytesPerLocation {
		t.Errorf("the operations of 80 patches hold %d bytes of responses, over %d", held, maxOpBytesPerLocation)
	}
	const compactBytes = 1 << 20 // the index's: it is rebuilt once its dead versions weigh this and outweigh the live ones
	if versions, deadBytes := s.endpointIx[parent].Held(); versions > 2*compactBytes/(60<<10)+2 {
		t.Errorf("the endpoint index holds %d versions (%d dead bytes) of one service", versions, deadBytes)
	}
	// The response of a referenced operation is the service as it is.
	var resp struct{ Name, DisplayName string }
	if op := getOp(t, s, last); json.Unmarshal(op.Response, &resp) != nil || resp.DisplayName != "v79" || !strings.HasSuffix(resp.Name, "/services/big-one") {
		t.Errorf("the last patch's operation: %.300s", op.Response)
	}
	// operations.list pages stay under MaxPageBytes (the references are
	// rendered, 64 KB each), and go on where they stopped.
	listEveryOperationOnce(t, s, 81)
}

// listEveryOperationOnce walks operations.list at pageSize 100, and wants
// each page filled up to MaxPageBytes (n operations of a 64 KB service take
// n*64 KB / MaxPageBytes pages, rounded up) and every operation listed once.
func listEveryOperationOnce(t *testing.T, s *State, n int) {
	t.Helper()
	seen := map[string]int{}
	var after *search.Position
	pages := 0
	for ; pages < 100; pages++ {
		views, next, err := s.ListOperations(context.Background(), parent, nil, after, 100)
		bytes := 0
		for _, v := range views {
			bytes += len(v)
		}
		if err != nil || bytes > search.MaxPageBytes+64<<10 {
			t.Fatalf("page %d: %v, %d bytes", pages, err, bytes)
		}
		for _, v := range views {
			var op opView
			_ = json.Unmarshal(v, &op)
			seen[op.Name]++
		}
		if after = next; next == nil {
			break
		}
	}
	if want := (n*64<<10 + search.MaxPageBytes - 1) / search.MaxPageBytes; pages+1 != want || len(seen) != n {
		t.Errorf("%d pages listed %d distinct operations; want %d pages and %d", pages+1, len(seen), want, n)
	}
	for name, n := range seen {
		if n != 1 {
			t.Errorf("%s listed %d times", name, n)
		}
	}
}

// opsAccounting checks that the bytes kept for the operations of parent are
// the sum of their weights, and returns how many it keeps and their bytes.
func opsAccounting(t *testing.T, s *State) (count, bytes int) {
	t.Helper()
	sum := 0
	for _, name := range s.ops.order[parent] {
		op, _ := s.ops.get(name)
		sum += op.weight()
	}
	if s.opBytes[parent] != sum {
		t.Errorf("the operations of %s are counted as %d bytes; their weights add up to %d", parent, s.opBytes[parent], sum)
	}
	return s.ops.perLoc[parent], s.opBytes[parent]
}

// A location keeps at most maxOpsPerLocation operations, the newest: the
// oldest is forgotten first, with its request id, in memory and in the
// data file.
func TestOperationsCappedPerLocation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	s := openFile(t, path)
	first := opName(t)(s.CreateService("8a3c1f0e-2b4d-4e6f-8a1b-3c5d7e9f0a12", parent, "small", endpointService()))
	for i := range maxOpsPerLocation + 50 {
		view(t)(s.UpdateService("", parent+"/services/small", "", rename("v"+strconv.Itoa(i))))
	}
	// Exactly the cap: each write past it forgets one operation, not more.
	if n, _ := opsAccounting(t, s); n != maxOpsPerLocation {
		t.Errorf("%d operations kept, want the cap of %d", n, maxOpsPerLocation)
	}
	if _, err := s.Operation(first); err == nil {
		t.Errorf("the oldest operation, past the cap, is still there")
	}
	if len(s.reqs) != 0 {
		t.Errorf("%d request ids kept whose operations are gone", len(s.reqs))
	}
	// A restart loads the cap exactly, and forgets nothing more.
	mustClose(t, s)
	s = openFile(t, path)
	defer mustClose(t, s)
	if n, _ := opsAccounting(t, s); n != maxOpsPerLocation {
		t.Errorf("a restart loaded %d operations, want the %d kept", n, maxOpsPerLocation)
	}
}

// The bytes cap per location counts every byte an operation keeps: each
// stored field adds its length to the weight, and an empty record still
// weighs something, so that many small operations are bounded too.
func TestOperationWeightCountsEveryField(t *testing.T) {
	empty := (&opRecord{}).weight()
	if empty <= 0 {
		t.Errorf("an empty operation weighs %d; want more than 0", empty)
	}
	const n = 100
	text := strings.Repeat("x", n)
	for field, op := range map[string]*opRecord{
		"name": {Name: text}, "metadata": {Metadata: json.RawMessage(text)}, "response": {Response: json.RawMessage(text)},
		"ref": {Ref: text}, "refType": {RefType: text},
	} {
		if got := op.weight() - empty; got != n {
			t.Errorf("%d bytes of %s add %d to the weight; want %d", n, field, got, n)
		}
	}
}

// An operation keeps a response of up to maxOpResponseBytes as it is; one
// byte more becomes a reference to the resource, with its type.
func TestOperationResponseBound(t *testing.T) {
	for size, wantRef := range map[int]bool{maxOpResponseBytes: false, maxOpResponseBytes + 1: true} {
		head := `{"@type":"t","x":"`
		resp := json.RawMessage(head + strings.Repeat("x", size-len(head)-2) + `"}`)
		op := &opRecord{Response: resp}
		if got := op.bound("target"); got != wantRef {
			t.Errorf("a response of %d bytes: bound says %v, want %v", size, got, wantRef)
		}
		if wantRef && (op.Response != nil || op.Ref != "target" || op.RefType != "t") {
			t.Errorf("a response of %d bytes kept as %d bytes, reference %q of type %q", size, len(op.Response), op.Ref, op.RefType)
		}
		if !wantRef && len(op.Response) != size {
			t.Errorf("a response of %d bytes kept as %d", size, len(op.Response))
		}
	}
}

// A restart loads only what is kept: operations and request ids that have
// expired are neither loaded nor left in the data file (a restart loaded
// every operation in the file back once).
func TestRestartLoadsOnlyKeptOperations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	clk := newClock()
	s, err := Open(Options{DataPath: path, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	view(t)(s.CreateService("8a3c1f0e-2b4d-4e6f-8a1b-3c5d7e9f0a12", parent, "small", endpointService()))
	for i := range 5 {
		view(t)(s.UpdateService("", parent+"/services/small", "", rename("v"+strconv.Itoa(i))))
	}
	mustClose(t, s)
	clk.advance(2 * retention)
	s, err = Open(Options{DataPath: path, Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	if len(s.ops.byName) != 0 || len(s.reqs) != 0 {
		t.Errorf("a restart after the retention loaded %d operations and %d request ids", len(s.ops.byName), len(s.reqs))
	}
	mustClose(t, s)
	if ops, reqs := bucketKeys(t, path, bucketOperations), bucketKeys(t, path, bucketRequests); len(ops)+len(reqs) != 0 {
		t.Errorf("the data file keeps %d expired operations and %d request ids", len(ops), len(reqs))
	}
}

// Operations that a write sweeps as expired make room for it, so that at
// the count cap, a write after the oldest expired forgets no live
// operation: 300 operations, then 700 half an hour later, fill the cap; an
// hour after the first, a write sweeps 256 of the 300 (maxSweep) and keeps
// the 700 and the 44 not swept yet.
func TestOperationEvictionsCountSweptOperations(t *testing.T) {
	clk := newClock()
	s := open(t, Options{Now: clk.Now})
	// About 3.4 KB an operation: the cap of 1,000 holds 3.4 MB, under the
	// bytes cap, which counting a swept operation up instead of down passes.
	svc := endpointService()
	svc.Description = strings.Repeat("d", 2000)
	svc.Interfaces = []*resource.Interface{{Url: "https://example.test/" + strings.Repeat("a", 1200), ProtocolBinding: "HTTP_JSON"}}
	view(t)(s.CreateService("", parent, "small", svc))
	var live []string
	for i := range maxOpsPerLocation - 1 {
		if i == 299 {
			clk.advance(retention / 2)
		}
		name := opName(t)(s.UpdateService("", parent+"/services/small", "", rename("v"+strconv.Itoa(i))))
		if i >= 299 {
			live = append(live, name)
		}
	}
	if n, b := opsAccounting(t, s); n != maxOpsPerLocation || b > maxOpBytesPerLocation {
		t.Fatalf("%d operations of %d bytes before the sweep; want %d, at most %d bytes", n, b, maxOpsPerLocation, maxOpBytesPerLocation)
	}
	clk.advance(retention/2 + time.Second)
	view(t)(s.UpdateService("", parent+"/services/small", "", rename("after")))
	if n, _ := opsAccounting(t, s); n != maxOpsPerLocation-maxSweep+1 {
		t.Errorf("%d operations kept after a write that swept %d of %d; want %d", n, maxSweep, maxOpsPerLocation, maxOpsPerLocation-maxSweep+1)
	}
	for _, name := range live {
		if _, err := s.Operation(name); err != nil {
			t.Fatalf("a live operation was forgotten to make room that the sweep had made: %s: %v", name, err)
		}
	}
}

// At the bytes cap, a write forgets the oldest operations until it fits,
// and no more: 300 patches of a service whose operations weigh about 14 KB
// each keep between the cap less two operations and the cap.
func TestOperationsBytesCappedPerLocation(t *testing.T) {
	s := open(t, Options{})
	svc := endpointService()
	svc.Description = strings.Repeat("d", 2000)
	for range 6 {
		svc.Interfaces = append(svc.Interfaces, &resource.Interface{Url: "https://example.test/" + strings.Repeat("a", 1900), ProtocolBinding: "HTTP_JSON"})
	}
	view(t)(s.CreateService("", parent, "heavy", svc))
	heaviest := 0
	for i := range 300 {
		name := opName(t)(s.UpdateService("", parent+"/services/heavy", "", rename("v"+strconv.Itoa(i))))
		op, _ := s.ops.get(name)
		heaviest = max(heaviest, op.weight())
	}
	if heaviest < 12<<10 || heaviest > maxOpResponseBytes+1024 {
		t.Fatalf("the operations weigh %d bytes; the test wants about 14 KB, kept inline", heaviest)
	}
	n, b := opsAccounting(t, s)
	if b > maxOpBytesPerLocation || b <= maxOpBytesPerLocation-2*heaviest {
		t.Errorf("%d operations of %d bytes kept; want more than %d and at most %d bytes", n, b, maxOpBytesPerLocation-2*heaviest, maxOpBytesPerLocation)
	}
}

// A request id is a UUID, not the zero one: anything else is refused,
// naming request_id, before anything is written.
func TestRequestIDIsAUUID(t *testing.T) {
	s := open(t, Options{})
	for _, rid := range []string{"not-a-uuid", "00000000-0000-0000-0000-000000000000", "8a3c1f0e-2b4d-4e6f-8a1b-3c5d7e9f0a1", "8a3c1f0e-2b4d-4e6f-8a1b-3c5d7e9f0a12x"} {
		_, err := s.CreateService(rid, parent, "svc-one", endpointService())
		if !strings.Contains(violationsOf(t, err)["request_id"], "must be a UUID") {
			t.Errorf("request id %q: %v", rid, err)
		}
	}
	if _, err := s.Service(parent + "/services/svc-one"); err == nil {
		t.Error("a write with a refused request id was stored")
	}
}

// An operation whose response is a reference answers with the resource as
// it is, and without a response once the resource is gone.
func TestOperationReferenceFollowsTheResource(t *testing.T) {
	s := open(t, Options{})
	op := opName(t)(s.CreateService("", parent, "big-one", bigService("v")))
	view(t)(s.UpdateService("", parent+"/services/big-one", "displayName", rename("renamed")))
	var svc resource.Service
	if got := getOp(t, s, op); json.Unmarshal(got.Response, &svc) != nil || svc.DisplayName != "renamed" {
		t.Errorf("the create's response after an update: %.200s", got.Response)
	}
	view(t)(s.DeleteService("", parent+"/services/big-one"))
	if got := getOp(t, s, op); got.Response != nil || !got.Done {
		t.Errorf("the create's response once the service is gone: %.200s", got.Response)
	}
}
