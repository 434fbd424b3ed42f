// Package registryservertest starts the bundled registry server for tests,
// with the hooks that only tests need and the shipped server must not have:
// a log of the requests the server accepted, and fault injection (errors,
// delays, connections dropped after a commit, operations that fail).
package registryservertest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
)

// Server is a registry server wrapped with a request log and fault injection.
// Both act only on requests that pass the server's authentication, as the
// server itself would: a request without the token is answered 401 and
// leaves no trace.
type Server struct {
	*registryserver.Server
	opDelay time.Duration // the server's OperationDelay, which injected operations follow too

	mu     sync.Mutex
	reqs   []RecordedRequest
	faults []*faultEntry
	ops    map[string]*injectedOp // operations of OperationError faults, by name
}

// Start runs a registry server on a local httptest listener. The server and
// listener are closed when the test ends. Use ts.URL as the endpoint.
func Start(t testing.TB, opts registryserver.Options) (*Server, *httptest.Server) {
	t.Helper()
	srv, err := registryserver.New(opts)
	if err != nil {
		t.Fatalf("start registry server: %v", err)
	}
	s := &Server{Server: srv, opDelay: opts.OperationDelay, ops: map[string]*injectedOp{}}
	ts := httptest.NewServer(s)
	t.Cleanup(func() {
		ts.Close()
		if err := srv.Close(); err != nil {
			t.Errorf("close registry server: %v", err)
		}
	})
	return s, ts
}

// ServeHTTP records an authorised request and applies the first matching fault.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if !s.Authorized(r) {
		s.Server.ServeHTTP(w, r)
		return
	}
	s.mu.Lock()
	s.reqs = append(s.reqs, RecordedRequest{Method: r.Method, Path: r.URL.Path, Query: r.URL.Query()})
	f, faulty := s.takeFault(r)
	s.mu.Unlock()
	if faulty {
		s.serveFault(w, r, f)
		return
	}
	s.serve(w, r)
}

// serve answers the polls of injected operations and passes everything else on.
func (s *Server) serve(w http.ResponseWriter, r *http.Request) {
	name := strings.TrimPrefix(r.URL.Path, "/v1/")
	s.mu.Lock()
	op, injected := s.ops[name]
	s.mu.Unlock()
	if injected && r.Method == http.MethodGet {
		writeJSON(w, http.StatusOK, op.view())
		return
	}
	s.Server.ServeHTTP(w, r)
}

// RecordedRequest is one request the server accepted.
type RecordedRequest struct {
	Method string
	Path   string
	Query  url.Values
}

// Requests returns the requests accepted since the start or the last ResetRequests.
func (s *Server) Requests() []RecordedRequest {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]RecordedRequest(nil), s.reqs...)
}

// ResetRequests forgets the recorded requests.
func (s *Server) ResetRequests() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.reqs = nil
}

// Fault describes a failure to inject.
type Fault struct {
	// Method matches the HTTP method ("" = any).
	Method string
	// PathContains matches a substring of the URL path ("" = any).
	PathContains string
	// Status, when non-zero, answers with this HTTP status in Google's error
	// envelope instead of handling the request (nothing is written).
	Status int
	// RetryAfter, with Status, is sent as a Retry-After header.
	RetryAfter time.Duration
	// Delay waits before doing anything else (the client's deadline may expire).
	Delay time.Duration
	// DropAfterCommit performs the request (the write is committed) and then
	// closes the connection without sending a response.
	DropAfterCommit bool
	// OperationError makes a write return an operation that finishes with
	// this error (after the server's OperationDelay); the write itself is not
	// performed.
	OperationError *RPCStatus
	// Times is how many requests the fault applies to (0 = every request).
	Times int
}

// RPCStatus is a google.rpc.Status: Code is the numeric google.rpc.Code
// (3 INVALID_ARGUMENT, 13 INTERNAL, 14 UNAVAILABLE, ...).
type RPCStatus struct {
	Code    int    `json:"code"`
	Message string `json:"message,omitempty"`
	Details []any  `json:"details,omitempty"`
}

type faultEntry struct {
	f    Fault
	used int
}

// InjectFault adds a fault; faults are tried in the order they were added.
func (s *Server) InjectFault(f Fault) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = append(s.faults, &faultEntry{f: f})
}

