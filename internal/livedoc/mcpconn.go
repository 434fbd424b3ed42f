package livedoc

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"

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

// It also keeps the JSON-RPC errors the server answered with (the SDK gives
// a failed Connect the transport's view of it, such as "exited", not the
// error the server sent), so that an error can quote them.
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

// mcpHTTP watches the HTTP exchanges under the SDK. It keeps the first answer
// no MCP server would give (a 4xx/5xx, or a body that is neither JSON nor an
// event stream) so an error can say what came back instead of the SDK's
// generic one. It also restores the MCP-Protocol-Version header: wrapping the
// SDK's connection (rawToolsTransport) hides the unexported hook through which
// the SDK learns the negotiated version, so it would otherwise stop sending it.
//
// It also caps every response body at MaxResponseBytes (each event, for an
// event stream), which the SDK would otherwise read whole, whatever its size.
type mcpHTTP struct {
	base http.RoundTripper
	// deadline ends every request: the SDK sends some with a context of its
	// own, not bound by the fetch's (the notifications/cancelled it sends
	// after a timed-out server/discover, which a server that never answers
	// would hold, and the failed Connect with it, for as long as it likes).
	deadline time.Time
	mu       sync.Mutex
	version  string
	oddity   *answer
	refusal  *answer // the last answer, when it was a 401 or 403
	over     string  // what went over MaxResponseBytes, "" when nothing did
}

// answer is what an unexpected HTTP response said.
type answer struct {
	method, url, status string
	parsedURL           *url.URL // the URL answered, to tell whether its body may be quoted
	code                int
	contentType         string
	start               []byte
	challenges          []string // WWW-Authenticate, for a refusal
}

// connected records the version agreed on. It forgets what server/discover
// was answered: a server older than MCP 2026-07-28 refuses it (often with an
// HTTP 400) before the initialize that succeeded, and that refusal must not
// explain a later error.
func (t *mcpHTTP) connected(version string) {
	t.mu.Lock()
	t.version = version
	t.oddity = nil
	t.mu.Unlock()
}

func (t *mcpHTTP) odd() *answer {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.oddity
}

// RoundTrip bounds every request by the deadline and every answer by
// MaxResponseBytes. A request of the OAuth flow (oauthRequest) is not one for
// the MCP server: it gets no protocol version, and its answer is not kept.
func (t *mcpHTTP) RoundTrip(req *http.Request) (*http.Response, error) {
	t.mu.Lock()
	v := t.version
	t.mu.Unlock()
	flow := req.Context().Value(oauthRequest{}) != nil
	ctx, cancel := context.WithDeadline(req.Context(), t.deadline)
	req = req.WithContext(ctx)
	if v != "" && !flow && req.Header.Get("Mcp-Protocol-Version") == "" {
		req = req.Clone(ctx)
		req.Header.Set("Mcp-Protocol-Version", v)
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		cancel()
		return resp, err
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	if flow {
		resp.Body = &cappedBody{ReadCloser: resp.Body, lineStart: true, over: func() {}} // the flow says what went over
		return resp, nil
	}
	if unexpected(resp) {
		t.note(req, resp)
	}
	t.noteRefusal(req, resp)
	t.capBody(req, resp)
	return resp, nil
}

// noteRefusal keeps a 401 or 403 answer until a later call is answered (a
// 200: the 202 of a notification, such as the notifications/cancelled the
// SDK sends after a refused call, says nothing of the token).
func (t *mcpHTTP) noteRefusal(req *http.Request, resp *http.Response) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch resp.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden:
		t.refusal = &answer{method: req.Method, url: req.URL.Redacted(), parsedURL: req.URL, status: resp.Status,
			code: resp.StatusCode, challenges: resp.Header.Values("WWW-Authenticate")}
	case http.StatusOK:
		t.refusal = nil
	}
}

// lastRefusal is the last answer when it refused the request (401, 403).
func (t *mcpHTTP) lastRefusal() *answer {
	if t == nil {
		return nil
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.refusal
}

// overLimit says what went over MaxResponseBytes ("" when nothing did).
func (t *mcpHTTP) overLimit() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.over
}

// capBody makes resp's body stop at MaxResponseBytes, noting what it was.
func (t *mcpHTTP) capBody(req *http.Request, resp *http.Response) {
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	what := "an answer to " + req.Method + " " + req.URL.Redacted()
	if mt == "text/event-stream" {
		what = "an event of the stream answering " + req.Method + " " + req.URL.Redacted()
	}
	resp.Body = &cappedBody{ReadCloser: resp.Body, events: mt == "text/event-stream", lineStart: true, over: func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.over == "" {
			t.over = what
		}
	}}
}

// cancelOnClose releases the deadline of a request once its body is closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

func (c *cancelOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.cancel()
	return err
}

// errResponseTooLarge ends the reading of a body over MaxResponseBytes.
var errResponseTooLarge = errors.New("the MCP server's answer is over the size limit")

// cappedBody fails a read past MaxResponseBytes: of the whole body or, for an
// event stream, of one event (an empty line ends an event; lines end with
// CRLF, LF or CR).
type cappedBody struct {
	io.ReadCloser
	events    bool
	n         int  // bytes of the body, or of the current event
	lineStart bool // the next byte starts a line
	prevCR    bool // the last byte was a CR
	over      func()
}

func (c *cappedBody) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	for i, b := range p[:n] {
		if c.events {
			switch {
			case b == '\n' && c.prevCR: // the LF of a CRLF
			case b == '\n' || b == '\r':
				if c.lineStart {
					c.n = 0 // an empty line: the event ended
				}
				c.lineStart = true
			default:
				c.lineStart = false
			}
			c.prevCR = b == '\r'
		}
		if c.n++; c.n > MaxResponseBytes {
			c.over()
			return i, errResponseTooLarge
		}
	}
	return n, err
}

// unexpected tells an answer an MCP server would not give. Redirects pass:
// the client follows them and judges the final answer.
func unexpected(resp *http.Response) bool {
	if resp.StatusCode >= 400 {
		return true
	}
	if resp.StatusCode >= 300 || resp.StatusCode == http.StatusAccepted || resp.StatusCode == http.StatusNoContent {
		return false
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	return mt != "application/json" && mt != "text/event-stream"
}

// note keeps the first unexpected answer, reading the start of its body and
// putting it back so that the SDK still sees the whole response.
func (t *mcpHTTP) note(req *http.Request, resp *http.Response) {
	start := make([]byte, peekBytes)
	n, _ := io.ReadFull(resp.Body, start)
	start = start[:n]
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(start), resp.Body), resp.Body}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.oddity == nil {
		t.oddity = &answer{method: req.Method, url: req.URL.Redacted(), parsedURL: req.URL, status: resp.Status, code: resp.StatusCode,
			contentType: resp.Header.Get("Content-Type"), start: start, challenges: resp.Header.Values("WWW-Authenticate")}
	}
}
