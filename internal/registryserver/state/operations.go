package state

// Long-running operations and request-id idempotency.
//
// Every write (service create/patch/delete, workload patch/delete) is applied
// and committed when the request arrives, and returns an Operation. With
// Options.OperationDelay the operation reports done:false until the delay has
// passed, so that clients' polling is exercised; the write is committed
// already, and a created resource becomes visible when its operation is done
// (visibility.go). operations.get, list, cancel and delete are read and
// changed below; the server's handlers of those methods are in
// registryserver/operations.go.
//
// requestId: the first request with a given id records (id -> operation) in
// the same transaction as the write. A retry with the same id, verb and
// target returns that operation and does nothing else; reusing an id for a
// different request is INVALID_ARGUMENT (it is a client bug that would
// otherwise silently drop the second request). Ids are UUIDs, compared
// without regard to case, and scoped to the parent (project and location):
// the same id in another parent is another request, and an error never
// names another project's resource.
//
// Expiry: an operation and its request id are kept for retention after the
// operation finished, then forgotten, in memory and on disk. Each write
// deletes, in its own transaction, the records that have expired (a bounded
// number of them, oldest first); until then lookups treat them as gone.

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
)

// retention is how long an operation and its request id are kept after the
// operation finished. Google keeps request ids for at least 60 minutes; a
// client that polls or retries later than that has long given up.
const retention = time.Hour

// maxSweep bounds how many expired records one write deletes, so that the
// first write after a long quiet spell is not slowed by a backlog.
const maxSweep = 256

type opRecord struct {
	Name     string          `json:"name"`
	Metadata json.RawMessage `json:"metadata,omitempty"`
	Response json.RawMessage `json:"response,omitempty"`
	DoneAt   time.Time       `json:"doneAt"`
	// CancelRequested is set by operations.cancel before the operation is
	// done. The change it reports is committed already, so it completes all
	// the same; its metadata says that cancellation was requested.
	CancelRequested bool `json:"cancelRequested,omitempty"`
	// Deleted is set by operations.delete: the operation is gone for get,
	// list and cancel, and kept only so that a retry of its request (same
	// request id) still gets it instead of being taken for a new request.
	Deleted bool `json:"deleted,omitempty"`
	// Ref names the resource whose current version is the response, when
	// the written resource was larger than maxOpResponseBytes (RefType is
	// its type URL): an operation never keeps a large copy.
	Ref     string `json:"ref,omitempty"`
	RefType string `json:"refType,omitempty"`

	req *requestRecord // the request record that names the operation, if any
}

// Bounds on what operations keep, so that their memory follows what the
// registry holds, never how many writes it was sent: a response of up to
// maxOpResponseBytes is kept, a larger one becomes a reference; and a
// location keeps at most maxOpsPerLocation operations and
// maxOpBytesPerLocation bytes of them, forgetting the oldest first (with
// their request ids) when a write would pass either.
const (
	maxOpResponseBytes    = 16 << 10
	maxOpsPerLocation     = 1000
	maxOpBytesPerLocation = 4 << 20
)

// weight is what the operation costs in memory, roughly.
func (op *opRecord) weight() int {
	return len(op.Name) + len(op.Metadata) + len(op.Response) + len(op.Ref) + len(op.RefType) + 64
}

// bound turns a response larger than maxOpResponseBytes into a reference
// to target; true when it did.
func (op *opRecord) bound(target string) bool {
	if len(op.Response) <= maxOpResponseBytes {
		return false
	}
	var head struct {
		Type string `json:"@type"`
	}
	_ = json.Unmarshal(op.Response, &head)
	op.Response, op.Ref, op.RefType = nil, target, head.Type
	return true
}

func (op *opRecord) expired(now time.Time) bool { return !now.Before(op.DoneAt.Add(retention)) }

