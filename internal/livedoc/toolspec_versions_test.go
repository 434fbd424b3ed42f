package livedoc

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
)

// Servers of the official Go SDK that speak one MCP version each: a
// 2026-07-28 server (stateless: server/discover, then tools/list with the
// version in each request's _meta, and no initialize) and the three versions
// of the initialize handshake.
func TestFetchToolSpecSpeaksEachVersion(t *testing.T) {
	names := []string{"a", "b", "c", "d", "e"}
	for _, version := range []string{"2026-07-28", "2025-11-25", "2025-06-18", "2025-03-26"} {
		t.Run(version, func(t *testing.T) {
			var log methodLog
			s := livedoctest.NewMCPServerSpeaking([]string{version}, 2, namedTools(names...)...)
			srv := livedoctest.ServeMCPStateless(t, s, log.wrap)
			got, err := FetchToolSpec(context.Background(), srv.URL, ToolSpecOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if got.ProtocolVersion != version || !slices.Equal(got.ToolNames, names) || got.ServerName != "test-server" {
				t.Errorf("protocol %q, tools %v, server %q", got.ProtocolVersion, got.ToolNames, got.ServerName)
			}
			log.mu.Lock()
			defer log.mu.Unlock()
			calls := strings.Join(log.calls, " ")
			if n := strings.Count(calls, "tools/list@"+version); n != 3 {
				t.Errorf("calls = %s, want 3 pages of tools/list@%s", calls, version)
			}
			if initialized := strings.Contains(calls, "initialize@"); initialized != (version != "2026-07-28") {
				t.Errorf("calls = %s: initialize sent %v for %s", calls, initialized, version)
			}
		})
	}
}

// refuseDiscover answers server/discover as a stateful server of the
// TypeScript SDK v1 does: HTTP 400 with a JSON-RPC error.
func refuseDiscover(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		r.Body = io.NopCloser(bytes.NewReader(body))
		if bytes.Contains(body, []byte(`"server/discover"`)) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusBadRequest)
			_, _ = w.Write([]byte(`{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: Server not initialized"},"id":null}`))
			return
		}
		next.ServeHTTP(w, r)
	})
}

// A server that refuses server/discover with an HTTP 400 is read through
// initialize, and that refusal does not explain a later error.
func TestFetchToolSpecAfterARefusedDiscover(t *testing.T) {
	srv := serveMCP(t, newMCPServer(0, namedTools("a")...), false, refuseDiscover)
	got, err := FetchToolSpec(context.Background(), srv.URL, ToolSpecOptions{})
	if err != nil || got.ProtocolVersion != "2025-11-25" {
		t.Fatalf("%v, %v", got, err)
	}
	s := replaceToolsListError(newMCPServer(0, namedTools("a")...))
	failing := serveMCP(t, s, false, refuseDiscover)
	wantContains(t, fetchToolsErr(t, failing.URL, ToolSpecOptions{}),
		"the MCP server "+failing.URL+" answered tools/list with JSON-RPC error -32001: tool registry unavailable")
}

func replaceToolsListError(s *mcp.Server) *mcp.Server {
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" {
				return nil, &jsonrpc.Error{Code: -32001, Message: "tool registry unavailable"}
			}
			return next(ctx, method, req)
		}
	})
	return s
}
