package livedoc_test

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
)

// openConnections counts the connections a server holds open.
type openConnections struct {
	mu   sync.Mutex
	open map[net.Conn]bool
}

func (c *openConnections) track(conn net.Conn, state http.ConnState) {
	c.mu.Lock()
	defer c.mu.Unlock()
	switch state {
	case http.StateNew:
		c.open[conn] = true
	case http.StateClosed, http.StateHijacked:
		delete(c.open, conn)
	}
}

func (c *openConnections) count() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.open)
}

// serveCounting serves h on loopback, counting its open connections.
func serveCounting(t *testing.T, h http.Handler) (*httptest.Server, *openConnections) {
	t.Helper()
	c := &openConnections{open: map[net.Conn]bool{}}
	srv := httptest.NewUnstartedServer(h)
	srv.Config.ConnState = c.track
	srv.Start()
	t.Cleanup(srv.Close)
	return srv, c
}

// A read closes its connections when it ends: a plan that reads a thousand
// cards must not hold a thousand idle keep-alive connections (and their file
// descriptors) until the transport's idle timeout, 90 seconds later. After
// each batch of reads the server must see every connection closed.
func TestReadsCloseTheirConnections(t *testing.T) {
	const reads = 20
	mux := http.NewServeMux()
	mux.HandleFunc("/.well-known/agent-card.json", livedoctest.JSON(benchCard))
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server {
		return livedoctest.NewMCPServer(0, livedoctest.NamedTools("a", "b")...)
	}, nil))
	srv, conns := serveCounting(t, mux)
	ctx := context.Background()
	for _, c := range []struct {
		name string
		read func() error
	}{
		{"card", func() error { _, err := livedoc.FetchAgentCard(ctx, srv.URL, livedoc.Options{}); return err }},
		{"tools", func() error {
			_, err := livedoc.FetchToolSpec(ctx, srv.URL+"/mcp", livedoc.ToolSpecOptions{})
			return err
		}},
	} {
		for range reads {
			if err := c.read(); err != nil {
				t.Fatalf("%s: %v", c.name, err)
			}
		}
		// The server sees a close a moment after the client makes it: wait
		// for it, a little, rather than assert at once.
		for wait := time.Now().Add(5 * time.Second); conns.count() > 0 && time.Now().Before(wait); {
			time.Sleep(10 * time.Millisecond)
		}
		if n := conns.count(); n > 0 {
			t.Errorf("after %d %s reads, the server still holds %d connections open", reads, c.name, n)
		}
	}
}