type requestRecord struct {
	ID        string    `json:"id"`
	Verb      string    `json:"verb"`
	Target    string    `json:"target"`
	Operation string    `json:"operation"`
	Time      time.Time `json:"time"`
	// key is the record's key in the data file: requestKey of the record,
	// or the bare request id in files written before ids were scoped.
	key string
}

// retarget records the request under verb and target (what the client
// called, which may differ from the operation's) and rewrites its mutation,
// the last of opMs.
func (rr *requestRecord) retarget(opMs []mutation, verb, target string) error {
	rr.Verb, rr.Target = verb, target
	b, err := json.Marshal(rr)
	if err != nil {
		return err
	}
	opMs[len(opMs)-1].Value = b
	return nil
}

func (rr *requestRecord) expired(now time.Time) bool { return !now.Before(rr.Time.Add(retention)) }

// requestKey is the key of a request id: scoped to the parent of its
// target, and lower-cased, since a UUID's hex digits may be sent in either
// case.
func requestKey(target, requestID string) string {
	return ParentOf(target) + "/requests/" + strings.ToLower(requestID)
}

// expiring is a record to delete once at has passed: an operation, a request
// record, or both.
type expiring struct {
	at time.Time
	op string
	rr *requestRecord
}

// apiFamily selects the type URLs of an operation's metadata.
type apiFamily string

const (
	familyAgentRegistry apiFamily = "google.cloud.agentregistry.v1"
	familyAppHub        apiFamily = "google.cloud.apphub.v1"
)

type opMetadata struct {
	Type                  string `json:"@type"`
	CreateTime            string `json:"createTime"`
	EndTime               string `json:"endTime,omitempty"`
	Target                string `json:"target"`
	Verb                  string `json:"verb"`
	StatusMessage         string `json:"statusMessage,omitempty"`
	RequestedCancellation bool   `json:"requestedCancellation,omitempty"`
	APIVersion            string `json:"apiVersion"`
}

// The statusMessage of an operation: what the server knows of its state.
const (
	statusApplying  = "The change is committed; it becomes visible when the operation is done (the server's operation delay)."
	statusCancelled = "Cancellation was requested, but the bundled server commits a change when it accepts the request: the operation completes as requested."
	statusDone      = "Succeeded."
)

// view renders the operation as the API returns it at time now.
func (op *opRecord) view(now time.Time, resolve func(ref, typ string) json.RawMessage) map[string]any {
	out := map[string]any{"name": op.Name}
	done := !now.Before(op.DoneAt)
	md := op.Metadata
	var m opMetadata
	if json.Unmarshal(op.Metadata, &m) == nil {
		switch {
		case done:
			m.EndTime = op.DoneAt.UTC().Format(time.RFC3339Nano)
			m.StatusMessage = statusDone
		case op.CancelRequested:
			m.StatusMessage = statusCancelled
		default:
			m.StatusMessage = statusApplying
		}
		m.RequestedCancellation = op.CancelRequested
		md, _ = json.Marshal(m)
	}
	out["metadata"] = md
	if done {
		out["done"] = true
		if op.Response != nil {
			out["response"] = op.Response
		} else if op.Ref != "" {
			if resp := resolve(op.Ref, op.RefType); resp != nil {
				out["response"] = resp
			}
		}
	}
	return out
}

// visible reports whether get, list and cancel see the operation at now.
func (op *opRecord) visible(now time.Time) bool { return !op.Deleted && !op.expired(now) }

func newOperationID(now time.Time) string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return fmt.Sprintf("operation-%d-%s", now.UnixMilli(), hex.EncodeToString(b))
}

