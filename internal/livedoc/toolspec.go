package livedoc

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"runtime/debug"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

// offeredVersion is the protocol version asked for first: MCP 2026-07-28,
// stateless, whose SDK client sends server/discover and then the version and
// client information in each request's _meta. A server that does not speak
// it answers server/discover with an error (a JSON-RPC error, or an HTTP 4xx
// with one), and the SDK then runs the initialize handshake with 2025-11-25,
// which 2025-06-18 and 2025-03-26 servers answer with their own version.
const offeredVersion = "2026-07-28"

// ToolSpecOptions configure FetchToolSpec.
type ToolSpecOptions struct {
	Options
	// SSE selects the older HTTP+SSE transport (MCP 2024-11-05) instead of
	// Streamable HTTP.
	SSE bool
	// IncludeTools keeps only the tools matching one of these patterns (all
	// when empty); ExcludeTools then drops those matching one. A pattern is an
	// exact name or a prefix followed by a single trailing "*".
	IncludeTools []string
	ExcludeTools []string
	// DropOutputSchemas removes each tool's outputSchema. The members of such
	// a tool are then in sorted order; every value keeps its bytes.
	DropOutputSchemas bool
	// OAuth, when set, are client credentials for a server behind OAuth
	// (oauth.go); Streamable HTTP only.
	OAuth *OAuth
}

// ToolSpec is a live tools/list result, shaped for the registry.
type ToolSpec struct {
	// JSON is {"tools":[...]} as compact JSON: the kept tools in the server's
	// order, each as the server sent it (not re-encoded through the SDK).
	JSON []byte
	// ToolNames are the kept tools' names, in the same order.
	ToolNames []string
	// ServerName and ServerVersion come from the server's initialize answer.
	ServerName    string
	ServerVersion string
	// ProtocolVersion is the MCP version the server negotiated.
	ProtocolVersion string
}

// FetchToolSpec connects to the MCP server at rawURL, initializes a session and
// lists its tools, following every nextCursor. The result is filtered as opts
// say and refused when it is still over the registry's size limit.
func FetchToolSpec(ctx context.Context, rawURL string, opts ToolSpecOptions) (*ToolSpec, error) {
	secrets := secretsOf(opts.Options)
	opts.OAuth.AddSecrets(secrets)
	ts, err := fetchToolSpec(ctx, rawURL, opts, secrets)
	return ts, secrets.Error(err)
}

func fetchToolSpec(ctx context.Context, rawURL string, opts ToolSpecOptions, secrets *redact.Secrets) (*ToolSpec, error) {
	u, err := parseURL(rawURL)
	if err != nil {
		return nil, err
	}
	if err := opts.check(); err != nil {
		return nil, err
	}
	filter, err := newToolFilter(opts.IncludeTools, opts.ExcludeTools)
	if err != nil {
		return nil, err
	}
	f := &mcpFetch{parent: ctx, target: u.Redacted(), timeout: opts.timeout(), started: time.Now(), secrets: secrets}
	if opts.OAuth != nil {
		if err := CheckOAuthURL(u.String()); err != nil {
			return nil, err
		}
		key, err := opts.OAuth.check(opts.SSE)
		if err != nil {
			return nil, err
		}
		f.oauth = &oauthFlow{creds: opts.OAuth, key: key, server: u, secrets: secrets, parent: ctx, timeout: f.timeout}
	}
	ctx, cancel := context.WithTimeout(ctx, f.timeout)
	defer cancel()
	session, err := f.connect(ctx, u, opts)
	if err != nil {
		return nil, err
	}
	defer func() { _ = session.Close() }() // the tools are read; a failed hang-up changes nothing
	return f.collect(ctx, session, filter, opts.DropOutputSchemas)
}

// collect lists every page of tools of a connected session and shapes them.
func (f *mcpFetch) collect(ctx context.Context, session *mcp.ClientSession, filter *toolFilter, dropOutputSchemas bool) (*ToolSpec, error) {
	tools, err := f.listAll(ctx, session, filter, dropOutputSchemas)
	if err != nil {
		return nil, err
	}
	doc, err := assemble(f.target, tools)
	if err != nil {
		return nil, err
	}
	ir := session.InitializeResult()
	out := &ToolSpec{JSON: doc, ProtocolVersion: ir.ProtocolVersion}
	if ir.ServerInfo != nil {
		out.ServerName, out.ServerVersion = ir.ServerInfo.Name, ir.ServerInfo.Version
	}
	for _, t := range tools {
		out.ToolNames = append(out.ToolNames, t.name)
	}
	return out, nil
}

// mcpFetch is the state of one FetchToolSpec call.
type mcpFetch struct {
	parent  context.Context // the caller's, to tell our timeout from theirs
	target  string          // the URL as shown in messages
	timeout time.Duration
	http    *mcpHTTP       // nil for a server run as a process
	proc    *serverProcess // nil for a server reached over HTTP
	tools   *rawToolsTransport
	oauth   *oauthFlow // nil without OAuth credentials
	started time.Time
	secrets *redact.Secrets // never shown in an error
}

