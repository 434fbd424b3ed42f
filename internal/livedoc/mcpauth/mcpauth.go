// Package mcpauth reads an MCP server behind OAuth, as the MCP authorization
// spec says, for a machine: a client that holds its own credentials and asks
// for its own token. On the first 401 the SDK's Streamable HTTP transport
// calls Flow.Authorize:
//
//  1. protected resource metadata (RFC 9728): the URL the 401's
//     WWW-Authenticate names, else the well-known URLs (path-based first);
//     its resource must be the server's URL (or a parent of it on the same
//     origin), else the read is refused (discovery.go);
//  2. authorization server metadata (RFC 8414, else OpenID Connect
//     discovery) of its first authorization server, whose issuer must be
//     that server (discovery.go);
//  3. a token request, made by the client's Grant (grant.go), with the
//     server's resource (RFC 8707): the client credentials grant of
//     SEP-1046 (ClientCredentials: a client secret, or private_key_jwt), a
//     workload's token as a jwt-bearer grant (WorkloadIdentity, SEP-1933),
//     or an ID token exchanged at an enterprise's identity provider for an
//     identity assertion presented as a jwt-bearer grant
//     (EnterpriseManaged, SEP-990);
//
// then the SDK retries the request with the token. A 401 later in the read (an
// expired token) asks for a new token; a 403 insufficient_scope asks once more
// with the scopes it names. The flow acts only on answers of the configured
// server's origin, and every request goes through the read's HTTP client (the
// dial guard, the deadline, the bound of each answer); a token request follows
// no redirect. The token lives for the read only.
//
// The package knows nothing of how else a server may be reached (a process on
// stdio): the MCP authorization spec is about HTTP.
//
// The SDK's extauth.ClientCredentialsHandler is not used: it sends no
// resource parameter (RFC 8707, a MUST of the MCP authorization spec),
// silently falls back to other metadata (and to the MCP server's own origin as
// authorization server) when the metadata names another resource, has no
// private_key_jwt, and its errors do not say which step failed. Its parts that
// fit are: the WWW-Authenticate parser and the metadata types (oauthex), and
// the grant of golang.org/x/oauth2/clientcredentials.
package mcpauth

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/httpclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/quote"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

// Client is an OAuth client of a read: how it gets its token, and what for.
type Client struct {
	// Grant asks the authorization server for a token.
	Grant Grant
	// Scopes are asked for; when empty, those the 401 names, else the
	// protected resource metadata's scopes_supported.
	Scopes []string
	// Audience, when set, is sent as the audience parameter of the token
	// request, which some authorization servers (Auth0) require to choose
	// the API a token is for.
	Audience string
	// Issuer, when set, is the one authorization server the client may use
	// (its issuer identifier): a protected resource that names no such
	// server is refused before any credential is sent. Without it, the
	// client uses the first server the protected resource names.
	Issuer string
}

// Check refuses a client that cannot authenticate, before any request.
func (c *Client) Check() error { return c.Grant.Check() }

// AddSecrets registers what the client holds that no message may show; a nil
// c adds nothing.
func (c *Client) AddSecrets(s *redact.Secrets) {
	if c != nil {
		c.Grant.AddSecrets(s)
	}
}

// Config is what a Flow needs of its read.
type Config struct {
	Client *Client
	// Server is the MCP server's endpoint (url).
	Server *url.URL
	// HTTP is the read's client for the flow's own requests (metadata,
	// token): guarded, bounded, with the read's redirect policy, which
	// token requests replace with none.
	HTTP *http.Client
	// Secrets blank what an error quotes of a peer; the token, and what a
	// grant makes (an assertion), are registered in it when made.
	Secrets *redact.Secrets
	// Parent is the caller's context, to tell the read's timeout (Timeout)
	// from the caller's.
	Parent  context.Context
	Timeout time.Duration
}

// step names the step of the flow an error comes from.
type step string