// newOperation builds an operation on target (a resource name) and the
// mutations that persist it and, when requestID is set, the request record.
func (s *State) newOperation(fam apiFamily, verb, target, requestID string, response json.RawMessage) (*opRecord, *requestRecord, []mutation, error) {
	now := s.now()
	parent := ParentOf(target)
	md, err := json.Marshal(opMetadata{
		Type:       "type.googleapis.com/" + string(fam) + ".OperationMetadata",
		CreateTime: now.UTC().Format(time.RFC3339Nano),
		Target:     target, Verb: verb, APIVersion: "v1",
	})
	if err != nil {
		return nil, nil, nil, err
	}
	op := &opRecord{
		Name:     parent + "/operations/" + newOperationID(now),
		Metadata: md,
		Response: response,
		DoneAt:   now.Add(s.opts.OperationDelay),
	}
	op.bound(target)
	ob, err := json.Marshal(op)
	if err != nil {
		return nil, nil, nil, err
	}
	ms := []mutation{{Bucket: bucketOperations, Key: op.Name, Value: ob}}
	var rr *requestRecord
	if requestID != "" {
		rr = &requestRecord{ID: requestID, Verb: verb, Target: target, Operation: op.Name, Time: now, key: requestKey(target, requestID)}
		rb, err := json.Marshal(rr)
		if err != nil {
			return nil, nil, nil, err
		}
		ms = append(ms, mutation{Bucket: bucketRequests, Key: rr.key, Value: rb})
	}
	return op, rr, ms, nil
}

// commitOperation persists ms (the write plus its operation) together with
// the deletion of expired records and, only once that succeeded, makes the
// operation and request record visible. apply runs after the commit to
// update memory, or, for a create, once its operation is done
// (visibility.go); it must not fail.
func (s *State) commitOperation(op *opRecord, rr *requestRecord, ms []mutation, apply func()) error {
	now := s.now()
	target, delayed := delaysVisibility(op, now)
	if err := s.beingCreated(target); err != nil {
		return err
	}
	n, sweep := s.expired(now)
	evicted := s.evictions(op, s.expiry[:n])
	for _, old := range evicted {
		sweep = append(sweep, old.deletion()...)
	}
	// The deletions go first: when this write reuses an expired request id,
	// its new record has the key of the one swept, and must be the last word.
	if err := s.store.commit(append(sweep, ms...)); err != nil {
		return errInternal("cannot persist the write: %v", err)
	}
	s.forgetExpired(n)
	for _, old := range evicted {
		s.forget(old)
	}
	s.expiry = s.expiry[n:]
	op.req = rr
	s.putOp(op)
	if rr != nil {
		s.reqs[rr.key] = rr
	}
	s.expiry = append(s.expiry, expiring{at: op.DoneAt.Add(retention), op: op.Name, rr: rr})
	if delayed {
		s.deferCreate(pendingCreate{at: op.DoneAt, target: target, apply: apply})
	} else {
		apply()
	}
	return nil
}

// expired counts the records of s.expiry that have expired at now (at most
// maxSweep, so that one write never deletes an unbounded batch) and returns
// the deletions that sweep them. Call with s.mu held.
func (s *State) expired(now time.Time) (n int, sweep []mutation) {
	for n < len(s.expiry) && n < maxSweep && !now.Before(s.expiry[n].at) {
		e := s.expiry[n]
		if e.op != "" {
			sweep = append(sweep, mutation{Bucket: bucketOperations, Key: e.op})
		}
		// A request id reused after it expired has a new record under the
		// same key: that one stays.
		if e.rr != nil && s.reqs[requestKey(e.rr.Target, e.rr.ID)] == e.rr {
			sweep = append(sweep, mutation{Bucket: bucketRequests, Key: e.rr.key})
		}
		n++
	}
	return n, sweep
}

// forgetExpired drops from memory the first n records of s.expiry, once
// their deletion is committed. Call with s.mu held.
func (s *State) forgetExpired(n int) {
	for _, e := range s.expiry[:n] {
		s.dropOp(e.op)
		if e.rr != nil && s.reqs[requestKey(e.rr.Target, e.rr.ID)] == e.rr {
			delete(s.reqs, requestKey(e.rr.Target, e.rr.ID))
		}
	}
}