// deadlinePassed says whether this fetch's own timeout has passed.
func (f *mcpFetch) deadlinePassed() bool { return time.Since(f.started) >= f.timeout }

func (f *mcpFetch) connect(ctx context.Context, u *url.URL, opts ToolSpecOptions) (*mcp.ClientSession, error) {
	client := newClient(u, opts.Options, func(rt http.RoundTripper) http.RoundTripper {
		f.http = &mcpHTTP{base: rt, deadline: f.started.Add(f.timeout)}
		return f.http
	})
	st := &mcp.StreamableClientTransport{Endpoint: u.String(), HTTPClient: client, DisableStandaloneSSE: true}
	if f.oauth != nil {
		// The flow's own requests (metadata, token) go where the metadata
		// says, under the redirect policy of each; the MCP requests stay on
		// the server's origin.
		f.oauth.client, st.OAuthHandler = &http.Client{Transport: client.Transport, CheckRedirect: checkRedirect}, f.oauth
		client.CheckRedirect = sameOriginRedirects(u)
	}
	var t mcp.Transport = st
	if opts.SSE {
		t = &mcp.SSEClientTransport{Endpoint: u.String(), HTTPClient: client}
	}
	f.tools = &rawToolsTransport{Transport: t}
	c := mcp.NewClient(clientInfo(), nil)
	session, err := c.Connect(ctx, f.tools, &mcp.ClientSessionOptions{ProtocolVersion: offeredVersion})
	if err != nil {
		return nil, f.fail(handshake, err)
	}
	f.http.connected(session.InitializeResult().ProtocolVersion)
	return session, nil
}

// Bounds of a tools/list fetch, so that a hostile or broken server costs the
// provider bounded memory and work (on main, one 300 MB answer took the
// provider to 2 GB, and an endless chain of cursors to 780 MB in 10 s).
const (
	// MaxResponseBytes bounds one HTTP response of the MCP server, or one
	// event of an event stream (HTTP+SSE, or a streamed answer): reading
	// stops past it.
	MaxResponseBytes = 1 << 20
	// MaxCollectedBytes bounds the tools kept across pages, as compact JSON
	// after include_tools, exclude_tools and drop_output_schemas: four times
	// the registry's limit, so that the error can still name the largest.
	MaxCollectedBytes = 4 * spec.MaxDocumentBytes
	// MaxPages is the most tools/list pages read.
	MaxPages = 1000
)

// listAll returns the kept tools of every page, shaped page by page, so
// that only what is kept is held. A cursor seen twice stops the loop: a
// server that cycles would otherwise hold the plan until the timeout.
func (f *mcpFetch) listAll(ctx context.Context, session *mcp.ClientSession, filter *toolFilter, dropOutputSchemas bool) ([]tool, error) {
	var kept []tool
	collected := 0
	seen := map[[sha256.Size]byte]bool{} // digests: a cursor may be long
	cursor := ""
	for page, listed := 1, 0; ; page++ {
		if page > MaxPages {
			return nil, fmt.Errorf("%s sent more than %d pages of tools/list; stopped reading", f.target, MaxPages)
		}
		if _, err := session.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor}); err != nil {
			return nil, f.fail("tools/list", err)
		}
		var result struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor string            `json:"nextCursor"`
		}
		if err := json.Unmarshal(f.tools.conn.take(), &result); err != nil {
			return nil, fmt.Errorf("the tools/list result of %s is not an object with a tools array: %v", f.target, err)
		}
		tools, err := shapeTools(result.Tools, listed, filter, dropOutputSchemas)
		if err != nil {
			return nil, fmt.Errorf("the tools/list result of %s: %v", f.target, err)
		}
		listed += len(result.Tools)
		kept = append(kept, tools...)
		for _, t := range tools {
			collected += len(t.raw) + 1
		}
		if collected > MaxCollectedBytes {
			return nil, tooMuchKept(f.target, page, collected, kept)
		}
		if result.NextCursor == "" {
			return kept, nil
		}
		digest := sha256.Sum256([]byte(result.NextCursor))
		if seen[digest] {
			return nil, fmt.Errorf("%s sent the tools/list cursor %q twice; stopped rather than loop", f.target, start(f.secrets, []byte(result.NextCursor)))
		}
		seen[digest] = true
		cursor = result.NextCursor
	}
}

// fail explains an error of the given MCP step: first by what the server
// answered over HTTP, then as a JSON-RPC error the server sent, else as a
// transport error. The SDK wraps a failed HTTP exchange in its own JSON-RPC
// error (-32005, "rejected by transport"), so a url.Error or our deadline in
// the chain means the server never answered.
// handshake names the first step of a fetch in errors: the SDK's Connect
// sends server/discover (MCP 2026-07-28) and falls back to initialize, and
// either may be the one that failed or timed out.
const handshake = "server/discover or initialize"