const (
	stepResourceMetadata step = "protected resource metadata"
	stepServerMetadata   step = "authorization server metadata"
	stepToken            step = "token request"
	stepExchange         step = "token exchange"
	stepMCP              step = "MCP request"
)

// stepError is the failure of one step of the flow.
type stepError struct {
	step step
	msg  string
}

func (e *stepError) Error() string { return "OAuth (" + string(e.step) + "): " + e.msg }

func failed(s step, format string, args ...any) error {
	return &stepError{step: s, msg: fmt.Sprintf(format, args...)}
}

// maxTokenRequests bounds the token requests of one read: the first, one
// for a token that expired, one for more scopes, and one to spare. A server
// that refuses every token cannot make the read ask for more.
const maxTokenRequests = 4

// Flow is the auth.OAuthHandler of one read.
type Flow struct {
	Config

	flow      sync.Mutex // one authorization at a time
	found     *discovered
	requests  int  // token requests made
	steppedUp bool // a 403 insufficient_scope was answered with more scopes: once a read

	mu     sync.Mutex // guards what follows, read outside an authorization
	token  *oauth2.Token
	scopes []string // asked for in the last token request
	failed error    // a step that failed: every later Authorize gives it
}

var _ auth.OAuthHandler = (*Flow)(nil)

// New is the flow of one read.
func New(cfg Config) *Flow { return &Flow{Config: cfg} }

// discovered is what the metadata said, read once per read.
type discovered struct {
	resource        string   // the protected resource metadata's resource: the RFC 8707 parameter
	scopesSupported []string // the protected resource metadata's
	issuer          string
	meta            *oauthex.AuthServerMeta
	method          string // how the client authenticates at the token endpoint, as its grant chose
}

// TokenSource gives the token of the read; nil before the first Authorize.
func (f *Flow) TokenSource(context.Context) (oauth2.TokenSource, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.token == nil {
		return nil, nil
	}
	return oauth2.StaticTokenSource(f.token), nil
}

// Authorize is called by the SDK with a request answered 401 or 403; on
// success the SDK sends the request again with the new token.
func (f *Flow) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	challenge := BearerChallenge(resp.Header.Values("WWW-Authenticate"))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, quote.PeekBytes<<4)) // the connection may then be reused
	_ = resp.Body.Close()
	f.flow.Lock()
	defer f.flow.Unlock()
	if err := f.failure(); err != nil {
		return err
	}
	if err := f.authorize(ctx, req, resp, challenge); err != nil {
		f.mu.Lock()
		f.failed = err
		f.mu.Unlock()
		return err
	}
	return nil
}

// failure is the error of the step that failed, nil when none did.
func (f *Flow) failure() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.failed
}

// Refusal is an answer of the MCP server that refused a request (401, 403).
type Refusal struct {
	Method     string
	URL        *url.URL
	Status     string
	Challenges []string // WWW-Authenticate
}

// Failure explains a read that failed: the step of the flow that failed,
// else the refusal of the MCP server's last answer (last, nil when it was no
// refusal) when a token was issued; nil when neither explains it.
func (f *Flow) Failure(last *Refusal) error {
	if err := f.failure(); err != nil {
		return err
	}
	f.mu.Lock()
	had := f.token != nil
	f.mu.Unlock()
	if last != nil && had {
		return f.refused(last)
	}
	return nil
}

