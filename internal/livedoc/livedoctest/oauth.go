package livedoctest

// A protected MCP server as the MCP authorization spec describes it, built
// with the official Go SDK (auth.RequireBearerToken and
// auth.ProtectedResourceMetadataHandler), and a local authorization server
// that grants tokens by the client credentials grant (RFC 6749 §4.4), with
// client_secret_basic, client_secret_post and private_key_jwt (RFC 7523),
// checking what a real one checks. The tests of internal/livedoc and the
// provider's acceptance tests read tools through both.

import (
	"bytes"
	"cmp"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
	"github.com/modelcontextprotocol/go-sdk/auth"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

// Token endpoint authentication methods (RFC 8414, RFC 7523).
const (
	SecretBasic   = "client_secret_basic"
	SecretPost    = "client_secret_post"
	PrivateKeyJWT = "private_key_jwt"
)

// AuthServerConfig configures NewAuthServer.
type AuthServerConfig struct {
	ClientID string
	// Secret is the client's secret, for client_secret_basic and _post.
	Secret string
	// PublicKey verifies the client's assertions (private_key_jwt).
	PublicKey crypto.PublicKey
	// Methods are token_endpoint_auth_methods_supported; a request made
	// with another method is refused with invalid_client.
	Methods []string
	// Algs are token_endpoint_auth_signing_alg_values_supported (nil:
	// omitted, and every asymmetric algorithm is accepted).
	Algs []string
	// Grant returns the scopes granted for those requested (nil: as asked).
	Grant func(requested []string) []string
	// Metadata changes the metadata document before it is served.
	Metadata func(map[string]any)
	// Lifetime is how long a token is valid (0: an hour); a negative one
	// issues tokens already expired, which the MCP server refuses.
	Lifetime time.Duration
	// TLS serves over HTTPS (httptest's certificate).
	TLS bool
	// Grants are grant_types_supported (nil: client_credentials); a request
	// of another grant type is refused with unsupported_grant_type.
	Grants []string
	// CheckAssertion judges the assertion of a jwt-bearer grant (RFC 7523
	// §2.1) the client req authenticated as (its ClientID) sent: the OAuth
	// error to refuse it with, "" to issue a token.
	CheckAssertion func(a *AuthServer, assertion string, req *TokenRequest) (code, description string)
	// Token is the access token issued ("": a new random one each time),
	// for a protected resource that knows it beforehand.
	Token string
}

// Grant types (RFC 6749, RFC 7523).
const (
	GrantClientCredentials = "client_credentials"
	GrantJWTBearer         = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	// MethodNone is the token endpoint authentication of a client that
	// authenticates no further than by its client_id, if any (RFC 8414).
	MethodNone = "none"
)

// TokenRequest is what the authorization server was asked, and answered.
type TokenRequest struct {
	Method    string   // the authentication method the client used
	Scopes    []string // the scope parameter
	Resource  []string // the resource parameters (RFC 8707)
	Audience  string   // the audience parameter
	Claims    map[string]any
	Header    map[string]any // the assertion's JOSE header
	Refused   string         // the OAuth error answered, "" when a token was issued
	Token     string         // the token issued
	Assertion string         // the client assertion sent
	GrantType string         // the grant_type parameter
	ClientID  string         // the client that authenticated (or, with none, the client_id parameter)
	Grant     string         // the assertion of a jwt-bearer grant
}

// AuthServer is the local authorization server.
type AuthServer struct {
	*httptest.Server
	AuthServerConfig
	// Issuer is its issuer identifier: its URL.
	Issuer string

	mu       sync.Mutex
	requests []TokenRequest
	tokens   map[string]*auth.TokenInfo
	jtis     map[string]bool
}

// NewAuthServer starts an authorization server that stops when the test ends.
func NewAuthServer(t testing.TB, cfg AuthServerConfig) *AuthServer {
	t.Helper()
	a := &AuthServer{AuthServerConfig: cfg, tokens: map[string]*auth.TokenInfo{}, jtis: map[string]bool{}}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /.well-known/oauth-authorization-server", a.metadata)
	mux.HandleFunc("POST /token", a.token)
	a.Server = httptest.NewUnstartedServer(mux)
	if cfg.TLS {
		a.StartTLS()
	} else {
		a.Start()
	}
	a.Issuer = a.URL
	t.Cleanup(a.Close)
	return a
}

func (a *AuthServer) metadata(w http.ResponseWriter, _ *http.Request) {
	m := map[string]any{
		"issuer":                                a.Issuer,
		"token_endpoint":                        a.Issuer + "/token",
		"grant_types_supported":                 a.grants(),
		"token_endpoint_auth_methods_supported": a.Methods,
		"response_types_supported":              []string{"token"},
	}
	if a.Algs != nil {
		m["token_endpoint_auth_signing_alg_values_supported"] = a.Algs
	}
	if a.Metadata != nil {
		a.Metadata(m)
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(m)
}

// Requests returns the token requests received, in order.
func (a *AuthServer) Requests() []TokenRequest {
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.requests)
}

// ExpireAll makes every token issued so far expired.
func (a *AuthServer) ExpireAll() {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, ti := range a.tokens {
		ti.Expiration = time.Now().Add(-time.Minute)
	}
}

// Verify is the auth.TokenVerifier of the tokens this server issued.
func (a *AuthServer) Verify(_ context.Context, token string, _ *http.Request) (*auth.TokenInfo, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	ti, ok := a.tokens[token]
	if !ok {
		return nil, fmt.Errorf("%w: unknown token", auth.ErrInvalidToken)
	}
	return &auth.TokenInfo{Scopes: ti.Scopes, Expiration: ti.Expiration}, nil
}

func (a *AuthServer) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, http.StatusBadRequest, "invalid_request", err.Error())
		return
	}
	req := TokenRequest{Scopes: strings.Fields(r.PostForm.Get("scope")), Resource: r.PostForm["resource"],
		Audience: r.PostForm.Get("audience")}
	req.GrantType, req.Grant = r.PostForm.Get("grant_type"), r.PostForm.Get("assertion")
	status, code, description := a.authenticate(r, &req)
	switch {
	case code != "":
	case !slices.Contains(a.grants(), req.GrantType):
		status, code, description = http.StatusBadRequest, "unsupported_grant_type", "only "+strings.Join(a.grants(), ", ")
	case req.GrantType == GrantJWTBearer && a.CheckAssertion == nil:
		status, code, description = http.StatusBadRequest, "invalid_grant", "no assertion is trusted here"
	case req.GrantType == GrantJWTBearer:
		status = http.StatusBadRequest
		code, description = a.CheckAssertion(a, req.Grant, &req)
	}
	if code != "" {
		req.Refused = code
		a.record(req)
		oauthError(w, status, code, description)
		return
	}
	granted := req.Scopes
	if a.Grant != nil {
		granted = a.Grant(req.Scopes)
	}
	req.Token = cmp.Or(a.Token, "at-"+random())
	a.mu.Lock()
	a.tokens[req.Token] = &auth.TokenInfo{Scopes: granted, Expiration: time.Now().Add(cmp.Or(a.Lifetime, time.Hour))}
	a.requests = append(a.requests, req)
	a.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	_ = json.NewEncoder(w).Encode(map[string]any{"access_token": req.Token, "token_type": "Bearer", "expires_in": 3600,
		"scope": strings.Join(granted, " ")})
}

