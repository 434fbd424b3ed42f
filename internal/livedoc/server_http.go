package livedoc

// The HTTP transport of a read of tools: Streamable HTTP (which carries
// OAuth) or HTTP+SSE, through the read's guarded client, watched (mcpHTTP)
// so that an error can say what the server answered.

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"slices"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/httpclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/mcpauth"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/quote"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

// httpServer is an MCP server reached over HTTP.
type httpServer struct {
	url     *url.URL
	sse     bool
	client  *http.Client // the MCP requests'
	watch   *mcpHTTP
	flow    *mcpauth.Flow // nil without OAuth
	secrets *redact.Secrets
}

func newHTTPServer(u *url.URL, opts ToolSpecOptions, c clock, secrets *redact.Secrets) (*httpServer, error) {
	s := &httpServer{url: u, sse: opts.SSE, secrets: secrets}
	rt := httpclient.Transport(opts.Transport, opts.guard(u), u, opts.Headers)
	s.watch = &mcpHTTP{base: rt, deadline: c.deadline()}
	s.client = &http.Client{Transport: s.watch, CheckRedirect: httpclient.CheckRedirect}
	if opts.OAuth == nil {
		return s, nil
	}
	if err := mcpauth.CheckServerURL(u.String()); err != nil {
		return nil, err
	}
	if opts.SSE {
		return nil, errors.New(`OAuth needs the Streamable HTTP transport (MCP 2025-03-26 and later): the MCP authorization spec does not apply to HTTP+SSE; remove transport = "sse"`)
	}
	if err := opts.OAuth.Check(); err != nil {
		return nil, err
	}
	// The flow's own requests (metadata, token) go where the metadata says,
	// bounded as the read is; the MCP requests stay on the server's origin.
	flowClient := &http.Client{Transport: &httpclient.Bounded{Base: rt, Deadline: c.deadline()}, CheckRedirect: httpclient.CheckRedirect}
	s.flow = mcpauth.New(mcpauth.Config{Client: opts.OAuth, Server: u, HTTP: flowClient, Secrets: secrets,
		Parent: c.parent, Timeout: c.timeout})
	s.client.CheckRedirect = httpclient.SameOriginRedirects(u)
	return s, nil
}

func (s *httpServer) describe() string { return s.url.Redacted() }

func (s *httpServer) transport() mcp.Transport {
	if s.sse {
		return &mcp.SSEClientTransport{Endpoint: s.url.String(), HTTPClient: s.client}
	}
	st := &mcp.StreamableClientTransport{Endpoint: s.url.String(), HTTPClient: s.client, DisableStandaloneSSE: true}
	if s.flow != nil {
		st.OAuthHandler = s.flow
	}
	return st
}

func (s *httpServer) connected(version string) { s.watch.connected(version) }

// stopped: a refused redirect or destination ends the read whatever was
// answered before; then the OAuth flow's failure, or the refusal of a token;
// then an answer over its bound.
func (s *httpServer) stopped(err error) error {
	if ref := httpclient.Refused(err); ref != nil {
		return ref
	}
	if ref := s.watch.refusedDestination(); ref != nil {
		return ref
	}
	if s.flow != nil {
		if ferr := s.flow.Failure(s.watch.lastRefusal()); ferr != nil {
			return ferr
		}
	}
	if over := s.watch.overLimit(); over != "" {
		return fmt.Errorf("the MCP server %s sent %s over the %d-byte (1 MiB) limit; stopped reading", s.describe(), over, MaxResponseBytes)
	}
	return nil
}

func (s *httpServer) aside() string { return "" }

func (s *httpServer) failed(string) error {
	if a := s.watch.odd(); a != nil {
		return a.explain(s.url, s.secrets)
	}
	return nil
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
	refusal  *mcpauth.Refusal // the last answer, when it was a 401 or 403
	over     string           // what went over MaxResponseBytes, "" when nothing did
	// refused is the first request the guard or a redirect policy refused:
	// the SDK may report the failed exchange as its connection closing
	// instead (HTTP+SSE: the stream ends while the POST's error is on its way).
	refused error
}