func (f *mcpFetch) fail(step string, err error) error {
	var ref *refusal // a redirect or a destination refused: whatever came before, the read ended there
	if errors.As(err, &ref) {
		return ref
	}
	if oerr := f.oauthFailure(); oerr != nil {
		return oerr
	}
	if over := f.overLimit(); over != nil {
		return over
	}
	if rpc := f.answeredWithError(step); rpc != nil {
		return rpc
	}
	if f.proc != nil {
		if perr := f.proc.explain(f, step); perr != nil {
			return perr
		}
	}
	if f.http != nil {
		if a := f.http.odd(); a != nil {
			return a.explain(f.target, f.secrets)
		}
	}
	var rpc *jsonrpc.Error
	var ue *url.Error
	if errors.As(err, &rpc) && !errors.As(err, &ue) && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("the MCP server %s answered %s", f.target, newWireError(step, rpc).quote(f.secrets))
	}
	return fmt.Errorf("MCP %s: %w", step, transportError(f.parent, err, f.target, f.timeout))
}

// oauthFailure is the failure of the OAuth flow, or the refusal of the
// MCP server's last answer when it refused the token; nil when neither.
func (f *mcpFetch) oauthFailure() error {
	if f.oauth == nil {
		return nil
	}
	if err := f.oauth.failure(); err != nil {
		return err
	}
	if r := f.http.lastRefusal(); r != nil && f.oauth.hasToken() {
		return f.secrets.Error(f.oauth.refused(r.method, r.parsedURL, r.status, r.challenges))
	}
	return nil
}

// overLimit is the error of a fetch stopped at a bound of what the server
// sends: its stdout, or one HTTP answer or event.
func (f *mcpFetch) overLimit() error {
	if f.proc != nil {
		if over := f.proc.stdout.overLimit(); over != "" {
			return fmt.Errorf("the MCP server %s wrote %s on stdout; stopped it%s", f.target, over, f.proc.stderrNote(f.secrets))
		}
	}
	if f.http != nil {
		if over := f.http.overLimit(); over != "" {
			return fmt.Errorf("the MCP server %s sent %s over the %d-byte (1 MiB) limit; stopped reading", f.target, over, MaxResponseBytes)
		}
	}
	return nil
}

// answeredWithError quotes the JSON-RPC error the server answered step with,
// nil when it sent none. For the handshake, that is initialize's, after
// server/discover's when that failed too (a server that speaks only MCP
// 2026-07-28 may explain itself there).
func (f *mcpFetch) answeredWithError(step string) error {
	methods := []string{step}
	if step == handshake {
		methods = []string{"server/discover", "initialize"}
	}
	var errs []wireError
	if f.tools != nil {
		errs = f.tools.conn.answeredWithError(methods...)
	}
	if len(errs) == 0 || errs[len(errs)-1].method != methods[len(methods)-1] {
		return nil
	}
	quoted := make([]string, len(errs))
	for i, e := range errs {
		quoted[i] = e.quote(f.secrets)
	}
	msg := fmt.Sprintf("the MCP server %s answered %s", f.target, strings.Join(quoted, ", then "))
	if f.proc != nil {
		msg += f.proc.stderrNote(f.secrets)
	}
	return errors.New(msg)
}

func (a *answer) explain(target string, secrets *redact.Secrets) error {
	t, err := url.Parse(target)
	fromTarget := err == nil && sameOrigin(t, a.parsedURL)
	if metadata := bearerChallenge(a.challenges)["resource_metadata"]; a.code == http.StatusUnauthorized && fromTarget && metadata != "" {
		return fmt.Errorf("the MCP server %s asks for OAuth: %s %s answered %s, and its WWW-Authenticate names its protected "+
			"resource metadata (%s). Give the data source the credentials of a client registered at its authorization "+
			"server, in place of an Authorization header:\n\n%s\n\n(see \"Servers behind OAuth\" on the data source's page)",
			target, a.method, a.url, a.status, excerpt(secrets, metadata, maxArgRunes), oauthBlock)
	}
	if a.code == http.StatusUnauthorized || a.code == http.StatusForbidden {
		return fmt.Errorf("the MCP server %s refused the request: %s %s answered %s; check the credentials given in headers (for example an Authorization bearer token)",
			target, a.method, a.url, a.status)
	}
	if !fromTarget {
		return fmt.Errorf("%s does not look like an MCP server: %s %s answered %s with content type %q (its body is not shown: it came from another host)%s",
			target, a.method, a.url, a.status, a.contentType, a.transportHint())
	}
	return fmt.Errorf("%s does not look like an MCP server: %s %s answered %s with content type %q and a body starting %q%s",
		target, a.method, a.url, a.status, a.contentType, start(secrets, a.start), a.transportHint())
}

// oauthBlock is the oauth attribute an error shows to a user whose server
// asks for OAuth.
const oauthBlock = `  oauth = {
    client_id     = "the client's id at the authorization server"
    client_secret = var.mcp_client_secret # or private_key, for private_key_jwt
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

// clientInfo names this provider in initialize, as the protocol asks.
func clientInfo() *mcp.Implementation {
	v := "(unknown)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		v = bi.Main.Version
	}
	return &mcp.Implementation{Name: "terraform-provider-agentregistry", Version: v}
}