// grants are the grant types the server accepts.
func (a *AuthServer) grants() []string {
	if a.Grants == nil {
		return []string{GrantClientCredentials}
	}
	return a.Grants
}

func (a *AuthServer) record(req TokenRequest) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.requests = append(a.requests, req)
}

// authenticate checks the client by the method it used; code is "" when
// it is accepted.
func (a *AuthServer) authenticate(r *http.Request, req *TokenRequest) (status int, code, description string) {
	id, secret, basic := r.BasicAuth()
	switch {
	case basic:
		req.Method = SecretBasic
	case r.PostForm.Get("client_assertion") != "":
		req.Method = PrivateKeyJWT
	case r.PostForm.Get("client_secret") != "":
		req.Method = SecretPost
		id, secret = r.PostForm.Get("client_id"), r.PostForm.Get("client_secret")
	default:
		req.Method, req.ClientID = MethodNone, r.PostForm.Get("client_id")
	}
	if !slices.Contains(a.Methods, req.Method) {
		return http.StatusUnauthorized, "invalid_client", req.Method + " is not accepted"
	}
	switch req.Method {
	case MethodNone:
		return 0, "", ""
	case PrivateKeyJWT:
		req.ClientID = a.ClientID
		return a.checkAssertion(r, req)
	}
	req.ClientID = id
	if id != a.ClientID || secret != a.Secret || a.Secret == "" {
		return http.StatusUnauthorized, "invalid_client", "Client authentication failed: unknown client or wrong secret"
	}
	return 0, "", ""
}