// answer is what an unexpected HTTP response said.
type answer struct {
	method, url, status string
	parsedURL           *url.URL // the URL answered, to tell whether its body may be quoted
	code                int
	contentType         string
	start               []byte
	challenges          []string // WWW-Authenticate
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
// MaxResponseBytes.
func (t *mcpHTTP) RoundTrip(req *http.Request) (*http.Response, error) {
	t.mu.Lock()
	v := t.version
	t.mu.Unlock()
	req, release := httpclient.WithDeadline(req, t.deadline)
	if v != "" && req.Header.Get("Mcp-Protocol-Version") == "" {
		req = req.Clone(req.Context())
		req.Header.Set("Mcp-Protocol-Version", v)
	}
	resp, err := t.base.RoundTrip(req)
	if err != nil {
		release()
		t.noteRefused(err)
		return resp, err
	}
	resp.Body = httpclient.ReleaseOnClose(resp.Body, release)
	if unexpected(resp) {
		t.note(req, resp)
	}
	t.noteRefusal(req, resp)
	t.capBody(req, resp)
	return resp, nil
}

// CloseIdleConnections closes the idle connections of the read.
func (t *mcpHTTP) CloseIdleConnections() { httpclient.CloseIdle(t.base) }

// noteRefusal keeps a 401 or 403 answer until a later call is answered (a
// 200: the 202 of a notification, such as the notifications/cancelled the
// SDK sends after a refused call, says nothing of the token).
func (t *mcpHTTP) noteRefusal(req *http.Request, resp *http.Response) {
	t.mu.Lock()
	defer t.mu.Unlock()
	switch resp.StatusCode {
	case http.StatusUnauthorized, http.StatusForbidden:
		t.refusal = &mcpauth.Refusal{Method: req.Method, URL: req.URL, Status: resp.Status,
			Challenges: resp.Header.Values("WWW-Authenticate")}
	case http.StatusOK:
		t.refusal = nil
	}
}

// noteRefused keeps the first refused destination of the read.
func (t *mcpHTTP) noteRefused(err error) {
	ref := httpclient.Refused(err)
	if ref == nil {
		return
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.refused == nil {
		t.refused = ref
	}
}

// refusedDestination is the first refused destination of the read, nil when
// none was.
func (t *mcpHTTP) refusedDestination() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.refused
}

// lastRefusal is the last answer when it refused the request (401, 403).
func (t *mcpHTTP) lastRefusal() *mcpauth.Refusal {
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
	resp.Body = httpclient.CapBody(resp.Body, mt == "text/event-stream", func() {
		t.mu.Lock()
		defer t.mu.Unlock()
		if t.over == "" {
			t.over = what
		}
	})
}

// followedRedirects are the statuses the client follows: it judges the
// answer they lead to.
var followedRedirects = []int{http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther,
	http.StatusTemporaryRedirect, http.StatusPermanentRedirect}

// unexpected tells an answer an MCP server would not give: a 4xx or 5xx, a
// 3xx the client does not follow, or a body that is neither JSON nor an
// event stream (202 and 204 have none).
func unexpected(resp *http.Response) bool {
	if resp.StatusCode >= 400 {
		return true
	}
	if slices.Contains(followedRedirects, resp.StatusCode) || resp.StatusCode == http.StatusAccepted ||
		resp.StatusCode == http.StatusNoContent {
		return false
	}
	mt, _, _ := mime.ParseMediaType(resp.Header.Get("Content-Type"))
	return mt != "application/json" && mt != "text/event-stream"
}

// note keeps the first unexpected answer, reading the start of its body and
// putting it back so that the SDK still sees the whole response.
func (t *mcpHTTP) note(req *http.Request, resp *http.Response) {
	start := make([]byte, quote.PeekBytes)
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

func (a *answer) explain(server *url.URL, secrets *redact.Secrets) error {
	target, fromTarget := server.Redacted(), httpclient.SameOrigin(server, a.parsedURL)
	if metadata := mcpauth.BearerChallenge(a.challenges)["resource_metadata"]; a.code == http.StatusUnauthorized && fromTarget && metadata != "" {
		return fmt.Errorf("the MCP server %s asks for OAuth: %s %s answered %s, and its WWW-Authenticate names its protected "+
			"resource metadata (%s). Give the data source a client registered at its authorization server, in place of an "+
			"Authorization header:\n\n%s\n\n(see \"Servers behind OAuth\" on the data source's page)",
			target, a.method, a.url, a.status, quote.Excerpt(secrets, metadata, quote.MaxArgRunes), oauthBlock)
	}
	if a.code == http.StatusUnauthorized || a.code == http.StatusForbidden {
		return fmt.Errorf("the MCP server %s refused the request: %s %s answered %s; check the credentials given in headers (for example an Authorization bearer token)",
			target, a.method, a.url, a.status)
	}
	if !fromTarget {
		return fmt.Errorf("%s does not look like an MCP server: %s %s answered %s with content type %q (its body is not shown: it came from another origin than %s)%s",
			target, a.method, a.url, a.status, a.contentType, httpclient.Origin(server), a.transportHint())
	}
	return fmt.Errorf("%s does not look like an MCP server: %s %s answered %s with content type %q and a body starting %q%s",
		target, a.method, a.url, a.status, a.contentType, quote.Start(secrets, a.start), a.transportHint())
}

// oauthBlock is what an error shows a user whose server asks for OAuth: a
// client of the provider block (where credentials are kept nowhere), and its
// name in the data source.
const oauthBlock = `  provider "agentregistry" {
    mcp_oauth_clients = {
      mcp = {
        client_id     = "the client's id at the authorization server"
        client_secret = var.mcp_client_secret # or private_key, assertion_file (CI), identity_provider
      }
    }
  }

  data "agentregistry_mcp_tool_spec" "..." {
    url          = "..."
    oauth_client = "mcp"
  }`

// transportHint suggests Streamable HTTP when the SSE transport's opening GET
// was refused the way a Streamable HTTP server refuses a GET without a session
// (a 4xx, often with a JSON-RPC error as its body): the likeliest cause is the
// transport, not the URL.
func (a *answer) transportHint() string {
	if a.method != http.MethodGet || a.code < 400 || a.code >= 500 || a.code == http.StatusNotFound {
		return ""
	}
	return "; the SSE transport's GET was refused, as a Streamable HTTP server refuses it: if the server speaks " +
		`Streamable HTTP (MCP 2025-03-26 and later), set transport = "streamable_http" (the default)`
}
