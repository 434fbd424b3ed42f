package livedoc

import (
	"context"
	"slices"
	"strings"
	"testing"

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
