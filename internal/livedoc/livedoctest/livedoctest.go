// Package livedoctest starts the servers that the tests of live documents
// fetch from: agents serving A2A cards over HTTP and MCP servers built with
// the official Go SDK. It is used by the tests of internal/livedoc and by the
// provider's acceptance tests, so that both exercise the same servers. Every
// server listens on loopback and stops when its test ends.
package livedoctest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// Serve starts a loopback server with one handler per path; other paths 404.
func Serve(t testing.TB, routes map[string]http.HandlerFunc) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	for p, h := range routes {
		mux.HandleFunc(p, h)
	}
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	return srv
}

// JSON answers with body as application/json and the ETag "v1".
func JSON(body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("ETag", `"v1"`)
		_, _ = fmt.Fprint(w, body)
	}
}

// Typed answers with body under the given content type.
func Typed(contentType, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		_, _ = fmt.Fprint(w, body)
	}
}

// RedirectChain serves /r/N redirecting to /r/N-1, and /r/0 with final.
func RedirectChain(t testing.TB, final http.HandlerFunc) *httptest.Server {
	t.Helper()
	var srv *httptest.Server
	srv = Serve(t, map[string]http.HandlerFunc{"/r/": func(w http.ResponseWriter, r *http.Request) {
		var n int
		_, _ = fmt.Sscanf(r.URL.Path, "/r/%d", &n) // no number: the end of the chain, /r/0
		if n == 0 {
			final(w, r)
			return
		}
		http.Redirect(w, r, fmt.Sprintf("%s/r/%d", srv.URL, n-1), http.StatusFound)
	}})
	return srv
}

// Endless streams JSON whitespace without a Content-Length until the client
// hangs up or limit bytes are written; written counts what was sent.
func Endless(limit int64, written *atomic.Int64) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		chunk := []byte(strings.Repeat(" ", 32<<10))
		for written.Load() < limit {
			n, err := w.Write(chunk)
			written.Add(int64(n))
			if err != nil {
				return
			}
		}
	}
}

// Stall answers nothing until the client gives up or d has passed.
func Stall(d time.Duration) http.HandlerFunc {
	return func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(d):
		}
	}
}

// RequireHeader refuses with 401 a request whose header name is not value.
func RequireHeader(name, value string, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Header.Get(name) != value {
			http.Error(w, "unauthorized", http.StatusUnauthorized)
			return
		}
		next.ServeHTTP(w, r)
	})
}

// RawSchema is an input schema sent as is by the SDK server (json.RawMessage):
// its 1.0 and its member order would not survive a trip through the SDK
// client's mcp.Tool, so it shows whether tools are kept as sent.
const RawSchema = `{"type":"object","properties":{"n":{"type":"number","maximum":1.0}}}`

func noop(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	return &mcp.CallToolResult{}, nil
}

// NewMCPServer is an SDK server named test-server 1.2.3 with the given tools,
// pageSize tools a page (0: the SDK's default).
func NewMCPServer(pageSize int, tools ...*mcp.Tool) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "test-server", Version: "1.2.3"}, &mcp.ServerOptions{PageSize: pageSize})
	for _, t := range tools {
		s.AddTool(t, noop)
	}
	return s
}

// NamedTools are tools with the given names and RawSchema as input schema.
func NamedTools(names ...string) []*mcp.Tool {
	var tools []*mcp.Tool
	for _, n := range names {
		tools = append(tools, &mcp.Tool{Name: n, InputSchema: json.RawMessage(RawSchema)})
	}
	return tools
}

