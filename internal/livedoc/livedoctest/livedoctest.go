// Package livedoctest starts the servers that the tests of live documents
// fetch from: agents serving A2A cards over HTTP and MCP servers built with
// the official Go SDK. It is used by the tests of internal/livedoc and by the
// provider's acceptance tests, so that both exercise the same servers. Every
// server listens on loopback and stops when its test ends.
package livedoctest

import (
	"context"
	"encoding/json"
	"fmt"
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
		fmt.Fprint(w, body)
	}
}

// Typed answers with body under the given content type.
func Typed(contentType, body string) http.HandlerFunc {
	return func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", contentType)
		fmt.Fprint(w, body)
	}
}

// RedirectChain serves /r/N redirecting to /r/N-1, and /r/0 with final.
func RedirectChain(t testing.TB, final http.HandlerFunc) *httptest.Server {
	t.Helper()
	var srv *httptest.Server
	srv = Serve(t, map[string]http.HandlerFunc{"/r/": func(w http.ResponseWriter, r *http.Request) {
		var n int
		fmt.Sscanf(r.URL.Path, "/r/%d", &n)
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
