package livedoc

import (
	"context"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"runtime/debug"
	"strings"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/httpclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/mcpauth"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/quote"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/stdio"
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
	// OAuth, when set, is the OAuth client of a server behind OAuth
	// (mcpauth); Streamable HTTP only.
	OAuth *mcpauth.Client
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
	secrets := opts.secrets(nil, opts.OAuth)
	ts, err := fetchToolSpec(ctx, rawURL, opts, secrets)
	return ts, secrets.Error(err)
}

func fetchToolSpec(ctx context.Context, rawURL string, opts ToolSpecOptions, secrets *redact.Secrets) (*ToolSpec, error) {
	u, err := parseURL(rawURL)
	if err != nil {
		return nil, err
	}
	filter, err := opts.checkAll()
	if err != nil {
		return nil, err
	}
	r := newRead(ctx, opts, secrets)
	s, err := newHTTPServer(u, opts, r.clock, secrets)
	if err != nil {
		return nil, err
	}
	defer s.client.CloseIdleConnections() // the flow's requests use the same connections
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	return r.run(ctx, s, filter, opts.DropOutputSchemas)
}

// FetchToolSpecCommand starts the MCP server c, speaks MCP with it over its
// stdin and stdout, lists its tools following every nextCursor, and stops it
// and every process it started (its process group). All of it happens
// within the timeout; the result is shaped as FetchToolSpec shapes it. opts'
// Headers, Transport, SSE and OAuth do not apply.
func FetchToolSpecCommand(ctx context.Context, c stdio.Command, opts ToolSpecOptions) (*ToolSpec, error) {
	secrets := opts.secrets(c.Env, nil)
	ts, err := fetchToolSpecCommand(ctx, c, opts, secrets)
	return ts, secrets.Error(err)
}

func fetchToolSpecCommand(ctx context.Context, c stdio.Command, opts ToolSpecOptions, secrets *redact.Secrets) (*ToolSpec, error) {
	if err := c.Check(); err != nil {
		return nil, err
	}
	filter, err := opts.checkAll()
	if err != nil {
		return nil, err
	}
	r := newRead(ctx, opts, secrets)
	ctx, cancel := context.WithTimeout(ctx, r.timeout)
	defer cancel()
	proc, err := stdio.Start(c, MaxResponseBytes, secrets)
	if err != nil {
		return nil, err
	}
	defer proc.Stop(r.deadline())
	// When the deadline passes, the shutdown starts at once (stdin closed,
	// SIGTERM); Stop then gives the group its grace before SIGKILL.
	defer context.AfterFunc(ctx, proc.Terminate)()
	return r.run(ctx, newProcessServer(c, proc, r.clock, secrets), filter, opts.DropOutputSchemas)
}

// checkAll refuses options a read does not take, and returns the tool filter.
func (o ToolSpecOptions) checkAll() (*toolFilter, error) {
	if err := o.check(); err != nil {
		return nil, err
	}
	return newToolFilter(o.IncludeTools, o.ExcludeTools)
}

// clock is the time of one read: when it started, for how long, and the
// caller's context, to tell the read's timeout from the caller's.
type clock struct {
	parent  context.Context
	started time.Time
	timeout time.Duration
}

// deadline is when the read must end.
func (c clock) deadline() time.Time { return c.started.Add(c.timeout) }

// deadlinePassed says whether the read's own timeout has passed.
func (c clock) deadlinePassed() bool { return time.Since(c.started) >= c.timeout }

// mcpRead is one read of an MCP server's tools.
type mcpRead struct {
	clock
	target  string // the server as messages name it
	secrets *redact.Secrets
	server  server
	tools   *rawToolsTransport
}

func newRead(parent context.Context, opts ToolSpecOptions, secrets *redact.Secrets) *mcpRead {
	return &mcpRead{clock: clock{parent: parent, started: time.Now(), timeout: opts.timeout()}, secrets: secrets}
}

// run speaks MCP with s: the handshake, then every page of tools.
func (r *mcpRead) run(ctx context.Context, s server, filter *toolFilter, dropOutputSchemas bool) (*ToolSpec, error) {
	r.server, r.target = s, s.describe()
	r.tools = &rawToolsTransport{Transport: s.transport()}
	session, err := mcp.NewClient(clientInfo(), nil).Connect(ctx, r.tools, &mcp.ClientSessionOptions{ProtocolVersion: offeredVersion})
	if err != nil {
		return nil, r.fail(handshake, err)
	}
	defer func() { _ = session.Close() }() // the tools are read; a failed hang-up changes nothing
	s.connected(session.InitializeResult().ProtocolVersion)
	return r.collect(ctx, session, filter, dropOutputSchemas)
}