// ServeMCP serves s over Streamable HTTP (or HTTP+SSE) behind the middleware.
func ServeMCP(t testing.TB, s *mcp.Server, sse bool, mw func(http.Handler) http.Handler) *httptest.Server {
	t.Helper()
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	if sse {
		h = mcp.NewSSEHandler(func(*http.Request) *mcp.Server { return s }, nil)
	}
	if mw != nil {
		h = mw(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// HugeToolsList answers every tools/list request with one result that never
// ends: tools of about 100 bytes each until the client hangs up or limit
// bytes are written (written counts them), as plain JSON or, with stream, as
// a single event of an event stream. Other requests go to next.
func HugeToolsList(limit int64, written *atomic.Int64, stream bool) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Method != http.MethodPost {
				next.ServeHTTP(w, r)
				return
			}
			body, _ := io.ReadAll(r.Body)
			var msg struct {
				ID     json.RawMessage `json:"id"`
				Method string          `json:"method"`
			}
			_ = json.Unmarshal(body, &msg)
			if msg.Method != "tools/list" {
				r.Body = io.NopCloser(bytes.NewReader(body))
				next.ServeHTTP(w, r)
				return
			}
			head, tail := `{"jsonrpc":"2.0","id":`+string(msg.ID)+`,"result":{"tools":[`, `{"name":"last","inputSchema":{"type":"object"}}]}}`
			w.Header().Set("Content-Type", "application/json")
			if stream {
				w.Header().Set("Content-Type", "text/event-stream")
				head, tail = "event: message\ndata: "+head, tail+"\n\n"
			}
			var chunk strings.Builder
			for i := range 300 {
				fmt.Fprintf(&chunk, `{"name":"tool%06d","description":"%s","inputSchema":{"type":"object"}},`, i, strings.Repeat("x", 40))
			}
			n, err := io.WriteString(w, head)
			written.Add(int64(n))
			for err == nil && written.Load() < limit {
				n, err = io.WriteString(w, chunk.String())
				written.Add(int64(n))
			}
			if err == nil {
				_, _ = io.WriteString(w, tail)
			}
		})
	}
}

// PagedTools makes s answer tools/list with one tool a page, whose
// description is size(page) characters long, and a new cursor every time:
// pages pages, or with 0 as many as asked, as a server with no end of pages
// would answer.
func PagedTools(s *mcp.Server, pages int, size func(page int) int) {
	var served atomic.Int64
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method != "tools/list" {
				return next(ctx, method, req)
			}
			n := int(served.Add(1))
			res := &mcp.ListToolsResult{Tools: []*mcp.Tool{{Name: fmt.Sprintf("page%06d", n),
				Description: strings.Repeat("x", size(n)), InputSchema: json.RawMessage(`{"type":"object"}`)}}}
			if pages == 0 || n < pages {
				res.NextCursor = fmt.Sprintf("cursor-%d", n)
			}
			return res, nil
		}
	})
}

// EndlessSSEEvent serves the HTTP+SSE transport of MCP at /sse, whose first
// message after the endpoint is an event that never ends: it is written
// until the client hangs up or limit bytes are (written counts them).
// /messages accepts every POST.
func EndlessSSEEvent(t testing.TB, limit int64, written *atomic.Int64) *httptest.Server {
	return Serve(t, map[string]http.HandlerFunc{
		"/sse": func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "text/event-stream")
			_, _ = io.WriteString(w, "event: endpoint\ndata: /messages\n\nevent: message\ndata: ")
			if err := http.NewResponseController(w).Flush(); err != nil {
				t.Error(err)
				return
			}
			chunk := strings.Repeat("x", 32<<10)
			for written.Load() < limit {
				n, err := io.WriteString(w, chunk)
				written.Add(int64(n))
				if err != nil {
					return
				}
			}
		},
		"/messages": func(w http.ResponseWriter, r *http.Request) {
			_, _ = io.Copy(io.Discard, r.Body)
			w.WriteHeader(http.StatusAccepted)
		},
	})
}

// NewMCPServerSpeaking is NewMCPServer restricted to the given MCP versions
// (the Go SDK answers an initialize for another with the newest of them).
func NewMCPServerSpeaking(versions []string, pageSize int, tools ...*mcp.Tool) *mcp.Server {
	s := mcp.NewServer(&mcp.Implementation{Name: "test-server", Version: "1.2.3"},
		&mcp.ServerOptions{PageSize: pageSize, SupportedProtocolVersions: versions})
	for _, t := range tools {
		s.AddTool(t, noop)
	}
	return s
}

// ServeMCPStateless serves s over stateless Streamable HTTP, the only way the
// Go SDK serves MCP 2026-07-28 over HTTP.
func ServeMCPStateless(t testing.TB, s *mcp.Server, mw func(http.Handler) http.Handler) *httptest.Server {
	t.Helper()
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s },
		&mcp.StreamableHTTPOptions{Stateless: true})
	if mw != nil {
		h = mw(h)
	}
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv
}

// WantContains fails the test for each of wants that got does not contain:
// the check of every error message of the live-read tests.
func WantContains(t testing.TB, got string, wants ...string) {
	t.Helper()
	for _, w := range wants {
		if !strings.Contains(got, w) {
			t.Errorf("message %q\n\tdoes not contain %q", got, w)
		}
	}
}
