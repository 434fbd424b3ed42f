package registryserver

// Fault injection, for tests of clients (retries, polling, lost responses).
// A fault matches requests by method and path substring; the first matching
// fault with uses left is applied. Faults are process state, never persisted.

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"time"
)

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
	// this error; the write itself is not performed.
	OperationError *RPCStatus
	// Times is how many requests the fault applies to (0 = every request).
	Times int
}

type faultEntry struct {
	f    Fault
	used int
}

type faultTable struct {
	mu      sync.Mutex
	entries []*faultEntry
}

// InjectFault adds a fault; faults are tried in the order they were added.
func (s *Server) InjectFault(f Fault) {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	s.faults.entries = append(s.faults.entries, &faultEntry{f: f})
}

// ClearFaults removes every fault.
func (s *Server) ClearFaults() {
	s.faults.mu.Lock()
	defer s.faults.mu.Unlock()
	s.faults.entries = nil
}

func (t *faultTable) take(r *http.Request) (Fault, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, e := range t.entries {
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

type opErrKey struct{}

// injectedOpError returns the OperationError fault attached to the request.
func injectedOpError(ctx context.Context) *RPCStatus {
	st, _ := ctx.Value(opErrKey{}).(*RPCStatus)
	return st
}

func (s *Server) serveFault(w http.ResponseWriter, r *http.Request, f Fault) {
	if f.Delay > 0 {
		t := time.NewTimer(f.Delay)
		select {
		case <-t.C:
		case <-r.Context().Done():
			t.Stop()
			return
		}
	}
	if f.Status != 0 {
		s.writeError(w, &apiError{HTTP: f.Status, Status: httpToStatus(f.Status),
			Message: "injected fault: " + http.StatusText(f.Status), RetryAfter: f.RetryAfter})
		return
	}
	if f.OperationError != nil {
		r = r.WithContext(context.WithValue(r.Context(), opErrKey{}, f.OperationError))
	}
	if !f.DropAfterCommit {
		s.route(w, r)
		return
	}
	// Handle the request into a throw-away recorder (the commit happens), then
	// drop the connection so the client sees the request fail after it took effect.
	s.route(httptest.NewRecorder(), r)
	if conn, _, err := http.NewResponseController(w).Hijack(); err == nil {
		conn.Close()
		return
	}
	// HTTP/2 or a wrapper without hijacking: abort the response instead.
	panic(http.ErrAbortHandler)
}