func (f *Flow) authorize(ctx context.Context, req *http.Request, resp *http.Response, challenge map[string]string) error {
	if answered := answeredURL(req, resp); !httpclient.SameOrigin(answered, f.Server) {
		return failed(stepMCP, "%s %s answered %s from %s, not the origin of url %s: OAuth acts only on the answers of "+
			"the configured server's origin, and sends its credentials nowhere else", req.Method, req.URL.Redacted(),
			resp.Status, httpclient.Origin(answered), httpclient.Origin(f.Server))
	}
	scopes, err := f.scopesFor(req, resp, challenge)
	if err != nil {
		return err
	}
	if f.found == nil {
		if f.found, err = f.discover(ctx, challenge["resource_metadata"]); err != nil {
			return err
		}
	}
	if len(scopes) == 0 {
		scopes = f.found.scopesSupported
	}
	if f.requests >= maxTokenRequests {
		return failed(stepMCP, "the MCP server %s refused %d tokens in one read (%s answered %s); stopped asking for more",
			f.Server.Redacted(), f.requests, req.Method, resp.Status)
	}
	f.requests++
	tok, err := f.requestToken(ctx, scopes)
	if err != nil {
		return err
	}
	f.mu.Lock()
	f.token, f.scopes = tok, scopes
	f.mu.Unlock()
	return nil
}

// answeredURL is the URL that answered req: that of its last redirect.
func answeredURL(req *http.Request, resp *http.Response) *url.URL {
	if resp.Request != nil {
		return resp.Request.URL
	}
	return req.URL
}

// scopesFor decides the scopes of the next token: the configured ones (or,
// without them, the challenge's; none meaning the metadata's) for the first;
// those asked for before for a token refused with 401 (expired); and those
// plus the challenge's for a 403 insufficient_scope, which must name a scope
// not asked for yet, once a read.
func (f *Flow) scopesFor(req *http.Request, resp *http.Response, challenge map[string]string) ([]string, error) {
	named := strings.Fields(challenge["scope"])
	f.mu.Lock()
	had, asked := f.token != nil, slices.Clone(f.scopes)
	f.mu.Unlock()
	refusal := &Refusal{Method: req.Method, URL: req.URL, Status: resp.Status, Challenges: resp.Header.Values("WWW-Authenticate")}
	switch {
	case resp.StatusCode == http.StatusForbidden && had:
		more := union(asked, named)
		if len(more) == len(asked) || f.steppedUp {
			return nil, f.refused(refusal)
		}
		f.steppedUp = true
		return more, nil
	case resp.StatusCode == http.StatusForbidden:
		return nil, f.refused(refusal)
	case had:
		return union(asked, named), nil
	case len(f.Client.Scopes) > 0:
		return f.Client.Scopes, nil
	}
	return named, nil
}

// refused is the error of an MCP request refused with a token (or, with a
// 403, without one).
func (f *Flow) refused(r *Refusal) error {
	f.mu.Lock()
	asked, had := strings.Join(f.scopes, " "), f.token != nil
	f.mu.Unlock()
	quoted := ""
	if len(r.Challenges) > 0 {
		quoted = " (WWW-Authenticate: " + quote.Excerpt(f.Secrets, strings.Join(r.Challenges, ", "), quote.MaxRunes) + ")"
	}
	if !had {
		return failed(stepMCP, "the MCP server %s refused the request before any token was asked for: %s %s answered %s%s; "+
			"a server that follows the MCP authorization spec answers 401 first: check that url is the server's endpoint",
			f.Server.Redacted(), r.Method, r.URL.Redacted(), r.Status, quoted)
	}
	if asked == "" {
		asked = "no scope"
	}
	return failed(stepMCP, "the MCP server %s refused the access token issued by %s: %s %s answered %s%s; the token was "+
		"asked for %s; check the scopes the authorization server grants the client, and that the token is meant for this server",
		f.Server.Redacted(), f.found.issuer, r.Method, r.URL.Redacted(), r.Status, quoted, asked)
}

// BearerChallenge returns the parameters of the Bearer challenge of
// WWW-Authenticate values (nil when there is none, or it cannot be parsed:
// the flow then goes on without what it would have named).
func BearerChallenge(values []string) map[string]string {
	challenges, err := oauthex.ParseWWWAuthenticate(values)
	if err != nil {
		return nil
	}
	for _, c := range challenges {
		if c.Scheme == "bearer" {
			return c.Params
		}
	}
	return nil
}

// union is a followed by the elements of b it lacks.
func union(a, b []string) []string {
	out := slices.Clone(a)
	for _, s := range b {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out
}
