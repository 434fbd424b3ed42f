package registryclient

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"
)

const testParent = "projects/p1/locations/global"

// recorder keeps what a scripted test server received.
type recorder struct {
	mu       sync.Mutex
	requests []recorded
}

type recorded struct {
	Method, Path, RawQuery string
	Query                  url.Values
	Header                 http.Header
	Body                   []byte
}

func (r *recorder) add(req *http.Request) recorded {
	body, _ := io.ReadAll(req.Body)
	rec := recorded{Method: req.Method, Path: req.URL.Path, RawQuery: req.URL.RawQuery,
		Query: req.URL.Query(), Header: req.Header.Clone(), Body: body}
	r.mu.Lock()
	r.requests = append(r.requests, rec)
	r.mu.Unlock()
	return rec
}

func (r *recorder) all() []recorded {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]recorded(nil), r.requests...)
}

// gets returns how many GET requests were made of path.
func (r *recorder) gets(path string) int {
	n := 0
	for _, q := range r.all() {
		if q.Method == http.MethodGet && q.Path == path {
			n++
		}
	}
	return n
}

// scripted starts a server whose handler sees every request after it was recorded.
func scripted(t *testing.T, h func(w http.ResponseWriter, r *http.Request, rec recorded)) (*httptest.Server, *recorder) {
	t.Helper()
	rec := &recorder{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h(w, r, rec.add(r))
	}))
	t.Cleanup(srv.Close)
	return srv, rec
}

// testClient builds a client with fast retries and polling against url.
func testClient(t *testing.T, url string, mod ...func(*Config)) *Client {
	t.Helper()
	cfg := Config{
		Endpoint:        url,
		AppHubEndpoint:  url,
		RetryWaitMin:    time.Millisecond,
		RetryWaitMax:    5 * time.Millisecond,
		PollInterval:    time.Millisecond,
		PollMaxInterval: 5 * time.Millisecond,
	}
	for _, m := range mod {
		m(&cfg)
	}
	c, err := New(context.Background(), cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	return c
}

func writeJSON(w http.ResponseWriter, code int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(code)
	_ = json.NewEncoder(w).Encode(v)
}

func writeError(w http.ResponseWriter, code int, status, message string, details ...any) {
	e := map[string]any{"code": code, "message": message, "status": status}
	if len(details) > 0 {
		e["details"] = details
	}
	writeJSON(w, code, map[string]any{"error": e})
}

func testCtx(t *testing.T) context.Context {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// agentService is the service svcName, an agent with card.
func agentService(card string) map[string]any {
	return map[string]any{
		"name":        svcName,
		"displayName": "Planner",
		"agentSpec":   map[string]any{"type": "A2A_AGENT_CARD", "content": json.RawMessage(card)},
	}
}

func contextWithTimeout(t *testing.T, ms int) (context.Context, context.CancelFunc) {
	t.Helper()
	return context.WithTimeout(context.Background(), time.Duration(ms)*time.Millisecond)
}
