package registryserver

// Long-running operations and request-id idempotency.
//
// Every write (service create/patch/delete, workload patch/delete) is applied
// and committed when the request arrives, and returns an Operation. With
// Options.OperationDelay the operation reports done:false until the delay has
// passed, so that clients' polling is exercised; the resource itself is
// already written.
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
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"time"
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

func (rr *requestRecord) expired(now time.Time) bool { return !now.Before(rr.Time.Add(retention)) }

// requestKey is the key of a request id: scoped to the parent of its
// target, and lower-cased, since a UUID's hex digits may be sent in either
// case.
func requestKey(target, requestID string) string {
	return parentOf(target) + "/requests/" + strings.ToLower(requestID)
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
	Type       string `json:"@type"`
	CreateTime string `json:"createTime"`
	EndTime    string `json:"endTime,omitempty"`
	Target     string `json:"target"`
	Verb       string `json:"verb"`
	APIVersion string `json:"apiVersion"`
}

// view renders the operation as the API returns it at time now.
func (op *opRecord) view(now time.Time) map[string]any {
	out := map[string]any{"name": op.Name}
	done := !now.Before(op.DoneAt)
	md := op.Metadata
	if done {
		var m opMetadata
		if json.Unmarshal(op.Metadata, &m) == nil {
			m.EndTime = op.DoneAt.UTC().Format(time.RFC3339Nano)
			md, _ = json.Marshal(m)
		}
	}
	out["metadata"] = md
	if done {
		out["done"] = true
		if op.Response != nil {
			out["response"] = op.Response
		}
	}
	return out
}

func newOperationID(now time.Time) string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return fmt.Sprintf("operation-%d-%s", now.UnixMilli(), hex.EncodeToString(b))
}

// newOperation builds an operation on target (a resource name) and the
// mutations that persist it and, when requestID is set, the request record.
func (s *Server) newOperation(fam apiFamily, verb, target, requestID string, response json.RawMessage) (*opRecord, *requestRecord, []mutation, error) {
	now := s.now()
	parent := parentOf(target)
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
// update memory; it must not fail.
func (s *Server) commitOperation(op *opRecord, rr *requestRecord, ms []mutation, apply func()) error {
	now := s.now()
	n := 0
	var sweep []mutation
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
	// The deletions go first: when this write reuses an expired request id,
	// its new record has the key of the one swept, and must be the last word.
	if err := s.store.commit(append(sweep, ms...)); err != nil {
		return errInternal("cannot persist the write: %v", err)
	}
	for _, e := range s.expiry[:n] {
		delete(s.ops, e.op)
		if e.rr != nil && s.reqs[requestKey(e.rr.Target, e.rr.ID)] == e.rr {
			delete(s.reqs, requestKey(e.rr.Target, e.rr.ID))
		}
	}
	s.expiry = s.expiry[n:]
	s.ops[op.Name] = op
	if rr != nil {
		s.reqs[rr.key] = rr
	}
	s.expiry = append(s.expiry, expiring{at: op.DoneAt.Add(retention), op: op.Name, rr: rr})
	if apply != nil {
		apply()
	}
	return nil
}

var uuidRE = regexp.MustCompile(`^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$`)

// replay checks requestID. It returns the original operation of a retried
// request, nil for a new (or absent) request id, or an error.
// Call with s.mu held.
func (s *Server) replay(requestID, verb, target string) (*opRecord, error) {
	if requestID == "" {
		return nil, nil
	}
	// Google documents request ids as UUIDs (not the zero UUID); enforce it so
	// a client that would be rejected by Google is rejected here too.
	if !uuidRE.MatchString(requestID) || strings.Trim(requestID, "0-") == "" {
		return nil, errViolations(fmt.Sprintf("request_id %q must be a valid non-zero UUID", requestID),
			[]fieldViolation{{Field: "request_id", Description: "must be a UUID such as 123e4567-e89b-12d3-a456-426614174000"}})
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
	op, ok := s.ops[rr.Operation]
	if !ok || op.expired(now) {
		return nil, errInternal("operation %s of request %s is missing", rr.Operation, requestID)
	}
	return op, nil
}

func (s *Server) writeOperation(w http.ResponseWriter, op *opRecord) {
	writeJSON(w, http.StatusOK, op.view(s.now()))
}

func (s *Server) getOperation(w http.ResponseWriter, r *http.Request, name string) {
	s.mu.RLock()
	op, ok := s.ops[name]
	s.mu.RUnlock()
	if !ok || op.expired(s.now()) {
		s.writeError(w, errNotFound("Operation %q was not found.", name))
		return
	}
	s.writeOperation(w, op)
}
