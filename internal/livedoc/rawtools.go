package livedoc

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// rawToolsTransport wraps an SDK transport to keep the raw JSON of every
// tools/list result. The SDK decodes tools into mcp.Tool, which drops fields
// it does not know (a newer spec's "execution", say) and re-encodes schemas
// through map[string]any (numbers as float64), so re-marshalling it would not
// give the tools as the server sent them.
type rawToolsTransport struct {
	mcp.Transport
	conn *rawToolsConn
}

func (t *rawToolsTransport) Connect(ctx context.Context) (mcp.Connection, error) {
	c, err := t.Transport.Connect(ctx)
	if err != nil {
		return nil, err
	}
	t.conn = &rawToolsConn{Connection: c, pending: map[jsonrpc.ID]string{}}
	return t.conn, nil
}

// rawToolsConn is the connection of rawToolsTransport: it keeps the raw
// result of the last tools/list, and the JSON-RPC errors the server answered
// with (the SDK gives a failed Connect the transport's view of it, such as
// "exited", not the error the server sent), so that an error can quote them.
type rawToolsConn struct {
	mcp.Connection
	mu        sync.Mutex
	pending   map[jsonrpc.ID]string // the methods of the calls not yet answered, by id
	result    json.RawMessage       // the last tools/list result read
	rpcErrors []wireError           // the JSON-RPC errors received, the first maxKeptErrors
}

// maxKeptErrors bounds the JSON-RPC errors kept: a handshake answers two
// calls at most (server/discover, initialize), a page of tools one.
const maxKeptErrors = 4

func (c *rawToolsConn) Write(ctx context.Context, msg jsonrpc.Message) error {
	if r, ok := msg.(*jsonrpc.Request); ok && r.IsCall() {
		c.mu.Lock()
		c.pending[r.ID] = r.Method
		c.mu.Unlock()
	}
	return c.Connection.Write(ctx, msg)
}

// Read runs before the SDK hands the response to the waiting call, so the
// raw result (or the error) is in place when that call returns.
func (c *rawToolsConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	msg, err := c.Connection.Read(ctx)
	if r, ok := msg.(*jsonrpc.Response); ok && err == nil {
		c.mu.Lock()
		if method, ok := c.pending[r.ID]; ok {
			delete(c.pending, r.ID)
			var we *jsonrpc.Error
			switch {
			case errors.As(r.Error, &we) && len(c.rpcErrors) < maxKeptErrors:
				c.rpcErrors = append(c.rpcErrors, newWireError(method, we))
			case r.Error == nil && method == "tools/list":
				c.result = r.Result
			}
		}
		c.mu.Unlock()
	}
	return msg, err
}

// answeredWithError returns the JSON-RPC errors the server answered the given
// methods with, in the order received.
func (c *rawToolsConn) answeredWithError(methods ...string) []wireError {
	if c == nil {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var out []wireError
	for _, e := range c.rpcErrors {
		if slices.Contains(methods, e.method) {
			out = append(out, e)
		}
	}
	return out
}

// take returns the last tools/list result and forgets it.
func (c *rawToolsConn) take() json.RawMessage {
	c.mu.Lock()
	defer c.mu.Unlock()
	r := c.result
	c.result = nil
	return r
}