// evictions are the oldest operations of op's location to forget so that,
// with op, it keeps at most maxOpsPerLocation operations and
// maxOpBytesPerLocation bytes of them; swept are those this write deletes
// as expired already. Call with s.mu held.
func (s *State) evictions(op *opRecord, swept []expiring) []*opRecord {
	loc := ParentOf(op.Name)
	gone := map[string]bool{}
	count, bytes := s.ops.perLoc[loc], s.opBytes[loc]
	for _, e := range swept {
		if old, ok := s.ops.get(e.op); ok && ParentOf(e.op) == loc {
			gone[e.op], count, bytes = true, count-1, bytes-old.weight()
		}
	}
	var out []*opRecord
	for _, name := range s.ops.order[loc] {
		if count < maxOpsPerLocation && bytes+op.weight() <= maxOpBytesPerLocation {
			break
		}
		if old, ok := s.ops.get(name); ok && !gone[name] {
			out = append(out, old)
			count, bytes = count-1, bytes-old.weight()
		}
	}
	return out
}

// deletion is what forgetting op deletes from the data file: it and the
// request record that names it.
func (op *opRecord) deletion() []mutation {
	ms := []mutation{{Bucket: bucketOperations, Key: op.Name}}
	if op.req != nil {
		ms = append(ms, mutation{Bucket: bucketRequests, Key: op.req.key})
	}
	return ms
}

// forget drops op and the request record that names it from memory: a
// retry of its request is a new request. Its expiry entry stays, and
// finds nothing to delete. Call with s.mu held.
func (s *State) forget(op *opRecord) {
	s.dropOp(op.Name)
	if rr := op.req; rr != nil && s.reqs[requestKey(rr.Target, rr.ID)] == rr {
		delete(s.reqs, requestKey(rr.Target, rr.ID))
	}
}

// putOp and dropOp keep s.ops and the bytes of each location's
// operations. Call with s.mu held.
func (s *State) putOp(op *opRecord) {
	if old, ok := s.ops.get(op.Name); ok {
		s.opBytes[ParentOf(op.Name)] -= old.weight()
	}
	s.ops.put(op.Name, op)
	s.opBytes[ParentOf(op.Name)] += op.weight()
}

func (s *State) dropOp(name string) {
	if old, ok := s.ops.get(name); ok {
		loc := ParentOf(name)
		if s.opBytes[loc] -= old.weight(); s.opBytes[loc] <= 0 {
			delete(s.opBytes, loc)
		}
		s.ops.delete(name)
	}
}

// resolveRef is the current version of the resource ref, typed typ, as an
// operation's response; nil when it is gone. Call with s.mu held.
func (s *State) resolveRef(ref, typ string) json.RawMessage {
	var v any
	var ok bool
	switch {
	case strings.Contains(ref, "/revisions/"):
		v, ok = s.skills.revisions.get(ref)
	case strings.Contains(ref, "/skills/"):
		v, ok = s.skills.skills.get(ref)
	case strings.Contains(ref, "/services/"):
		v, ok = s.services.get(ref)
	case strings.Contains(ref, "/bindings/"):
		v, ok = s.bindings.get(ref)
	case strings.Contains(ref, "/workloads/"):
		v, ok = s.workloads.get(ref)
	}
	if !ok {
		return nil
	}
	b, err := withType(typ, v)
	if err != nil {
		return nil
	}
	return b
}

// viewLocked renders op, taking the read lock for its reference.
func (s *State) viewLocked(op *opRecord, now time.Time) map[string]any {
	s.mu.RLock()
	defer s.mu.RUnlock()
	return op.view(now, s.resolveRef)
}

