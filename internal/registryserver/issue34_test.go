package registryserver

// Issue 34: the third hostile probe's findings, one test each (the
// connection cap's is in cmd/agentregistry-server).

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
)

// Finding 1: with -data and -operation-delay, a skill created with its
// first revision keeps that revision's archive (on main it was deleted as
// soon as the request returned, since the revision counted as committed
// only once its delayed operation was done); and a start that finds a
// revision without its archive refuses to serve, naming it.
func TestDelayedSkillCreateKeepsItsArchive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	srv, err := New(Options{DataPath: path, OperationDelay: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	create := `{"type":"SIMPLE","targetState":"TARGET_STATE_ACTIVE","initialRevision":` + revisionBody(t, "first") + `}`
	if w := do(t, srv, "POST", "/v1/"+archiveParent+"/skills?skillId=pdf-tools", create); w.Code != http.StatusOK {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	if files := archiveFiles(t, path); len(files) != 1 {
		t.Errorf("after an acknowledged create with its first revision, the archives are %v, want one", files)
	}
	mustClose(t, srv)
	srv = openServer(t, path) // every committed record is visible after a restart
	if w := do(t, srv, "GET", "/v1/"+archiveParent+"/skills/pdf-tools/revisions/rev-1", ""); w.Code != http.StatusOK {
		t.Fatalf("the revision after a restart: %d %s", w.Code, w.Body)
	}
	mustClose(t, srv)

	for _, f := range archiveFiles(t, path) {
		if err := os.Remove(filepath.Join(path+".archives", f)); err != nil {
			t.Fatal(err)
		}
	}
	srv, err = New(Options{DataPath: path})
	if err == nil {
		mustClose(t, srv)
		t.Fatal("a start with a revision whose archive is missing served as healthy")
	}
	if msg := err.Error(); !strings.Contains(msg, archiveParent+"/skills/pdf-tools/revisions/rev-1") || !strings.Contains(msg, "archive") {
		t.Errorf("the start's error does not name the revision and its archive: %v", err)
	}
}

// Finding 1: the start's error names the first ten revisions whose archive
// is missing, and says when there are more.
func TestMissingArchivesNamedTenAtMost(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	srv := openServer(t, path)
	if w := do(t, srv, "POST", "/v1/"+archiveParent+"/skills?skillId=pdf-tools", `{"type":"SIMPLE","targetState":"TARGET_STATE_ACTIVE"}`); w.Code != http.StatusOK {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	for i := range 11 {
		if w := do(t, srv, "POST", "/v1/"+archiveParent+"/skills/pdf-tools/revisions", revisionBody(t, "d"+strconv.Itoa(i))); w.Code != http.StatusOK {
			t.Fatalf("revision %d: %d %s", i, w.Code, w.Body)
		}
	}
	mustClose(t, srv)
	files := archiveFiles(t, path)
	if len(files) != 11 {
		t.Fatalf("%d archives, want 11", len(files))
	}
	for i, f := range files {
		if err := os.Remove(filepath.Join(path+".archives", f)); err != nil {
			t.Fatal(err)
		}
		if i < 9 {
			continue
		}
		srv, err := New(Options{DataPath: path})
		if err == nil {
			mustClose(t, srv)
			t.Fatalf("%d archives missing: the start served as healthy", i+1)
		}
		more := strings.Contains(err.Error(), ", ...)")
		if !strings.Contains(err.Error(), ": "+strconv.Itoa(i+1)+" skill revisions have no archive") || more != (i+1 > 10) {
			t.Errorf("%d archives missing: %v", i+1, err)
		}
	}
}

// Finding 6: a revision create retried with its request id returns the
// operation of the first, with or without a skillRevisionId (on main the
// retry was refused: "was already used for a different request").
func TestRetriedRevisionCreateReplays(t *testing.T) {
	srv, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w := do(t, srv, "POST", "/v1/"+archiveParent+"/skills?skillId=pdf-tools", `{"type":"SIMPLE","targetState":"TARGET_STATE_ACTIVE"}`); w.Code != http.StatusOK {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	for i, query := range []string{"", "&skillRevisionId=chosen-id"} {
		rid := "8a3c1f0e-2b4d-4e6f-8a1b-3c5d7e9f0a1" + strconv.Itoa(i)
		url := "/v1/" + archiveParent + "/skills/pdf-tools/revisions?requestId=" + rid + query
		first := do(t, srv, "POST", url, revisionBody(t, "d"))
		retry := do(t, srv, "POST", url, revisionBody(t, "d"))
		if first.Code != http.StatusOK || retry.Code != http.StatusOK {
			t.Fatalf("%q: first %d %s; retry %d %s", query, first.Code, first.Body, retry.Code, retry.Body)
		}
		if opName(t, first.Body.Bytes()) != opName(t, retry.Body.Bytes()) {
			t.Errorf("%q: the retry got another operation: %s, then %s", query, first.Body, retry.Body)
		}
	}
	w := do(t, srv, "GET", "/v1/"+archiveParent+"/skills/pdf-tools/revisions", "")
	if n := strings.Count(w.Body.String(), `"sha256Hash"`); n != 2 {
		t.Errorf("%d revisions after two creates each sent twice, want 2: %s", n, w.Body)
	}
}

// Finding 6: the replay is bound to the revision id the client chose, so
// the same request id sent for another revision id is refused, not replayed.
func TestRevisionRequestIDBoundToItsRevisionID(t *testing.T) {
	srv, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if w := do(t, srv, "POST", "/v1/"+archiveParent+"/skills?skillId=pdf-tools", `{"type":"SIMPLE","targetState":"TARGET_STATE_ACTIVE"}`); w.Code != http.StatusOK {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	url := "/v1/" + archiveParent + "/skills/pdf-tools/revisions?requestId=8a3c1f0e-2b4d-4e6f-8a1b-3c5d7e9f0a18&skillRevisionId="
	if w := do(t, srv, "POST", url+"first-id", revisionBody(t, "d")); w.Code != http.StatusOK {
		t.Fatalf("first: %d %s", w.Code, w.Body)
	}
	w := do(t, srv, "POST", url+"other-id", revisionBody(t, "d"))
	if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "different request") {
		t.Errorf("the same request id for another revision id: %d %s, want 400 saying it was used for a different request", w.Code, w.Body)
	}
}

// Finding 6, after a restart: the request id is stored under what the
// client called, so a retry that reaches a restarted server (with -data)
// still gets the first operation.
func TestRetriedRevisionCreateReplaysAfterARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	srv := openServer(t, path)
	if w := do(t, srv, "POST", "/v1/"+archiveParent+"/skills?skillId=pdf-tools", `{"type":"SIMPLE","targetState":"TARGET_STATE_ACTIVE"}`); w.Code != http.StatusOK {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	url := "/v1/" + archiveParent + "/skills/pdf-tools/revisions?requestId=8a3c1f0e-2b4d-4e6f-8a1b-3c5d7e9f0a19"
	first := do(t, srv, "POST", url, revisionBody(t, "d"))
	mustClose(t, srv)
	srv = openServer(t, path)
	defer mustClose(t, srv)
	retry := do(t, srv, "POST", url, revisionBody(t, "d"))
	if first.Code != http.StatusOK || retry.Code != http.StatusOK {
		t.Fatalf("first %d %s; retry after the restart %d %s", first.Code, first.Body, retry.Code, retry.Body)
	}
	if opName(t, first.Body.Bytes()) != opName(t, retry.Body.Bytes()) {
		t.Errorf("the retry after a restart got another operation: %s, then %s", first.Body, retry.Body)
	}
}

func opName(t *testing.T, body []byte) string {
	t.Helper()
	var op struct{ Name string }
	if err := json.Unmarshal(body, &op); err != nil || op.Name == "" {
		t.Fatalf("not an operation: %s", body)
	}
	return op.Name
}

// Finding 7: every logged value is truncated to a prefix and its length:
// 1 MB paths sent without a token wrote 1 MB log lines on main.
func TestLoggedValuesTruncated(t *testing.T) {
	var buf bytes.Buffer
	srv, err := New(Options{Token: "secret", Logger: slog.New(slog.NewTextHandler(&buf, nil))})
	if err != nil {
		t.Fatal(err)
	}
	long := "/v1/" + strings.Repeat("a", 1<<20)
	method := strings.Repeat("M", 1<<16)
	if w := do(t, srv, "GET", long, ""); w.Code != http.StatusUnauthorized {
		t.Fatalf("%d", w.Code)
	}
	if w := do(t, srv, method, "/v1/x", ""); w.Code != http.StatusUnauthorized {
		t.Fatalf("%d", w.Code)
	}
	for _, line := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if len(line) > 2048 {
			t.Errorf("a log line of %d bytes: %.200s...", len(line), line)
		}
	}
	for _, n := range []int{len(long), len(method)} {
		if !strings.Contains(buf.String(), strconv.Itoa(n)+" bytes") {
			t.Errorf("the log does not give the length of a truncated value (%d bytes): %.300s", n, buf.String())
		}
	}
}

// Finding 8: skills.list orders by the fields it can and refuses others, as
// every other list does (on main orderBy was ignored, even "bogus").
func TestSkillsListOrderBy(t *testing.T) {
	srv, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, sk := range []struct{ id, display string }{{"alpha", "Zed"}, {"beta", "Mid"}, {"gamma", "Ace"}} {
		body := `{"type":"SIMPLE","targetState":"TARGET_STATE_ACTIVE","displayName":"` + sk.display + `"}`
		if w := do(t, srv, "POST", "/v1/"+archiveParent+"/skills?skillId="+sk.id, body); w.Code != http.StatusOK {
			t.Fatalf("create: %d %s", w.Code, w.Body)
		}
	}
	if w := do(t, srv, "GET", "/v1/"+archiveParent+"/skills?orderBy=bogus", ""); w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "order_by") {
		t.Errorf("orderBy=bogus: %d %s, want 400 naming order_by", w.Code, w.Body)
	}
	for orderBy, want := range map[string]string{"displayName": "gamma beta alpha", "name desc": "gamma beta alpha", "display_name desc": "alpha beta gamma", "": "alpha beta gamma"} {
		var got []string
		tok := ""
		for {
			w := do(t, srv, "GET", "/v1/"+archiveParent+"/skills?pageSize=2&orderBy="+strings.ReplaceAll(orderBy, " ", "%20")+"&pageToken="+tok, "")
			var resp struct {
				Skills        []struct{ Name string }
				NextPageToken string
			}
			if w.Code != http.StatusOK || json.Unmarshal(w.Body.Bytes(), &resp) != nil {
				t.Fatalf("orderBy=%q: %d %s", orderBy, w.Code, w.Body)
			}
			for _, sk := range resp.Skills {
				got = append(got, lastSegment(sk.Name))
			}
			if tok = resp.NextPageToken; tok == "" {
				break
			}
		}
		if strings.Join(got, " ") != want {
			t.Errorf("orderBy=%q: %v, want %s", orderBy, got, want)
		}
	}
}

// Finding 5: an ordered list computes each record's sort keys once and
// keeps only a page's worth: on main every comparison of the sort built the
// records' maps again and parsed their times (about 2 n log n calls), and
// every page sorted the whole collection.
func TestOrderedListComputesKeysOnce(t *testing.T) {
	srv, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	const n = 4000
	for i := range n {
		name := archiveParent + "/bindings/b-" + strconv.Itoa(i)
		srv.bindings.put(name, &resource.Binding{Name: name, DisplayName: strconv.Itoa(i * 7919 % n)})
	}
	// The display names are a permutation of 0..n-1, compared as strings.
	var want []string
	for i := range n {
		want = append(want, strconv.Itoa(i))
	}
	slices.Sort(want)
	slices.Reverse(want)
	calls := 0
	key := func(b *resource.Binding, f string) string { calls++; return bindingKey(b, f) }
	tok := ""
	for page := 0; page < 3; page++ {
		r := httptest.NewRequest("GET", "/v1/"+archiveParent+"/bindings?orderBy=displayName%20desc&pageSize=50&pageToken="+tok, nil)
		calls = 0
		got, next, err := listOrdered(srv, r, srv.bindings, archiveParent, "bindings.list", "", nil, bindingOrder, key,
			func(b *resource.Binding) string { return b.Name })
		if err != nil || len(got) != 50 || next == "" {
			t.Fatalf("page %d: %d bindings, next %q, %v", page, len(got), next, err)
		}
		if calls > n {
			t.Errorf("page %d: the sort keys of %d bindings were computed %d times", page, n, calls)
		}
		var names []string
		for _, b := range got {
			names = append(names, b.DisplayName)
		}
		if w := want[page*50 : (page+1)*50]; !slices.Equal(names, w) {
			t.Errorf("page %d: %v, want %v", page, names, w)
		}
		tok = next
	}
}

// Finding 5: bindings, workloads and services have a count cap per
// location, as skills do (on main bindings and workloads had none).
func TestCountCapsPerLocation(t *testing.T) {
	srv, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	other := "projects/p1/locations/elsewhere"
	// The caps count what each collection holds per location: set them full
	// (creating 150,000 records would only cost the test time).
	srv.bindings.perLoc[archiveParent] = maxBindingsPerLocation
	srv.workloads.perLoc[archiveParent] = maxWorkloadsPerLocation
	srv.services.perLoc[archiveParent] = maxServicesPerLocation
	binding := `{"target":{"identifier":"urn:agent:acme:travel:planner"}}`
	service := `{"endpointSpec":{"type":"NO_SPEC"}}`
	for _, c := range []struct{ method, path, body string }{
		{"POST", "/bindings?bindingId=one-more", binding},
		{"PATCH", "/applications/a9/workloads/one-more?allowMissing=true&updateMask=displayName", `{"displayName":"W"}`},
		{"POST", "/services?serviceId=one-more", service},
	} {
		if w := do(t, srv, c.method, "/v1/"+archiveParent+c.path, c.body); w.Code != http.StatusTooManyRequests || !strings.Contains(w.Body.String(), "per location") {
			t.Errorf("%s %s at the cap: %d %.300s, want 429 naming the cap", c.method, c.path, w.Code, w.Body)
		}
		if w := do(t, srv, c.method, "/v1/"+other+c.path, c.body); w.Code != http.StatusOK {
			t.Errorf("%s %s in another location: %d %.300s", c.method, c.path, w.Code, w.Body)
		}
	}
}

// bigService is an endpoint service of about 64 KB: 32 interfaces with URLs
// of 2,000 bytes, the most a service may carry besides its document.
func bigService(display string) string {
	var ifs []string
	for i := range maxInterfaces {
		ifs = append(ifs, `{"url":"https://example.test/`+strconv.Itoa(i)+strings.Repeat("a", 1970)+`","protocolBinding":"HTTP_JSON"}`)
	}
	return `{"displayName":"` + display + `","endpointSpec":{"type":"NO_SPEC"},"interfaces":[` + strings.Join(ifs, ",") + `]}`
}

// Finding 2: operations keep a bounded response (a reference beyond
// maxOpResponseBytes) and the search index compacts by dead bytes: 300
// patches of a large service pinned a copy of it per operation and per
// dead index version on main.
func TestRepeatedPatchesDoNotPinCopies(t *testing.T) {
	srv, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	svc := "/v1/" + archiveParent + "/services/big-one"
	if w := do(t, srv, "POST", "/v1/"+archiveParent+"/services?serviceId=big-one", bigService("v")); w.Code != http.StatusOK {
		t.Fatalf("create: %d %.300s", w.Code, w.Body)
	}
	var last string
	for i := range 80 {
		w := do(t, srv, "PATCH", svc+"?updateMask=displayName", `{"displayName":"v`+strconv.Itoa(i)+`"}`)
		if w.Code != http.StatusOK {
			t.Fatalf("patch %d: %d %.300s", i, w.Code, w.Body)
		}
		last = opName(t, w.Body.Bytes())
	}
	held := 0
	for _, op := range srv.ops.byName {
		held += len(op.Response)
	}
	if held > maxOpBytesPerLocation {
		t.Errorf("the operations of 80 patches hold %d bytes of responses, over %d", held, maxOpBytesPerLocation)
	}
	const compactBytes = 1 << 20 // the index's: it is rebuilt once its dead versions weigh this and outweigh the live ones
	if versions, deadBytes := srv.endpointIx[archiveParent].Held(); versions > 2*compactBytes/(60<<10)+2 {
		t.Errorf("the endpoint index holds %d versions (%d dead bytes) of one service", versions, deadBytes)
	}
	// The response of a referenced operation is the service as it is.
	w := do(t, srv, "GET", "/v1/"+last, "")
	var op struct {
		Response struct{ Name, DisplayName string }
	}
	if w.Code != http.StatusOK || json.Unmarshal(w.Body.Bytes(), &op) != nil || op.Response.DisplayName != "v79" || !strings.HasSuffix(op.Response.Name, "/services/big-one") {
		t.Errorf("the last patch's operation: %d %.300s", w.Code, w.Body)
	}
	// operations.list pages stay under search.MaxPageBytes (the references are
	// rendered, 64 KB each), and go on where they stopped.
	listEveryOperationOnce(t, srv, 81)
}

// Finding 2: a location keeps at most maxOpsPerLocation operations, the
// newest: the oldest is forgotten first, with its request id, in memory and
// in the data file.
func TestOperationsCappedPerLocation(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	srv := openServer(t, path)
	w := do(t, srv, "POST", "/v1/"+archiveParent+"/services?serviceId=small&requestId=8a3c1f0e-2b4d-4e6f-8a1b-3c5d7e9f0a12", `{"endpointSpec":{"type":"NO_SPEC"}}`)
	if w.Code != http.StatusOK {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	first := opName(t, w.Body.Bytes())
	for i := range maxOpsPerLocation + 50 {
		if w := do(t, srv, "PATCH", "/v1/"+archiveParent+"/services/small", `{"displayName":"v`+strconv.Itoa(i)+`"}`); w.Code != http.StatusOK {
			t.Fatalf("patch %d: %d %s", i, w.Code, w.Body)
		}
	}
	// Exactly the cap: each write past it forgets one operation, not more.
	if n, _ := opsAccounting(t, srv); n != maxOpsPerLocation {
		t.Errorf("%d operations kept, want the cap of %d", n, maxOpsPerLocation)
	}
	if w := do(t, srv, "GET", "/v1/"+first, ""); w.Code != http.StatusNotFound {
		t.Errorf("the oldest operation, past the cap: %d", w.Code)
	}
	if len(srv.reqs) != 0 {
		t.Errorf("%d request ids kept whose operations are gone", len(srv.reqs))
	}
	// A restart loads the cap exactly, and forgets nothing more.
	mustClose(t, srv)
	srv = openServer(t, path)
	defer mustClose(t, srv)
	if n, _ := opsAccounting(t, srv); n != maxOpsPerLocation {
		t.Errorf("a restart loaded %d operations, want the %d kept", n, maxOpsPerLocation)
	}
}

// Finding 2: the bytes cap per location counts every byte an operation
// keeps: each stored field adds its length to the weight, and an empty record
// still weighs something, so that many small operations are bounded too.
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

// Finding 2: an operation keeps a response of up to maxOpResponseBytes as
// it is; one byte more becomes a reference to the resource, with its type.
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

// Finding 2: a restart loads only what is kept: operations and request ids
// that have expired are neither loaded nor left in the data file (on main
// a restart loaded every operation in the file back).
func TestRestartLoadsOnlyKeptOperations(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	srv, err := New(Options{DataPath: path, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	do(t, srv, "POST", "/v1/"+archiveParent+"/services?serviceId=small&requestId=8a3c1f0e-2b4d-4e6f-8a1b-3c5d7e9f0a12", `{"endpointSpec":{"type":"NO_SPEC"}}`)
	for i := range 5 {
		do(t, srv, "PATCH", "/v1/"+archiveParent+"/services/small", `{"displayName":"v`+strconv.Itoa(i)+`"}`)
	}
	mustClose(t, srv)
	now = now.Add(2 * retention)
	srv, err = New(Options{DataPath: path, Now: clock})
	if err != nil {
		t.Fatal(err)
	}
	if len(srv.ops.byName) != 0 || len(srv.reqs) != 0 {
		t.Errorf("a restart after the retention loaded %d operations and %d request ids", len(srv.ops.byName), len(srv.reqs))
	}
	mustClose(t, srv)
	if ops, reqs := bucketKeys(t, path, bucketOperations), bucketKeys(t, path, bucketRequests); len(ops)+len(reqs) != 0 {
		t.Errorf("the data file keeps %d expired operations and %d request ids", len(ops), len(reqs))
	}
}

// Finding 3: every list page has a byte bound, and the strings that had
// no cap have one: interface URLs (2,048 bytes, as bindings' URIs) and a
// workload's owners.
func TestPagesAndStringsBounded(t *testing.T) {
	srv, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range 80 {
		if w := do(t, srv, "POST", "/v1/"+archiveParent+"/services?serviceId=big-"+strconv.Itoa(100+i), bigService("v")); w.Code != http.StatusOK {
			t.Fatalf("create: %d %.300s", w.Code, w.Body)
		}
	}
	for _, list := range []string{"services", "endpoints"} {
		tok, n := "", 0
		for pages := 0; ; pages++ {
			w := do(t, srv, "GET", "/v1/"+archiveParent+"/"+list+"?pageSize=100&pageToken="+tok, "")
			var page map[string]json.RawMessage
			if w.Code != http.StatusOK || json.Unmarshal(w.Body.Bytes(), &page) != nil {
				t.Fatalf("%s: %d %.300s", list, w.Code, w.Body)
			}
			if w.Body.Len() > search.MaxPageBytes+64<<10 {
				t.Errorf("%s: a page of %d bytes", list, w.Body.Len())
			}
			var items []json.RawMessage
			_ = json.Unmarshal(page[list], &items)
			n += len(items)
			if page["nextPageToken"] == nil {
				break
			}
			_ = json.Unmarshal(page["nextPageToken"], &tok)
		}
		if n != 80 {
			t.Errorf("%s: %d listed over the pages, want 80", list, n)
		}
	}
	long := `{"endpointSpec":{"type":"NO_SPEC"},"interfaces":[{"url":"https://example.test/` + strings.Repeat("a", 2030) + `","protocolBinding":"HTTP_JSON"}]}`
	if w := do(t, srv, "POST", "/v1/"+archiveParent+"/services?serviceId=long-url", long); w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "interfaces[0].url") {
		t.Errorf("an interface URL of 2,050 bytes: %d %.300s", w.Code, w.Body)
	}
	owners := strings.Repeat(`{"email":"a@example.test"},`, maxOwners) + `{"email":"` + strings.Repeat("b", 300) + `@example.test"}`
	w := do(t, srv, "PATCH", "/v1/"+archiveParent+"/applications/app/workloads/w-1?allowMissing=true&updateMask=attributes",
		`{"attributes":{"businessOwners":[`+owners+`],"developerOwners":[{"email":"`+strings.Repeat("c", 300)+`"}],"criticality":{"type":"NOT_A_TYPE"}}}`)
	for _, want := range []string{"attributes.business_owners", "attributes.developer_owners[0].email", "attributes.criticality.type"} {
		if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), want) {
			t.Errorf("workload attributes past their caps: %d %.400s, want 400 naming %s", w.Code, w.Body, want)
		}
	}
}

// opsAccounting checks that the bytes kept for the operations of
// archiveParent are the sum of their weights, and returns how many it keeps
// and their bytes.
func opsAccounting(t *testing.T, srv *Server) (count, bytes int) {
	t.Helper()
	loc := archiveParent
	sum := 0
	for _, name := range srv.ops.order[loc] {
		op, _ := srv.ops.get(name)
		sum += op.weight()
	}
	if srv.opBytes[loc] != sum {
		t.Errorf("the operations of %s are counted as %d bytes; their weights add up to %d", loc, srv.opBytes[loc], sum)
	}
	return srv.ops.perLoc[loc], srv.opBytes[loc]
}

// Finding 2: operations that a write sweeps as expired make room for it, so
// that at the count cap, a write after the oldest expired forgets no live
// operation: 300 operations, then 700 half an hour later, fill the cap; an
// hour after the first, a write sweeps 256 of the 300 (maxSweep) and keeps
// the 700 and the 44 not swept yet.
func TestOperationEvictionsCountSweptOperations(t *testing.T) {
	now := time.Date(2026, 1, 1, 12, 0, 0, 0, time.UTC)
	srv, err := New(Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	// About 3.4 KB an operation: the cap of 1,000 holds 3.4 MB, under the
	// bytes cap, which counting a swept operation up instead of down passes.
	svc := `{"description":"` + strings.Repeat("d", 2000) + `","endpointSpec":{"type":"NO_SPEC"},"interfaces":[{"url":"https://example.test/` +
		strings.Repeat("a", 1200) + `","protocolBinding":"HTTP_JSON"}]}`
	if w := do(t, srv, "POST", "/v1/"+archiveParent+"/services?serviceId=small", svc); w.Code != http.StatusOK {
		t.Fatalf("create: %d %.300s", w.Code, w.Body)
	}
	var live []string
	for i := range maxOpsPerLocation - 1 {
		if i == 299 {
			now = now.Add(retention / 2)
		}
		w := do(t, srv, "PATCH", "/v1/"+archiveParent+"/services/small", `{"displayName":"v`+strconv.Itoa(i)+`"}`)
		if w.Code != http.StatusOK {
			t.Fatalf("patch %d: %d %s", i, w.Code, w.Body)
		}
		if i >= 299 {
			live = append(live, opName(t, w.Body.Bytes()))
		}
	}
	if n, b := opsAccounting(t, srv); n != maxOpsPerLocation || b > maxOpBytesPerLocation {
		t.Fatalf("%d operations of %d bytes before the sweep; want %d, at most %d bytes", n, b, maxOpsPerLocation, maxOpBytesPerLocation)
	}
	now = now.Add(retention/2 + time.Second)
	if w := do(t, srv, "PATCH", "/v1/"+archiveParent+"/services/small", `{"displayName":"after"}`); w.Code != http.StatusOK {
		t.Fatalf("patch after the sweep: %d %s", w.Code, w.Body)
	}
	if n, _ := opsAccounting(t, srv); n != maxOpsPerLocation-maxSweep+1 {
		t.Errorf("%d operations kept after a write that swept %d of %d; want %d", n, maxSweep, maxOpsPerLocation, maxOpsPerLocation-maxSweep+1)
	}
	for _, name := range live {
		if w := do(t, srv, "GET", "/v1/"+name, ""); w.Code != http.StatusOK {
			t.Fatalf("a live operation was forgotten to make room that the sweep had made: %s: %d", name, w.Code)
		}
	}
}

// Finding 2: at the bytes cap, a write forgets the oldest operations until
// it fits, and no more: 300 patches of a service whose operations weigh
// about 14 KB each keep between the cap less two operations and the cap.
func TestOperationsBytesCappedPerLocation(t *testing.T) {
	srv, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	svc := `{"description":"` + strings.Repeat("d", 2000) + `","endpointSpec":{"type":"NO_SPEC"},"interfaces":[` +
		strings.TrimSuffix(strings.Repeat(`{"url":"https://example.test/`+strings.Repeat("a", 1900)+`","protocolBinding":"HTTP_JSON"},`, 6), ",") + `]}`
	if w := do(t, srv, "POST", "/v1/"+archiveParent+"/services?serviceId=heavy", svc); w.Code != http.StatusOK {
		t.Fatalf("create: %d %.300s", w.Code, w.Body)
	}
	heaviest := 0
	for i := range 300 {
		w := do(t, srv, "PATCH", "/v1/"+archiveParent+"/services/heavy", `{"displayName":"v`+strconv.Itoa(i)+`"}`)
		if w.Code != http.StatusOK {
			t.Fatalf("patch %d: %d %s", i, w.Code, w.Body)
		}
		op, _ := srv.ops.get(opName(t, w.Body.Bytes()))
		heaviest = max(heaviest, op.weight())
	}
	if heaviest < 12<<10 || heaviest > maxOpResponseBytes+1024 {
		t.Fatalf("the operations weigh %d bytes; the test wants about 14 KB, kept inline", heaviest)
	}
	n, b := opsAccounting(t, srv)
	if b > maxOpBytesPerLocation || b <= maxOpBytesPerLocation-2*heaviest {
		t.Errorf("%d operations of %d bytes kept; want more than %d and at most %d bytes", n, b, maxOpBytesPerLocation-2*heaviest, maxOpBytesPerLocation)
	}
}

// listEveryOperationOnce walks operations.list at pageSize 100, and wants
// each page filled up to search.MaxPageBytes (n operations of a 64 KB service take
// n*64 KB / search.MaxPageBytes pages, rounded up) and every operation listed once.
func listEveryOperationOnce(t *testing.T, srv *Server, n int) {
	t.Helper()
	seen := map[string]int{}
	tok, pages := "", 0
	for ; pages < 100; pages++ {
		w := do(t, srv, "GET", "/v1/"+archiveParent+"/operations?pageSize=100&pageToken="+tok, "")
		var page struct {
			Operations    []struct{ Name string }
			NextPageToken string
		}
		if w.Code != http.StatusOK || json.Unmarshal(w.Body.Bytes(), &page) != nil || w.Body.Len() > search.MaxPageBytes+64<<10 {
			t.Fatalf("page %d: %d, %d bytes", pages, w.Code, w.Body.Len())
		}
		for _, op := range page.Operations {
			seen[op.Name]++
		}
		if tok = page.NextPageToken; tok == "" {
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

// Finding 7: a logged value is whole up to maxLogged bytes; past it, its
// first maxLogged bytes cut back to a rune boundary, and its length. A value
// that is not UTF-8 at all is cut to nothing rather than past its start.
func TestClip(t *testing.T) {
	at := strings.Repeat("a", maxLogged)
	straddling := strings.Repeat("a", maxLogged-1) + "é" // é's second byte is byte maxLogged
	notUTF8 := strings.Repeat("\x80", maxLogged+10)
	for in, want := range map[string]string{
		at:         at,
		at + "b":   at + "... (257 bytes)",
		straddling: strings.Repeat("a", maxLogged-1) + "... (257 bytes)",
		notUTF8:    "... (266 bytes)",
	} {
		if got := clip(in); got != want {
			t.Errorf("clip of %d bytes = %.40q (%d bytes), want %.40q", len(in), got, len(got), want)
		}
	}
}

// Finding 3: an interface URL of exactly maxURILength bytes is taken; one
// byte more is refused, naming the field.
func TestInterfaceURLAtItsCap(t *testing.T) {
	srv, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	for extra, want := range map[int]int{0: http.StatusOK, 1: http.StatusBadRequest} {
		u := "https://example.test/"
		u += strings.Repeat("a", maxURILength-len(u)+extra)
		body := `{"endpointSpec":{"type":"NO_SPEC"},"interfaces":[{"url":"` + u + `","protocolBinding":"HTTP_JSON"}]}`
		w := do(t, srv, "POST", "/v1/"+archiveParent+"/services?serviceId=url-"+strconv.Itoa(len(u)), body)
		if w.Code != want || (want == http.StatusBadRequest && !strings.Contains(w.Body.String(), "interfaces[0].url")) {
			t.Errorf("an interface URL of %d bytes: %d %.300s, want %d", len(u), w.Code, w.Body, want)
		}
	}
}