// checkAssertion verifies a client assertion as RFC 7523 §3 says: signed by
// the client's key, iss and sub the client, aud the issuer, exp in the near
// future, jti never seen before.
func (a *AuthServer) checkAssertion(r *http.Request, req *TokenRequest) (status int, code, description string) {
	req.Assertion = r.PostForm.Get("client_assertion")
	if r.PostForm.Get("client_assertion_type") != "urn:ietf:params:oauth:client-assertion-type:jwt-bearer" {
		return http.StatusUnauthorized, "invalid_client", "wrong client_assertion_type"
	}
	algs := []jose.SignatureAlgorithm{jose.ES256, jose.ES384, jose.ES512, jose.RS256, jose.PS256, jose.EdDSA}
	if a.Algs != nil {
		algs = nil
		for _, s := range a.Algs {
			algs = append(algs, jose.SignatureAlgorithm(s))
		}
	}
	tok, err := jwt.ParseSigned(req.Assertion, algs)
	if err != nil {
		return http.StatusUnauthorized, "invalid_client", "the assertion is not a JWT signed with an accepted algorithm: " + err.Error()
	}
	req.Header = map[string]any{"alg": tok.Headers[0].Algorithm, "kid": tok.Headers[0].KeyID, "typ": tok.Headers[0].ExtraHeaders["typ"]}
	var claims jwt.Claims
	if err := tok.Claims(a.PublicKey, &claims, &req.Claims); err != nil {
		return http.StatusUnauthorized, "invalid_client", "the assertion's signature does not verify"
	}
	err = claims.ValidateWithLeeway(jwt.Expected{Issuer: a.ClientID, Subject: a.ClientID, AnyAudience: jwt.Audience{a.Issuer}}, 30*time.Second)
	switch {
	case err != nil:
		return http.StatusUnauthorized, "invalid_client", "the assertion's claims: " + err.Error()
	case claims.Expiry == nil || claims.Expiry.Time().After(time.Now().Add(10*time.Minute)):
		return http.StatusUnauthorized, "invalid_client", "the assertion must expire within minutes"
	case claims.ID == "":
		return http.StatusUnauthorized, "invalid_client", "the assertion has no jti"
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.jtis[claims.ID] {
		return http.StatusUnauthorized, "invalid_client", "the assertion's jti was used before"
	}
	a.jtis[claims.ID] = true
	return 0, "", ""
}

func oauthError(w http.ResponseWriter, status int, code, description string) {
	w.Header().Set("Content-Type", "application/json")
	if status == http.StatusUnauthorized {
		w.Header().Set("WWW-Authenticate", `Basic realm="token"`)
	}
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]string{"error": code, "error_description": description})
}

func random() string {
	b := make([]byte, 18)
	_, _ = rand.Read(b) // never fails (crypto/rand)
	return base64.RawURLEncoding.EncodeToString(b)
}

