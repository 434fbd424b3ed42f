package livedoc

// Reading an MCP server behind OAuth, as the MCP authorization spec says, with
// the client credentials of its extension for machines (SEP-1046). On the
// first 401 the SDK's Streamable HTTP transport calls Authorize (this file):
//
//  1. protected resource metadata (RFC 9728): the URL the 401's
//     WWW-Authenticate names, else the well-known URLs (path-based first);
//     its resource must be the server's URL (or a parent of it on the same
//     origin), else the read is refused (oauth_discovery.go);
//  2. authorization server metadata (RFC 8414, else OpenID Connect
//     discovery) of its first authorization server, whose issuer must be
//     that server (oauth_discovery.go);
//  3. a token request with the client_credentials grant, authenticated by
//     the method the metadata offers (client_secret_basic, client_secret_post
//     or private_key_jwt), with the server's resource (RFC 8707): golang.org/x/oauth2
//     (oauth_token.go);
//
// then the SDK retries the request with the token. A 401 later in the read (an
// expired token) asks for a new token; a 403 insufficient_scope asks once more
// with the scopes it names. Every request goes through the read's one
// http.Client: the dial guard, the redirect policy, the deadline and the
// 1 MiB bound of each answer. The token lives for the read only.
//
// The SDK's extauth.ClientCredentialsHandler is not used: it sends no
// resource parameter (RFC 8707, a MUST of the MCP authorization spec),
// silently falls back to other metadata (and to the MCP server's own origin as
// authorization server) when the metadata names another resource, has no
// private_key_jwt, and its errors do not say which step failed. Its parts that
// fit are: the WWW-Authenticate parser and the metadata types (oauthex), and
// the grant of golang.org/x/oauth2/clientcredentials.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
	"golang.org/x/oauth2"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

// OAuth are the client credentials of a confidential client registered with
// the authorization server of a protected MCP server. Exactly one of
// ClientSecret and PrivateKey is set.
type OAuth struct {
	ClientID string
	// ClientSecret authenticates the client with client_secret_basic or
	// client_secret_post, as the server's metadata offers.
	ClientSecret string
	// PrivateKey (PEM or a private JWK; EC, RSA or Ed25519) signs a client
	// assertion: private_key_jwt (RFC 7523).
	PrivateKey string
	// Scopes are asked for; when empty, those the 401 names, else the
	// protected resource metadata's scopes_supported.
	Scopes []string
	// Audience, when set, is sent as the audience parameter of the token
	// request, which some authorization servers (Auth0) require to choose
	// the API a token is for.
	Audience string
}

// Labels of the OAuth secrets in blanked text.
const (
	labelClientSecret = "the client secret"
	labelPrivateKey   = "the private key"
	labelAssertion    = "the client assertion"
	labelAccessToken  = "the access token"
)

// AddSecrets registers the values of o that no message may show: the client
// secret, and the private key whole and in parts (each line of a PEM body,
// each private member of a JWK), as an error may quote a part. The assertion
// and the token are added when they are made. A nil o adds nothing.
func (o *OAuth) AddSecrets(s *redact.Secrets) {
	if o == nil {
		return
	}
	s.Add(labelClientSecret, o.ClientSecret)
	s.Add(labelPrivateKey, o.PrivateKey)
	for _, part := range keyParts(o.PrivateKey) {
		s.Add(labelPrivateKey, part)
	}
}

// check refuses credentials that cannot authenticate, and returns the
// client's key (nil with a client secret).
func (o *OAuth) check(sse bool) (*clientKey, error) {
	switch {
	case sse:
		return nil, errors.New(`OAuth needs the Streamable HTTP transport (MCP 2025-03-26 and later): the MCP authorization spec does not apply to HTTP+SSE; remove transport = "sse"`)
	case strings.TrimSpace(o.ClientID) == "":
		return nil, errors.New("the OAuth client_id is empty: give the client's identifier at the authorization server")
	case (o.ClientSecret == "") == (o.PrivateKey == ""):
		return nil, errors.New("the OAuth credentials need exactly one of client_secret and private_key")
	case o.PrivateKey == "":
		return nil, nil
	}
	k, err := parseClientKey(o.PrivateKey)
	if err != nil {
		return nil, fmt.Errorf("the OAuth private_key: %v", err)
	}
	return k, nil
}

// oauthStep names the step of the flow an error comes from.
type oauthStep string

const (
	stepResourceMetadata oauthStep = "protected resource metadata"
	stepServerMetadata   oauthStep = "authorization server metadata"
	stepToken            oauthStep = "token request"
	stepMCP              oauthStep = "MCP request"
)

// oauthError is the failure of one step of the flow.
type oauthError struct {
	step oauthStep
	msg  string
}

func (e *oauthError) Error() string { return "OAuth (" + string(e.step) + "): " + e.msg }

func stepError(step oauthStep, format string, args ...any) error {
	return &oauthError{step: step, msg: fmt.Sprintf(format, args...)}
}

// maxTokenRequests bounds the token requests of one read: the first, one
// for a token that expired, one for more scopes, and one to spare. A server
// that refuses every token cannot make the read ask for more.
const maxTokenRequests = 4

// oauthRequest marks, in a request's context, a request of the OAuth flow:
// mcpHTTP bounds it (deadline, 1 MiB) but does not take it for an answer of
// the MCP server.
type oauthRequest struct{}