// collect lists every page of tools of a connected session and shapes them.
func (r *mcpRead) collect(ctx context.Context, session *mcp.ClientSession, filter *toolFilter, dropOutputSchemas bool) (*ToolSpec, error) {
	tools, err := r.listAll(ctx, session, filter, dropOutputSchemas)
	if err != nil {
		return nil, err
	}
	doc, err := assemble(r.target, tools)
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

// Bounds of a tools/list fetch, so that a hostile or broken server costs the
// provider bounded memory and work (unbounded, one 300 MB answer took the
// provider to 2 GB, and an endless chain of cursors to 780 MB in 10 s).
const (
	// MaxResponseBytes bounds one HTTP response of the MCP server, one event
	// of an event stream (HTTP+SSE, or a streamed answer), or one message a
	// process writes: reading stops past it.
	MaxResponseBytes = httpclient.MaxAnswerBytes
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
func (r *mcpRead) listAll(ctx context.Context, session *mcp.ClientSession, filter *toolFilter, dropOutputSchemas bool) ([]tool, error) {
	var kept []tool
	collected := 0
	seen := map[[sha256.Size]byte]bool{} // digests: a cursor may be long
	cursor := ""
	for page, listed := 1, 0; ; page++ {
		if page > MaxPages {
			return nil, fmt.Errorf("%s sent more than %d pages of tools/list; stopped reading", r.target, MaxPages)
		}
		if _, err := session.ListTools(ctx, &mcp.ListToolsParams{Cursor: cursor}); err != nil {
			return nil, r.fail("tools/list", err)
		}
		var result struct {
			Tools      []json.RawMessage `json:"tools"`
			NextCursor string            `json:"nextCursor"`
		}
		if err := json.Unmarshal(r.tools.conn.take(), &result); err != nil {
			return nil, fmt.Errorf("the tools/list result of %s is not an object with a tools array: %v", r.target, err)
		}
		tools, err := shapeTools(result.Tools, listed, filter, dropOutputSchemas)
		if err != nil {
			return nil, fmt.Errorf("the tools/list result of %s: %v", r.target, err)
		}
		listed += len(result.Tools)
		kept = append(kept, tools...)
		for _, t := range tools {
			collected += len(t.raw) + 1
		}
		if collected > MaxCollectedBytes {
			return nil, tooMuchKept(r.target, page, collected, kept)
		}
		if result.NextCursor == "" {
			return kept, nil
		}
		digest := sha256.Sum256([]byte(result.NextCursor))
		if seen[digest] {
			return nil, fmt.Errorf("%s sent the tools/list cursor %q twice; stopped rather than loop", r.target, quote.Start(r.secrets, []byte(result.NextCursor)))
		}
		seen[digest] = true
		cursor = result.NextCursor
	}
}

// handshake names the first step of a read in errors: the SDK's Connect
// sends server/discover (MCP 2026-07-28) and falls back to initialize, and
// either may be the one that failed or timed out.
const handshake = "server/discover or initialize"

// fail explains an error of the given MCP step: first as the server's side
// saw it stop (a refusal, OAuth, a bound), then by the JSON-RPC error the
// server sent, then as the server's side saw it fail (an unexpected answer,
// an exit), else as a transport error. The SDK wraps a failed exchange in its
// own JSON-RPC error (-32005, "rejected by transport"), so a url.Error or our
// deadline in the chain means the server never answered.
func (r *mcpRead) fail(step string, err error) error {
	if why := r.server.stopped(err); why != nil {
		return why
	}
	if rpc := r.answeredWithError(step); rpc != nil {
		return rpc
	}
	if why := r.server.failed(step); why != nil {
		return why
	}
	var rpc *jsonrpc.Error
	var ue *url.Error
	if errors.As(err, &rpc) && !errors.As(err, &ue) && !errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("the MCP server %s answered %s", r.target, newWireError(step, rpc).quoted(r.secrets))
	}
	return fmt.Errorf("MCP %s: %w", step, httpclient.TransportError(r.parent, err, r.target, r.timeout))
}

// answeredWithError quotes the JSON-RPC error the server answered step with,
// nil when it sent none. For the handshake, that is initialize's, after
// server/discover's when that failed too (a server that speaks only MCP
// 2026-07-28 may explain itself there).
func (r *mcpRead) answeredWithError(step string) error {
	methods := []string{step}
	if step == handshake {
		methods = []string{"server/discover", "initialize"}
	}
	errs := r.tools.conn.answeredWithError(methods...)
	if len(errs) == 0 || errs[len(errs)-1].method != methods[len(methods)-1] {
		return nil
	}
	quoted := make([]string, len(errs))
	for i, e := range errs {
		quoted[i] = e.quoted(r.secrets)
	}
	return fmt.Errorf("the MCP server %s answered %s%s", r.target, strings.Join(quoted, ", then "), r.server.aside())
}

// clientInfo names this provider in initialize, as the protocol asks.
func clientInfo() *mcp.Implementation {
	v := "(unknown)"
	if bi, ok := debug.ReadBuildInfo(); ok {
		v = bi.Main.Version
	}
	return &mcp.Implementation{Name: "terraform-provider-agentregistry", Version: v}
}