// ProtectedOptions configure ServeProtectedMCP.
type ProtectedOptions struct {
	// Scopes are required of every token (RequireBearerTokenOptions.Scopes),
	// and named in the WWW-Authenticate challenge.
	Scopes []string
	// Metadata changes the protected resource metadata before it is served.
	Metadata func(*oauthex.ProtectedResourceMetadata)
	// NoMetadataURL leaves resource_metadata out of WWW-Authenticate: the
	// client must find the metadata at its well-known URL.
	NoMetadataURL bool
	// MetadataURL is named in WWW-Authenticate instead of the server's own.
	MetadataURL string
	// Inner wraps the MCP handler inside the token check (it sees requests
	// with a valid token only).
	Inner func(http.Handler) http.Handler
	// TLS serves over HTTPS (httptest's certificate).
	TLS bool
}

// ProtectedServer is an MCP server behind OAuth. Its endpoint is URL.
type ProtectedServer struct {
	*httptest.Server
	URL         string // the MCP endpoint: the server's URL + /mcp
	MetadataURL string // its protected resource metadata (RFC 9728)
}

// ServeProtectedMCP serves s at /mcp over Streamable HTTP behind the SDK's
// auth.RequireBearerToken with the tokens as verifies them, and its
// protected resource metadata (the SDK's handler) at the path-based
// well-known URL /.well-known/oauth-protected-resource/mcp, naming as.
func ServeProtectedMCP(t testing.TB, s *mcp.Server, as *AuthServer, opts ProtectedOptions) *ProtectedServer {
	t.Helper()
	mux := http.NewServeMux()
	p := &ProtectedServer{Server: httptest.NewUnstartedServer(mux)}
	if opts.TLS {
		p.StartTLS()
	} else {
		p.Start()
	}
	t.Cleanup(p.Close)
	p.URL, p.MetadataURL = p.Server.URL+"/mcp", p.Server.URL+"/.well-known/oauth-protected-resource/mcp"
	prm := &oauthex.ProtectedResourceMetadata{Resource: p.URL, AuthorizationServers: []string{as.Issuer},
		ScopesSupported: []string{"tools.read"}, BearerMethodsSupported: []string{"header"}}
	if opts.Metadata != nil {
		opts.Metadata(prm)
	}
	mux.Handle("/.well-known/oauth-protected-resource/mcp", auth.ProtectedResourceMetadataHandler(prm))
	var h http.Handler = mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil)
	if opts.Inner != nil {
		h = opts.Inner(h)
	}
	bearer := &auth.RequireBearerTokenOptions{Scopes: opts.Scopes}
	if !opts.NoMetadataURL {
		bearer.ResourceMetadataURL = cmp.Or(opts.MetadataURL, p.MetadataURL)
	}
	mux.Handle("/mcp", auth.RequireBearerToken(as.Verify, bearer)(h))
	return p
}

// RequireScopeFor answers a request for the JSON-RPC method with 403 and an
// insufficient_scope challenge naming scope, unless its token was granted
// scope: the step-up authorization of the MCP authorization spec.
func RequireScopeFor(method, scope string) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if ti := auth.TokenInfoFromContext(r.Context()); ti != nil && !slices.Contains(ti.Scopes, scope) && isCall(r, method) {
				w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope=%q, error_description="%s needs %s"`, scope, method, scope))
				http.Error(w, "insufficient scope", http.StatusForbidden)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}

// ExpireAfterFirst expires every token of as once the first request for the
// JSON-RPC method has been answered: the next request's token is refused
// with 401, as a token that expired in the middle of a read.
func ExpireAfterFirst(method string, as *AuthServer) func(http.Handler) http.Handler {
	var once sync.Once
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			call := isCall(r, method)
			next.ServeHTTP(w, r)
			if call {
				once.Do(as.ExpireAll)
			}
		})
	}
}

// isCall tells whether r is a JSON-RPC request for method, leaving its body
// to be read again.
func isCall(r *http.Request, method string) bool {
	if r.Method != http.MethodPost {
		return false
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
	r.Body = io.NopCloser(bytes.NewReader(body))
	var m struct{ Method string }
	return err == nil && json.Unmarshal(body, &m) == nil && m.Method == method
}

// NewECKey makes an EC P-256 client key and its PKCS #8 PEM, the form
// `openssl genpkey` writes.
func NewECKey(t testing.TB) (*ecdsa.PrivateKey, string) {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	der, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		t.Fatal(err)
	}
	return key, string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der}))
}
