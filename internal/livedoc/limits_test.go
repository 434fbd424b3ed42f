package livedoc

import (
	"context"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
)

// Every answer of an MCP server is read up to MaxResponseBytes (each event,
// for an event stream), then reading stops with a message that says so;
// unbounded, a 300 MB tools/list answer or event took the provider to 2 GB.
func TestFetchToolSpecCapsEachAnswer(t *testing.T) {
	for _, stream := range []bool{false, true} {
		var written atomic.Int64
		const limit = 64 << 20
		srv := serveMCP(t, newMCPServer(0, namedTools("a")...), false, livedoctest.HugeToolsList(limit, &written, stream))
		msg := fetchToolsErr(t, srv.URL, ToolSpecOptions{})
		what := "an answer to POST " + srv.URL
		if stream {
			what = "an event of the stream answering POST " + srv.URL
		}
		wantContains(t, msg, "the MCP server "+srv.URL+" sent "+what+" over the 1048576-byte (1 MiB) limit; stopped reading")
		// The server writes ahead of what is read, into socket buffers: a
		// few MB at most, never the whole answer.
		if n := written.Load(); n > 16<<20 {
			t.Errorf("stream %v: the server wrote %d MB before the client stopped reading", stream, n>>20)
		}
	}
}

// The tools kept across pages are bounded (MaxCollectedBytes, with a message
// naming the options that trim them), and so are the pages: unbounded, an
// endless chain of new cursors was followed until the timeout (up to 780 MB
// in 10 s).
func TestFetchToolSpecEndlessPages(t *testing.T) {
	// The bounds under test are the kept bytes and the pages, not the time:
	// a loaded machine takes more than the default 10 s for 1,000 pages.
	slow := Options{Timeout: MaxTimeout}
	s := newMCPServer(0)
	livedoctest.PagedTools(s, 0, func(int) int { return 2000 })
	srv := serveMCP(t, s, false, nil)
	msg := fetchToolsErr(t, srv.URL, ToolSpecOptions{Options: slow})
	// Each page keeps one tool of 2,000 characters and its JSON: the 20th
	// passes 40,960 bytes.
	wantContains(t, msg, "stopped reading the tools of "+srv.URL+" at page 20: the tools kept so far are",
		"over 40960 bytes (four times the registry's limit of 10240 bytes); largest tools so far: page000001 (",
		"include_tools", "exclude_tools", "drop_output_schemas")
	// When nothing is kept, the pages run out instead.
	s = newMCPServer(0)
	livedoctest.PagedTools(s, 0, func(int) int { return 10 })
	srv = serveMCP(t, s, false, nil)
	wantContains(t, fetchToolsErr(t, srv.URL, ToolSpecOptions{Options: slow, IncludeTools: []string{"none"}}),
		srv.URL+" sent more than 1000 pages of tools/list; stopped reading")
	// Exactly 1000 pages are read to the end.
	s = newMCPServer(0)
	livedoctest.PagedTools(s, MaxPages, func(int) int { return 1 })
	srv = serveMCP(t, s, false, nil)
	if _, err := FetchToolSpec(context.Background(), srv.URL, ToolSpecOptions{Options: slow, IncludeTools: []string{"none"}}); err != nil {
		t.Errorf("%d pages: %v", MaxPages, err)
	}
}

// Over HTTP+SSE every answer is an event of one long stream: each event is
// bounded, not the stream, which may carry more than MaxResponseBytes.
func TestFetchToolSpecBoundsEachSSEEventNotTheStream(t *testing.T) {
	s := newMCPServer(0)
	livedoctest.PagedTools(s, 40, func(int) int { return 40_000 })
	srv := serveMCP(t, s, true, nil)
	got, err := FetchToolSpec(context.Background(), srv.URL, ToolSpecOptions{SSE: true, ExcludeTools: []string{"page*"}})
	if err != nil || string(got.JSON) != `{"tools":[]}` {
		t.Fatalf("40 events of 40 KB: %v", err)
	}
}

// The collected bound is on the kept tools as compact JSON, a comma each:
// 20 pages of exactly MaxCollectedBytes are read to the end (and then fail
// only the registry's limit); one byte more stops the reading at page 20.
func TestFetchToolSpecCollectedBound(t *testing.T) {
	base := len(`{"name":"page000001","description":"","inputSchema":{"type":"object"}}`) + 1
	for extra, want := range map[int]string{0: "over the registry's limit of 10240 bytes", 1: "stopped reading the tools of"} {
		s := newMCPServer(0)
		livedoctest.PagedTools(s, 20, func(page int) int {
			if page == 1 {
				return MaxCollectedBytes/20 - base + extra
			}
			return MaxCollectedBytes/20 - base
		})
		srv := serveMCP(t, s, false, nil)
		msg := fetchToolsErr(t, srv.URL, ToolSpecOptions{})
		wantContains(t, msg, want)
		if extra == 0 && strings.Contains(msg, "stopped reading") {
			t.Errorf("%d bytes kept stopped the reading: %s", MaxCollectedBytes, msg)
		}
	}
}

// A timeout over MaxTimeout is refused by both fetchers; at
// MaxTimeout it is taken.
func TestFetchTimeoutBounded(t *testing.T) {
	over := Options{Timeout: MaxTimeout + time.Second}
	wantContains(t, fetchErr(t, "http://127.0.0.1:1/", over), "the timeout 2m1s is over the limit of 2m0s")
	wantContains(t, fetchToolsErr(t, "http://127.0.0.1:1/mcp", ToolSpecOptions{Options: over}), "the timeout 2m1s is over the limit of 2m0s")
	srv := serve(t, map[string]http.HandlerFunc{wellKnownCard: jsonBody(testCard)})
	if _, err := FetchAgentCard(context.Background(), srv.URL, Options{Timeout: MaxTimeout}); err != nil {
		t.Errorf("a timeout of exactly %s: %v", MaxTimeout, err)
	}
}

// The same over the older HTTP+SSE transport, where every answer is an event
// of one long stream: an endless event stops the reading at the limit. On
// main such an event was read whole, 300 MB of it.
func TestFetchToolSpecCapsSSEEvents(t *testing.T) {
	var written atomic.Int64
	srv := livedoctest.EndlessSSEEvent(t, 64<<20, &written)
	msg := fetchToolsErr(t, srv.URL+"/sse", ToolSpecOptions{SSE: true, Options: Options{Timeout: 5 * time.Second}})
	wantContains(t, msg, "sent an event of the stream answering GET "+srv.URL+"/sse over the 1048576-byte (1 MiB) limit")
	if n := written.Load(); n > 16<<20 {
		t.Errorf("the server wrote %d MB before the client stopped reading", n>>20)
	}
}