// loadOperations loads the operations and request ids that are kept: not
// expired, responses bounded, at most the caps' worth per location (the
// newest), each request id with its operation. What is not kept is deleted
// from the data file too, so that a restart costs what the registry holds.
func (s *State) loadOperations() error {
	now := s.now()
	var fix []mutation
	err := s.store.load(bucketOperations, func(k, v []byte) error {
		var op opRecord
		if err := json.Unmarshal(v, &op); err != nil {
			return fmt.Errorf("operation %s: %w", k, err)
		}
		if op.expired(now) {
			fix = append(fix, mutation{Bucket: bucketOperations, Key: string(k)})
			return nil
		}
		var m opMetadata
		_ = json.Unmarshal(op.Metadata, &m)
		if op.bound(m.Target) {
			b, err := json.Marshal(&op)
			if err != nil {
				return err
			}
			fix = append(fix, mutation{Bucket: bucketOperations, Key: string(k), Value: b})
		}
		s.putOp(&op)
		s.expiry = append(s.expiry, expiring{at: op.DoneAt.Add(retention), op: op.Name})
		return nil
	})
	if err == nil {
		err = s.store.load(bucketRequests, func(k, v []byte) error {
			var rr requestRecord
			if err := json.Unmarshal(v, &rr); err != nil {
				return fmt.Errorf("request %s: %w", k, err)
			}
			rr.key = string(k)
			op, ok := s.ops.get(rr.Operation)
			if !ok || rr.expired(now) {
				fix = append(fix, mutation{Bucket: bucketRequests, Key: rr.key})
				return nil
			}
			op.req = &rr
			s.reqs[requestKey(rr.Target, rr.ID)] = &rr
			s.expiry = append(s.expiry, expiring{at: rr.Time.Add(retention), rr: &rr})
			return nil
		})
	}
	if err != nil {
		return err
	}
	for loc := range s.ops.perLoc {
		for s.ops.perLoc[loc] > maxOpsPerLocation || s.opBytes[loc] > maxOpBytesPerLocation {
			oldest, _ := s.ops.get(s.ops.order[loc][0])
			fix = append(fix, oldest.deletion()...)
			s.forget(oldest)
		}
	}
	return s.store.commit(fix)
}

var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// replay checks requestID. It returns the original operation of a retried
// request, nil for a new (or absent) request id, or an error.
// Call with s.mu held.
func (s *State) replay(requestID, verb, target string) (*opRecord, error) {
	if requestID == "" {
		return nil, nil
	}
	// Google documents request ids as UUIDs (not the zero UUID); enforce it so
	// a client that would be rejected by Google is rejected here too.
	if !uuidRE.MatchString(requestID) || strings.Trim(requestID, "0-") == "" {
		return nil, Violations(fmt.Sprintf("request_id %q must be a valid non-zero UUID", requestID),
			[]FieldViolation{{Field: "request_id", Description: "must be a UUID such as 123e4567-e89b-12d3-a456-426614174000"}})
	}
	now := s.now()
	rr, ok := s.reqs[requestKey(target, requestID)]
	if !ok || rr.expired(now) {
		return nil, nil
	}
	if rr.Verb != verb || rr.Target != target {
		return nil, errInvalid("request_id %s was already used for a different request (%s of %s); use a new request id for a new request", requestID, rr.Verb, rr.Target)
	}
	// An operation expires no sooner than its request id.
	op, ok := s.ops.get(rr.Operation)
	if !ok || op.expired(now) {
		return nil, errInternal("operation %s of request %s is missing", rr.Operation, requestID)
	}
	return op, nil
}

// readNow is the time a read of operations is answered at, with the creates
// done by then applied (visibility.go): an operation read as done has its
// resource visible.
func (s *State) readNow() time.Time {
	now := s.now()
	s.settle(now)
	return now
}

// Operation is the visible operation name (not deleted, not expired), as
// the API returns it.
func (s *State) Operation(name string) (Operation, error) {
	now := s.readNow()
	op, err := s.visibleOperation(name, now)
	if err != nil {
		return nil, err
	}
	return s.viewLocked(op, now), nil
}