// oauthFlow is the auth.OAuthHandler of one read.
type oauthFlow struct {
	creds   *OAuth
	key     *clientKey // nil with a client secret
	client  *http.Client
	server  *url.URL // the MCP server's endpoint
	secrets *redact.Secrets
	parent  context.Context // the caller's, to tell our timeout from theirs
	timeout time.Duration

	flow      sync.Mutex // one authorization at a time
	found     *discovered
	requests  int  // token requests made
	steppedUp bool // a 403 insufficient_scope was answered with more scopes: once a read

	mu     sync.Mutex // guards what follows, read outside an authorization
	token  *oauth2.Token
	scopes []string // asked for in the last token request
	failed error    // a step that failed: every later Authorize gives it
}

// discovered is what the metadata said, read once per read.
type discovered struct {
	resource        string   // the protected resource metadata's resource: the RFC 8707 parameter
	scopesSupported []string // the protected resource metadata's
	issuer          string
	meta            *oauthex.AuthServerMeta
	method          string // the token endpoint authentication method
}

// TokenSource gives the token of the read; nil before the first Authorize.
func (f *oauthFlow) TokenSource(context.Context) (oauth2.TokenSource, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.token == nil {
		return nil, nil
	}
	return oauth2.StaticTokenSource(f.token), nil
}

// hasToken says whether a token was obtained.
func (f *oauthFlow) hasToken() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.token != nil
}

// Authorize is called by the SDK with a request answered 401 or 403; on
// success the SDK sends the request again with the new token.
func (f *oauthFlow) Authorize(ctx context.Context, req *http.Request, resp *http.Response) error {
	challenge := bearerChallenge(resp.Header.Values("WWW-Authenticate"))
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, peekBytes<<4)) // the connection may then be reused
	_ = resp.Body.Close()
	f.flow.Lock()
	defer f.flow.Unlock()
	if err := f.failure(); err != nil {
		return err
	}
	ctx = context.WithValue(ctx, oauthRequest{}, true)
	if err := f.authorize(ctx, req, resp, challenge); err != nil {
		err = f.secrets.Error(err)
		f.mu.Lock()
		f.failed = err
		f.mu.Unlock()
		return err
	}
	return nil
}

// failure is the error of the step that failed, nil when none did.
func (f *oauthFlow) failure() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.failed
}

func (f *oauthFlow) authorize(ctx context.Context, req *http.Request, resp *http.Response, challenge map[string]string) error {
	if answered := answeredURL(req, resp); !sameOrigin(answered, f.server) {
		return stepError(stepMCP, "%s %s answered %s from %s, not the origin of url %s: OAuth acts only on the answers of "+
			"the configured server's origin, and sends its credentials nowhere else", req.Method, req.URL.Redacted(),
			resp.Status, origin(answered), origin(f.server))
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
		return stepError(stepMCP, "the MCP server %s refused %d tokens in one read (%s answered %s); stopped asking for more",
			f.server.Redacted(), f.requests, req.Method, resp.Status)
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
func (f *oauthFlow) scopesFor(req *http.Request, resp *http.Response, challenge map[string]string) ([]string, error) {
	named := strings.Fields(challenge["scope"])
	f.mu.Lock()
	had, asked := f.token != nil, slices.Clone(f.scopes)
	f.mu.Unlock()
	switch {
	case resp.StatusCode == http.StatusForbidden && had:
		more := union(asked, named)
		if len(more) == len(asked) || f.steppedUp {
			return nil, f.refused(req.Method, req.URL, resp.Status, resp.Header.Values("WWW-Authenticate"))
		}
		f.steppedUp = true
		return more, nil
	case resp.StatusCode == http.StatusForbidden:
		return nil, f.refused(req.Method, req.URL, resp.Status, resp.Header.Values("WWW-Authenticate"))
	case had:
		return union(asked, named), nil
	case len(f.creds.Scopes) > 0:
		return f.creds.Scopes, nil
	}
	return named, nil
}

// refused is the error of an MCP request refused with a token (or, with a
// 403, without one).
func (f *oauthFlow) refused(method string, u *url.URL, status string, challenges []string) error {
	f.mu.Lock()
	asked, had := strings.Join(f.scopes, " "), f.token != nil
	f.mu.Unlock()
	quoted := ""
	if len(challenges) > 0 {
		quoted = " (WWW-Authenticate: " + excerpt(f.secrets, strings.Join(challenges, ", "), maxQuotedRunes) + ")"
	}
	if !had {
		return stepError(stepMCP, "the MCP server %s refused the request before any token was asked for: %s %s answered %s%s; "+
			"a server that follows the MCP authorization spec answers 401 first: check that url is the server's endpoint",
			f.server.Redacted(), method, u.Redacted(), status, quoted)
	}
	if asked == "" {
		asked = "no scope"
	}
	return stepError(stepMCP, "the MCP server %s refused the access token issued by %s: %s %s answered %s%s; the token was "+
		"asked for %s; check the scopes the authorization server grants the client, and that the token is meant for this server",
		f.server.Redacted(), f.found.issuer, method, u.Redacted(), status, quoted, asked)
}

// bearerChallenge returns the parameters of the Bearer challenge of
// WWW-Authenticate values (nil when there is none, or it cannot be parsed:
// the flow then goes on without what it would have named).
func bearerChallenge(values []string) map[string]string {
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