// ClearFaults removes every fault.
func (s *Server) ClearFaults() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.faults = nil
}

// takeFault returns the first fault that matches r and has uses left. Call with s.mu held.
func (s *Server) takeFault(r *http.Request) (Fault, bool) {
	for _, e := range s.faults {
		if e.f.Method != "" && !strings.EqualFold(e.f.Method, r.Method) {
			continue
		}
		if e.f.PathContains != "" && !strings.Contains(r.URL.Path, e.f.PathContains) {
			continue
		}
		if e.f.Times > 0 && e.used >= e.f.Times {
			continue
		}
		e.used++
		return e.f, true
	}
	return Fault{}, false
}

func (s *Server) serveFault(w http.ResponseWriter, r *http.Request, f Fault) {
	if f.Delay > 0 {
		// net/http notices a client that has gone only once the request body
		// is read to its end: read it first, so that a delayed write whose
		// client gave up is dropped rather than applied after the delay.
		body, err := io.ReadAll(r.Body)
		if err != nil {
			return
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		t := time.NewTimer(f.Delay)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	switch {
	case f.Status != 0:
		if f.RetryAfter > 0 {
			w.Header().Set("Retry-After", strconv.Itoa(int((f.RetryAfter+time.Second-1)/time.Second)))
		}
		writeJSON(w, f.Status, map[string]any{"error": map[string]any{
			"code": f.Status, "message": "injected fault: " + http.StatusText(f.Status), "status": statusName(f.Status), "details": []any{},
		}})
	case f.OperationError != nil:
		s.failOperation(w, r, f.OperationError)
	case f.DropAfterCommit:
		// Handle the request into a throw-away recorder (the commit happens),
		// then drop the connection so the client sees the request fail after
		// it took effect.
		s.serve(httptest.NewRecorder(), r)
		if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
			_ = conn.Close() // dropping is the point; a failed close drops it too
			return
		}
		// HTTP/2 or a wrapper without hijacking: abort the response instead.
		panic(http.ErrAbortHandler)
	default:
		s.serve(w, r)
	}
}

// injectedOp is an operation that finishes with an error at doneAt.
type injectedOp struct {
	name   string
	err    *RPCStatus
	doneAt time.Time
}

func (op *injectedOp) view() map[string]any {
	out := map[string]any{"name": op.name}
	if !time.Now().Before(op.doneAt) {
		out["done"] = true
		out["error"] = op.err
	}
	return out
}

// failOperation answers a write with an operation of the request's parent
// that fails with st, without performing the write.
func (s *Server) failOperation(w http.ResponseWriter, r *http.Request, st *RPCStatus) {
	segs := strings.SplitN(strings.TrimPrefix(r.URL.Path, "/v1/"), "/", 5)
	if len(segs) < 4 {
		http.Error(w, "an OperationError fault needs a path under /v1/projects/{project}/locations/{location}/", http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	op := &injectedOp{
		name:   strings.Join(segs[:4], "/") + "/operations/operation-injected-" + strconv.Itoa(len(s.ops)+1),
		err:    st,
		doneAt: time.Now().Add(s.opDelay),
	}
	s.ops[op.name] = op
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, op.view())
}

// statusName is the google.rpc.Code name Google's front end sends with an HTTP status.
func statusName(code int) string {
	switch code {
	case 400:
		return "INVALID_ARGUMENT"
	case 401:
		return "UNAUTHENTICATED"
	case 403:
		return "PERMISSION_DENIED"
	case 404:
		return "NOT_FOUND"
	case 405, 501:
		return "UNIMPLEMENTED"
	case 409:
		return "ABORTED"
	case 412:
		return "FAILED_PRECONDITION"
	case 413:
		return "OUT_OF_RANGE"
	case 429:
		return "RESOURCE_EXHAUSTED"
	case 499:
		return "CANCELLED"
	case 503:
		return "UNAVAILABLE"
	case 504:
		return "DEADLINE_EXCEEDED"
	}
	if code >= 500 {
		return "INTERNAL"
	}
	return "UNKNOWN"
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	b, err := json.Marshal(v)
	if err != nil {
		http.Error(w, err.Error(), http.StatusInternalServerError)
		return
	}
	w.Header().Set("Content-Type", "application/json; charset=UTF-8")
	w.WriteHeader(code)
	_, _ = w.Write(b)
}