// visibleOperation is the operation called name, or NOT_FOUND.
func (s *State) visibleOperation(name string, now time.Time) (*opRecord, error) {
	s.mu.RLock()
	op, ok := s.ops.get(name)
	s.mu.RUnlock()
	if !ok || !op.visible(now) {
		return nil, errNotFound("Operation %q was not found.", name)
	}
	return op, nil
}

// OperationFields are the fields operations.list filters on ("the standard
// list filter"): the operation's name, whether it is done, and its
// metadata's verb and target.
var OperationFields = searchquery.NewSchema("operations",
	[]string{"name", "done", "metadata.verb", "metadata.target"}, nil, []string{"name", "metadata.target"})

func (op *opRecord) doc(now time.Time) searchquery.Fields {
	var m opMetadata
	_ = json.Unmarshal(op.Metadata, &m)
	return searchquery.Fields{"name": {op.Name}, "done": {strconv.FormatBool(!now.Before(op.DoneAt))},
		"metadata.verb": {m.Verb}, "metadata.target": {m.Target}}
}

// ListOperations serves operations.list: the page of size of the
// operations of parent that are kept (for an hour after they finished), not
// deleted and match filter (nil: all), after after (nil: the first page), by
// name, which begins with the time they started; rendered, at most
// search.MaxPageBytes of them (one at least); and where the next page starts
// after (nil when this one is the last).
func (s *State) ListOperations(ctx context.Context, parent string, filter searchquery.Node, after *search.Position, size int) ([]json.RawMessage, *search.Position, error) {
	now := s.readNow()
	page, next, err := list(ctx, s, s.ops, parent, after, size, func(op *opRecord) bool {
		return op.visible(now) && searchquery.MatchNode(filter, OperationFields, op.doc(now))
	})
	if err != nil {
		return nil, nil, err
	}
	// A response that is a reference is rendered here, so the page's byte
	// bound is applied to what is sent.
	views := make([]json.RawMessage, 0, len(page))
	bytes := 0
	for i, op := range page {
		b, err := json.Marshal(s.viewLocked(op, now))
		if err != nil {
			return nil, nil, err
		}
		if i > 0 && bytes+len(b) > search.MaxPageBytes {
			next = &search.Position{Name: page[i-1].Name}
			break
		}
		views, bytes = append(views, b), bytes+len(b)
	}
	return views, next, nil
}

// CancelOperation serves operations.cancel. The bundled server applies a
// change when it accepts the request, so nothing is left to cancel: the
// state records the request (requestedCancellation in the metadata) and the
// operation completes as it would have, which the method allows ("success
// is not guaranteed"). Cancelling a done operation changes nothing.
func (s *State) CancelOperation(name string) error {
	return s.changeOperation(name, func(op *opRecord, now time.Time) bool {
		if !now.Before(op.DoneAt) || op.CancelRequested {
			return false
		}
		op.CancelRequested = true
		return true
	})
}

// DeleteOperation serves operations.delete: the client is no longer
// interested in the operation, which get, list and cancel stop showing.
func (s *State) DeleteOperation(name string) error {
	return s.changeOperation(name, func(op *opRecord, _ time.Time) bool {
		op.Deleted = true
		return true
	})
}

// changeOperation applies change to a copy of the visible operation name
// and, when it reports a change, stores the copy in its place.
func (s *State) changeOperation(name string, change func(op *opRecord, now time.Time) bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	now := s.now()
	op, ok := s.ops.get(name)
	if !ok || !op.visible(now) {
		return errNotFound("Operation %q was not found.", name)
	}
	upd := *op // readers hold the stored record without the lock: never change it in place
	if change(&upd, now) {
		b, err := json.Marshal(&upd)
		if err == nil {
			err = s.store.commit([]mutation{{Bucket: bucketOperations, Key: name, Value: b}})
		}
		if err != nil {
			return errInternal("cannot persist the operation: %v", err)
		}
		s.putOp(&upd)
	}
	return nil
}
