package mcpauth_test

// Reading the tools of an MCP server behind OAuth (the MCP authorization
// spec, client credentials of SEP-1046) through a whole live read: the Go
// SDK's own protected server (auth.RequireBearerToken,
// auth.ProtectedResourceMetadataHandler) and a local authorization server
// that checks what a real one checks.

import (
	"bytes"
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/mcpauth"
)

var (
	newMCPServer = livedoctest.NewMCPServer
	namedTools   = livedoctest.NamedTools
)

func fetchToolsErr(t *testing.T, url string, opts livedoc.ToolSpecOptions) string {
	t.Helper()
	got, err := livedoc.FetchToolSpec(context.Background(), url, opts)
	if err == nil {
		t.Fatalf("FetchToolSpec(%s) = %s, want an error", url, got.JSON)
	}
	return err.Error()
}

var wantContains = livedoctest.WantContains

const (
	testClientID = "ci-drift-job"
	testSecret   = "s3cret-client-secret-0123456789"
)

// oauthSetup is a protected MCP server with three tools, and its
// authorization server.
type oauthSetup struct {
	as  *livedoctest.AuthServer
	mcp *livedoctest.ProtectedServer
}

func newOAuthSetup(t *testing.T, cfg livedoctest.AuthServerConfig, opts livedoctest.ProtectedOptions) oauthSetup {
	t.Helper()
	return newOAuthSetupWith(t, cfg, func(*livedoctest.AuthServer) livedoctest.ProtectedOptions { return opts })
}

// newOAuthSetupWith is newOAuthSetup with options that use the
// authorization server.
func newOAuthSetupWith(t *testing.T, cfg livedoctest.AuthServerConfig, opts func(*livedoctest.AuthServer) livedoctest.ProtectedOptions) oauthSetup {
	t.Helper()
	if cfg.ClientID == "" {
		cfg.ClientID = testClientID
	}
	as := livedoctest.NewAuthServer(t, cfg)
	s := newMCPServer(1, namedTools("alpha", "beta", "gamma")...)
	return oauthSetup{as: as, mcp: livedoctest.ServeProtectedMCP(t, s, as, opts(as))}
}

func secretSetup(t *testing.T, methods ...string) oauthSetup {
	t.Helper()
	return newOAuthSetup(t, livedoctest.AuthServerConfig{Secret: testSecret, Methods: methods}, livedoctest.ProtectedOptions{})
}

func withSecret() *mcpauth.Client {
	return withCredentials(mcpauth.ClientCredentials{ClientID: testClientID, ClientSecret: testSecret})
}

func withKey(key string) *mcpauth.Client {
	return withCredentials(mcpauth.ClientCredentials{ClientID: testClientID, PrivateKey: key})
}

func withCredentials(c mcpauth.ClientCredentials) *mcpauth.Client { return &mcpauth.Client{Grant: &c} }

// readTools reads the setup's tools and fails the test unless all three came.
func (s oauthSetup) readTools(t *testing.T, o *mcpauth.Client) *livedoc.ToolSpec {
	t.Helper()
	got, err := livedoc.FetchToolSpec(context.Background(), s.mcp.URL, livedoc.ToolSpecOptions{OAuth: o})
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"alpha", "beta", "gamma"}; !slices.Equal(got.ToolNames, want) {
		t.Fatalf("tools %v, want %v", got.ToolNames, want)
	}
	return got
}

func (s oauthSetup) readErr(t *testing.T, o *mcpauth.Client) string {
	t.Helper()
	return fetchToolsErr(t, s.mcp.URL, livedoc.ToolSpecOptions{OAuth: o})
}

// wantOneGrant checks the token requests: one, with the method given, the
// server's URL as resource (RFC 8707) and the metadata's scopes.
func (s oauthSetup) wantGrants(t *testing.T, n int, method string) []livedoctest.TokenRequest {
	t.Helper()
	reqs := s.as.Requests()
	if len(reqs) != n {
		t.Fatalf("%d token requests, want %d: %+v", len(reqs), n, reqs)
	}
	for i, r := range reqs {
		if r.Method != method || r.Refused != "" {
			t.Errorf("token request %d: method %q, refused %q; want %s, granted", i, r.Method, r.Refused, method)
		}
		if !slices.Equal(r.Resource, []string{s.mcp.URL}) {
			t.Errorf("token request %d: resource %q, want [%s]", i, r.Resource, s.mcp.URL)
		}
	}
	return reqs
}

func TestFetchToolSpecOAuth_clientSecret(t *testing.T) {
	for _, tc := range []struct {
		name    string
		methods []string
		want    string
	}{
		{"basic", []string{livedoctest.SecretBasic}, livedoctest.SecretBasic},
		{"post", []string{livedoctest.SecretPost}, livedoctest.SecretPost},
		{"both: basic, which every server supports", []string{livedoctest.SecretPost, livedoctest.SecretBasic}, livedoctest.SecretBasic},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := secretSetup(t, tc.methods...)
			s.readTools(t, withSecret())
			r := s.wantGrants(t, 1, tc.want)[0]
			if !slices.Equal(r.Scopes, []string{"tools.read"}) {
				t.Errorf("scopes %q, want the metadata's scopes_supported [tools.read]", r.Scopes)
			}
		})
	}
}

// Without resource_metadata in WWW-Authenticate, the metadata is found at
// its path-based well-known URL; scopes set in the configuration are asked
// for instead of the metadata's, and an audience is sent when given.
func TestFetchToolSpecOAuth_wellKnownScopesAudience(t *testing.T) {
	s := newOAuthSetup(t, livedoctest.AuthServerConfig{Secret: testSecret, Methods: []string{livedoctest.SecretBasic}},
		livedoctest.ProtectedOptions{NoMetadataURL: true})
	o := withSecret()
	o.Scopes, o.Audience = []string{"tools.read", "extra"}, "https://api.example.com"
	s.readTools(t, o)
	r := s.wantGrants(t, 1, livedoctest.SecretBasic)[0]
	if !slices.Equal(r.Scopes, o.Scopes) || r.Audience != o.Audience {
		t.Errorf("scopes %q, audience %q; want %q, %q", r.Scopes, r.Audience, o.Scopes, o.Audience)
	}
}

// A scope named in the 401's challenge is asked for when none is configured.
func TestFetchToolSpecOAuth_scopesFromTheChallenge(t *testing.T) {
	s := newOAuthSetup(t, livedoctest.AuthServerConfig{Secret: testSecret, Methods: []string{livedoctest.SecretBasic}},
		livedoctest.ProtectedOptions{Scopes: []string{"mcp:tools"}})
	s.readTools(t, withSecret())
	if r := s.wantGrants(t, 1, livedoctest.SecretBasic)[0]; !slices.Equal(r.Scopes, []string{"mcp:tools"}) {
		t.Errorf("scopes %q, want the challenge's [mcp:tools]", r.Scopes)
	}
}

// testKey is a private key in the forms a user may have it.
type testKey struct {
	name, alg, kid string
	key            crypto.Signer
	text           string // PEM or JWK
}

func pemOf(t *testing.T, typ string, der []byte, err error) string {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: typ, Bytes: der}))
}

func jwkText(t *testing.T, key crypto.Signer, kid string) string {
	t.Helper()
	b, err := json.Marshal(jose.JSONWebKey{Key: key, KeyID: kid})
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func testKeys(t *testing.T) []testKey {
	t.Helper()
	p256, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	rsaKey, _ := rsa.GenerateKey(rand.Reader, 2048)
	_, edKey, _ := ed25519.GenerateKey(rand.Reader)
	pkcs8 := func(k crypto.Signer) string {
		der, err := x509.MarshalPKCS8PrivateKey(k)
		return pemOf(t, "PRIVATE KEY", der, err)
	}
	sec1, err := x509.MarshalECPrivateKey(p384)
	return []testKey{
		{"EC P-256 PKCS #8 PEM", "ES256", "", p256, pkcs8(p256)},
		{"EC P-384 SEC 1 PEM", "ES384", "", p384, pemOf(t, "EC PRIVATE KEY", sec1, err)},
		{"RSA PKCS #1 PEM", "RS256", "", rsaKey, pemOf(t, "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(rsaKey), nil)},
		{"RSA PKCS #8 PEM", "RS256", "", rsaKey, pkcs8(rsaKey)},
		{"Ed25519 PKCS #8 PEM", "EdDSA", "", edKey, pkcs8(edKey)},
		{"EC P-256 JWK", "ES256", "ec-1", p256, jwkText(t, p256, "ec-1")},
		{"RSA JWK", "RS256", "rsa-1", rsaKey, jwkText(t, rsaKey, "rsa-1")},
		{"Ed25519 JWK", "EdDSA", "ed-1", edKey, jwkText(t, edKey, "ed-1")},
	}
}

// private_key_jwt (RFC 7523): a short-lived assertion signed with the key,
// iss and sub the client, aud the issuer, a jti, kid the JWK's.
func TestFetchToolSpecOAuth_privateKeyJWT(t *testing.T) {
	for _, k := range testKeys(t) {
		t.Run(k.name, func(t *testing.T) {
			s := newOAuthSetup(t, livedoctest.AuthServerConfig{PublicKey: k.key.Public(),
				Methods: []string{livedoctest.PrivateKeyJWT}}, livedoctest.ProtectedOptions{})
			s.readTools(t, withKey(k.text))
			r := s.wantGrants(t, 1, livedoctest.PrivateKeyJWT)[0]
			if r.Header["alg"] != k.alg || r.Header["kid"] != k.kid || r.Header["typ"] != "JWT" {
				t.Errorf("header %v, want alg %s, kid %q, typ JWT", r.Header, k.alg, k.kid)
			}
			c := r.Claims
			iat, _ := c["iat"].(float64)
			exp, _ := c["exp"].(float64)
			if c["iss"] != testClientID || c["sub"] != testClientID || c["aud"] != s.as.Issuer || c["jti"] == "" ||
				exp-iat <= 0 || exp-iat > 300 || time.Since(time.Unix(int64(iat), 0)) > time.Minute {
				t.Errorf("claims %v: want iss and sub %s, aud %s, a jti, exp within 5 minutes of iat (now)", c, testClientID, s.as.Issuer)
			}
		})
	}
}

// The algorithm follows the server's token_endpoint_auth_signing_alg_values_supported.
func TestFetchToolSpecOAuth_signingAlgorithms(t *testing.T) {
	k := testKeys(t)[2] // RSA
	s := newOAuthSetup(t, livedoctest.AuthServerConfig{PublicKey: k.key.Public(), Methods: []string{livedoctest.PrivateKeyJWT},
		Algs: []string{"PS256"}}, livedoctest.ProtectedOptions{})
	s.readTools(t, withKey(k.text))
	if alg := s.as.Requests()[0].Header["alg"]; alg != "PS256" {
		t.Errorf("alg %v, want PS256, the one the server accepts", alg)
	}
	ed := testKeys(t)[4]
	s = newOAuthSetup(t, livedoctest.AuthServerConfig{PublicKey: ed.key.Public(), Methods: []string{livedoctest.PrivateKeyJWT},
		Algs: []string{"ES256", "RS256"}}, livedoctest.ProtectedOptions{})
	msg := s.readErr(t, withKey(ed.text))
	wantContains(t, msg, "OAuth (token request)", `accepts client assertions signed with ES256, RS256`, "an Ed25519 key signs with EdDSA")
	if len(s.as.Requests()) != 0 {
		t.Errorf("a token request was sent: %+v", s.as.Requests())
	}
}

// The secret (and its Basic encoding) never shows, even echoed by the server.
func wantNoSecret(t *testing.T, msg string, secrets ...string) {
	t.Helper()
	for _, s := range secrets {
		for _, form := range []string{s, base64.StdEncoding.EncodeToString([]byte(testClientID + ":" + s))[8:]} {
			if strings.Contains(msg, form) {
				t.Errorf("the message shows a secret (%q): %s", form, msg)
			}
		}
	}
}

func TestFetchToolSpecOAuth_wrongSecret(t *testing.T) {
	s := secretSetup(t, livedoctest.SecretBasic)
	const wrong = "not-the-secret-0123456789"
	msg := s.readErr(t, withCredentials(mcpauth.ClientCredentials{ClientID: testClientID, ClientSecret: wrong}))
	wantContains(t, msg, "OAuth (token request): the token endpoint "+s.as.Issuer+"/token answered 401 Unauthorized",
		`OAuth error "invalid_client": "Client authentication failed: unknown client or wrong secret"`,
		"check client_id and client_secret", "client_secret_basic")
	wantNoSecret(t, msg, wrong)
	// One token request: the handshake's second attempt (initialize after
	// server/discover) does not ask again.
	if n := len(s.as.Requests()); n != 1 {
		t.Errorf("%d token requests, want 1", n)
	}
}

// A method the server does not offer is not tried.
func TestFetchToolSpecOAuth_methodNotOffered(t *testing.T) {
	s := secretSetup(t, livedoctest.PrivateKeyJWT)
	msg := s.readErr(t, withSecret())
	wantContains(t, msg, "OAuth (authorization server metadata)", "offers only private_key_jwt", "client_secret_basic or client_secret_post")
	if n := len(s.as.Requests()); n != 0 {
		t.Errorf("%d token requests, want none", n)
	}
}

func TestFetchToolSpecOAuth_resourceMismatchRefused(t *testing.T) {
	for _, resource := range []string{"https://elsewhere.example/mcp", "", "/mcp"} {
		t.Run(resource, func(t *testing.T) {
			s := newOAuthSetup(t, livedoctest.AuthServerConfig{Secret: testSecret, Methods: []string{livedoctest.SecretBasic}},
				livedoctest.ProtectedOptions{Metadata: func(m *oauthex.ProtectedResourceMetadata) { m.Resource = resource }})
			msg := s.readErr(t, withSecret())
			wantContains(t, msg, "OAuth (protected resource metadata): "+s.mcp.MetadataURL, "names the resource",
				"not "+s.mcp.URL, "refused")
			if n := len(s.as.Requests()); n != 0 {
				t.Errorf("%d token requests, want none", n)
			}
		})
	}
}

// The server's URL or a parent of it on the same origin is a match.
func TestFetchToolSpecOAuth_resourceParentAccepted(t *testing.T) {
	s := newOAuthSetup(t, livedoctest.AuthServerConfig{Secret: testSecret, Methods: []string{livedoctest.SecretBasic}},
		livedoctest.ProtectedOptions{Metadata: func(m *oauthex.ProtectedResourceMetadata) { m.Resource = strings.TrimSuffix(m.Resource, "/mcp") + "/" }})
	s.readTools(t, withSecret())
	if r := s.as.Requests()[0]; len(r.Resource) != 1 || r.Resource[0] != strings.TrimSuffix(s.mcp.URL, "mcp") {
		t.Errorf("resource %q, want the metadata's", r.Resource)
	}
}

// A token that expires in the middle of the read is answered with 401: a
// new one is asked for, and the read goes on.
func TestFetchToolSpecOAuth_expiredTokenMidRead(t *testing.T) {
	s := newOAuthSetupWith(t, livedoctest.AuthServerConfig{Secret: testSecret, Methods: []string{livedoctest.SecretBasic}},
		func(as *livedoctest.AuthServer) livedoctest.ProtectedOptions {
			return livedoctest.ProtectedOptions{Inner: livedoctest.ExpireAfterFirst("tools/list", as)}
		})
	s.readTools(t, withSecret()) // one tool a page: the second page needs the new token
	reqs := s.wantGrants(t, 2, livedoctest.SecretBasic)
	if reqs[0].Token == reqs[1].Token {
		t.Error("the same token was issued twice")
	}
}

// A 403 insufficient_scope is answered once with a token for the scopes it
// names too; a second one ends the read.
func TestFetchToolSpecOAuth_insufficientScope(t *testing.T) {
	opts := livedoctest.ProtectedOptions{Inner: livedoctest.RequireScopeFor("tools/list", "tools.list")}
	s := newOAuthSetup(t, livedoctest.AuthServerConfig{Secret: testSecret, Methods: []string{livedoctest.SecretBasic}}, opts)
	s.readTools(t, withSecret())
	reqs := s.wantGrants(t, 2, livedoctest.SecretBasic)
	if !slices.Equal(reqs[1].Scopes, []string{"tools.read", "tools.list"}) {
		t.Errorf("the second token request asked for %q, want [tools.read tools.list]", reqs[1].Scopes)
	}

	stingy := newOAuthSetup(t, livedoctest.AuthServerConfig{Secret: testSecret, Methods: []string{livedoctest.SecretBasic},
		Grant: func([]string) []string { return []string{"tools.read"} }}, opts)
	msg := stingy.readErr(t, withSecret())
	wantContains(t, msg, "OAuth (MCP request)", "answered 403 Forbidden", `error="insufficient_scope"`, `scope="tools.list"`,
		"asked for tools.read tools.list", "check the scopes the authorization server grants the client")
	stingy.wantGrants(t, 2, livedoctest.SecretBasic)
}

// A token the server refuses for good: a 403 naming no scope the token was
// not asked for, or a 401 again with a fresh token; two token requests.
func TestFetchToolSpecOAuth_tokenRefused(t *testing.T) {
	for _, tc := range []struct {
		name   string
		cfg    livedoctest.AuthServerConfig
		scopes []string
		want   string
	}{
		{"403", livedoctest.AuthServerConfig{Grant: func([]string) []string { return nil }}, []string{"mcp:tools"}, "answered 403 Forbidden"},
		{"401", livedoctest.AuthServerConfig{Lifetime: -time.Minute}, nil, "answered 401 Unauthorized"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.Secret, tc.cfg.Methods = testSecret, []string{livedoctest.SecretBasic}
			s := newOAuthSetup(t, tc.cfg, livedoctest.ProtectedOptions{Scopes: tc.scopes})
			msg := s.readErr(t, withSecret())
			wantContains(t, msg, "OAuth (MCP request): the MCP server "+s.mcp.URL+" refused the access token issued by "+s.as.Issuer, tc.want)
			reqs := s.as.Requests()
			if len(reqs) > 2 {
				t.Errorf("%d token requests, want at most 2", len(reqs))
			}
			for _, r := range reqs {
				wantNoSecret(t, msg, r.Token)
			}
		})
	}
}

// An authorization server that echoes what it was sent: the secret (in
// every encoding) and the assertion never show.
func TestFetchToolSpecOAuth_echoedCredentialsBlanked(t *testing.T) {
	var issuer string
	echo := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodGet {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"issuer": issuer, "token_endpoint": issuer + "/token",
				"token_endpoint_auth_methods_supported": []string{"client_secret_basic", "private_key_jwt"}})
			return
		}
		_ = r.ParseForm()
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_ = json.NewEncoder(w).Encode(map[string]string{"error": "invalid_client",
			"error_description": "got " + r.Header.Get("Authorization") + " and " + r.PostForm.Get("client_assertion")})
	}))
	defer echo.Close()
	issuer = echo.URL
	as := &livedoctest.AuthServer{Issuer: issuer}
	p := livedoctest.ServeProtectedMCP(t, newMCPServer(0, namedTools("a")...), as, livedoctest.ProtectedOptions{})
	msg := fetchToolsErr(t, p.URL, livedoc.ToolSpecOptions{OAuth: withSecret()})
	wantContains(t, msg, `"invalid_client": "got Basic `, `(the client secret)`) // the start encodes the client id
	wantNoSecret(t, msg, testSecret)

	k := testKeys(t)[0]
	msg = fetchToolsErr(t, p.URL, livedoc.ToolSpecOptions{OAuth: withKey(k.text)})
	wantContains(t, msg, `"invalid_client": "got  and (the client assertion)"`)
	if strings.Contains(msg, "eyJ") {
		t.Errorf("the message shows the assertion: %s", msg)
	}
}

func TestFetchToolSpecOAuth_refusedOptions(t *testing.T) {
	s := secretSetup(t, livedoctest.SecretBasic)
	k := testKeys(t)[0]
	for _, tc := range []struct {
		o    *mcpauth.Client
		sse  bool
		want string
	}{
		{withCredentials(mcpauth.ClientCredentials{ClientSecret: testSecret}), false, "client_id is empty"},
		{withCredentials(mcpauth.ClientCredentials{ClientID: testClientID}), false, "exactly one of client_secret and private_key"},
		{withCredentials(mcpauth.ClientCredentials{ClientID: testClientID, ClientSecret: testSecret, PrivateKey: k.text}), false, "exactly one of client_secret and private_key"},
		{withKey("-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49\n-----END PRIVATE KEY-----\n"), false, "private_key: "},
		{withKey(pemOf(t, "RSA PRIVATE KEY", x509.MarshalPKCS1PrivateKey(smallRSA(t)), nil)), false, "at least 2048 bits"},
		{withSecret(), true, "OAuth needs the Streamable HTTP transport"},
	} {
		msg := fetchToolsErr(t, s.mcp.URL, livedoc.ToolSpecOptions{OAuth: tc.o, SSE: tc.sse})
		wantContains(t, msg, tc.want)
		wantNoSecret(t, msg, testSecret, "MIGHAgEAMBMGByqGSM49")
	}
	if n := len(s.as.Requests()); n != 0 {
		t.Errorf("%d token requests, want none", n)
	}
}

func smallRSA(t *testing.T) *rsa.PrivateKey {
	t.Helper()
	k, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

// A token of another type than Bearer (DPoP, say) is not used as one.
func TestFetchToolSpecOAuth_nonBearerTokenRefused(t *testing.T) {
	var issuer string
	as := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if r.Method == http.MethodGet {
			_ = json.NewEncoder(w).Encode(map[string]any{"issuer": issuer, "token_endpoint": issuer + "/token"})
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"access_token": "dpop-bound-token-0123456789", "token_type": "DPoP"})
	}))
	defer as.Close()
	issuer = as.URL
	p := livedoctest.ServeProtectedMCP(t, newMCPServer(0, namedTools("a")...), &livedoctest.AuthServer{Issuer: issuer}, livedoctest.ProtectedOptions{})
	msg := fetchToolsErr(t, p.URL, livedoc.ToolSpecOptions{OAuth: withSecret()})
	wantContains(t, msg, "OAuth (token request)", `issued a token of type "DPoP"`, "only Bearer tokens")
	wantNoSecret(t, msg, "dpop-bound-token-0123456789")
}

// The metadata's issuer must be the authorization server's URL (RFC 8414
// §3.3), and its token endpoint https or loopback.
func TestFetchToolSpecOAuth_authServerMetadataRefused(t *testing.T) {
	for _, tc := range []struct {
		name string
		edit func(m map[string]any)
		want string
	}{
		{"issuer", func(m map[string]any) { m["issuer"] = "https://evil.example" }, `names the issuer "https://evil.example"`},
		{"no token endpoint", func(m map[string]any) { delete(m, "token_endpoint") }, "has no token_endpoint"},
		{"plain http token endpoint", func(m map[string]any) { m["token_endpoint"] = "http://as.example.com/token" },
			"token_endpoint http://as.example.com/token is plain http"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newOAuthSetup(t, livedoctest.AuthServerConfig{Secret: testSecret, Methods: []string{livedoctest.SecretBasic},
				Metadata: tc.edit}, livedoctest.ProtectedOptions{})
			msg := s.readErr(t, withSecret())
			wantContains(t, msg, "OAuth (authorization server metadata): "+s.as.Issuer+"/.well-known/oauth-authorization-server", tc.want)
		})
	}
}

// No metadata at all: the error names the URLs tried.
func TestFetchToolSpecOAuth_noMetadata(t *testing.T) {
	guarded := livedoctest.ServeMCP(t, newMCPServer(0, namedTools("a")...), false, func(next http.Handler) http.Handler {
		return livedoctest.RequireHeader("Authorization", "Bearer right", next)
	})
	msg := fetchToolsErr(t, guarded.URL+"/mcp", livedoc.ToolSpecOptions{OAuth: withSecret()})
	wantContains(t, msg, "OAuth (protected resource metadata): none found", guarded.URL+"/.well-known/oauth-protected-resource/mcp",
		guarded.URL+"/.well-known/oauth-protected-resource answered", "MCP authorization spec")
}

// Hostile metadata: endless, oversized, or never sent, is bounded by the
// read's byte and time limits.
func TestFetchToolSpecOAuth_boundedMetadata(t *testing.T) {
	var written atomic.Int64
	for _, tc := range []struct {
		name    string
		handler http.HandlerFunc
		timeout time.Duration
		want    string
	}{
		{"endless", livedoctest.Endless(64<<20, &written), 0, "over the 1048576-byte (1 MiB) limit; stopped reading"},
		{"oversized", livedoctest.JSON(`{"resource":"` + strings.Repeat("x", 2<<20) + `"}`), 0, "over the 1048576-byte (1 MiB) limit"},
		{"silent", livedoctest.Stall(10 * time.Second), 500 * time.Millisecond, "timed out after 500ms"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			written.Store(0)
			meta := livedoctest.Serve(t, map[string]http.HandlerFunc{"/": tc.handler})
			s := newOAuthSetup(t, livedoctest.AuthServerConfig{Secret: testSecret, Methods: []string{livedoctest.SecretBasic}},
				livedoctest.ProtectedOptions{MetadataURL: meta.URL + "/prm"})
			msg := fetchToolsErr(t, s.mcp.URL, livedoc.ToolSpecOptions{OAuth: withSecret(), Options: livedoc.Options{Timeout: tc.timeout}})
			wantContains(t, msg, "OAuth (protected resource metadata): ", meta.URL+"/prm", tc.want)
			if w := written.Load(); w > 8<<20 {
				t.Errorf("the endless metadata sent %d bytes before the read stopped", w)
			}
		})
	}
}

// A 403 before any token is not taken for a step-up.
func TestFetchToolSpecOAuth_forbiddenWithoutToken(t *testing.T) {
	srv := livedoctest.Serve(t, map[string]http.HandlerFunc{"/mcp": func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("WWW-Authenticate", `Bearer error="insufficient_scope", scope="admin"`)
		http.Error(w, "forbidden", http.StatusForbidden)
	}})
	msg := fetchToolsErr(t, srv.URL+"/mcp", livedoc.ToolSpecOptions{OAuth: withSecret()})
	wantContains(t, msg, "OAuth (MCP request): the MCP server "+srv.URL+"/mcp refused the request before any token was asked for",
		"answered 403 Forbidden", `scope="admin"`)
}

// A server that names a new scope on every 403 gets one step-up a read.
func TestFetchToolSpecOAuth_oneStepUpARead(t *testing.T) {
	var listed atomic.Int64
	opts := livedoctest.ProtectedOptions{Inner: func(next http.Handler) http.Handler {
		counted := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			if bytes.Contains(body, []byte(`"tools/list"`)) {
				listed.Add(1)
			}
			next.ServeHTTP(w, r)
		})
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			scope := "s1" // the first page needs s1; the next ones s2
			if listed.Load() > 0 {
				scope = "s2"
			}
			livedoctest.RequireScopeFor("tools/list", scope)(counted).ServeHTTP(w, r)
		})
	}}
	s := newOAuthSetup(t, livedoctest.AuthServerConfig{Secret: testSecret, Methods: []string{livedoctest.SecretBasic}}, opts)
	msg := s.readErr(t, withSecret())
	wantContains(t, msg, "OAuth (MCP request)", `scope="s2"`, "asked for tools.read s1")
	if reqs := s.wantGrants(t, 2, livedoctest.SecretBasic); !slices.Equal(reqs[1].Scopes, []string{"tools.read", "s1"}) {
		t.Errorf("the step-up asked for %q", reqs[1].Scopes)
	}
}

// fakeAS is an authorization server whose metadata (at RFC 8414's URL) and
// token endpoint (/token) answer as given; nil metadata is a valid document.
func fakeAS(t *testing.T, metadata, token http.HandlerFunc) string {
	t.Helper()
	var issuer string
	mux := http.NewServeMux()
	if metadata == nil {
		metadata = func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			_ = json.NewEncoder(w).Encode(map[string]any{"issuer": issuer, "token_endpoint": issuer + "/token"})
		}
	}
	mux.HandleFunc("/.well-known/oauth-authorization-server", metadata)
	mux.HandleFunc("/token", token)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	issuer = srv.URL
	return issuer
}

// protectedBy is a protected MCP server whose metadata names issuer.
func protectedBy(t *testing.T, issuer string) *livedoctest.ProtectedServer {
	t.Helper()
	return livedoctest.ServeProtectedMCP(t, newMCPServer(0, namedTools("a")...), &livedoctest.AuthServer{Issuer: issuer},
		livedoctest.ProtectedOptions{})
}

// An authorization server whose metadata cannot be read: a 5xx ends the
// search; documents missing at every URL are named.
func TestFetchToolSpecOAuth_serverMetadataMissing(t *testing.T) {
	never := func(w http.ResponseWriter, _ *http.Request) { t.Error("the token endpoint was asked") }
	broken := fakeAS(t, func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "down", http.StatusBadGateway) }, never)
	msg := fetchToolsErr(t, protectedBy(t, broken).URL, livedoc.ToolSpecOptions{OAuth: withSecret()})
	wantContains(t, msg, "OAuth (authorization server metadata): "+broken+"/.well-known/oauth-authorization-server answered 502 Bad Gateway")
	missing := fakeAS(t, http.NotFound, never)
	msg = fetchToolsErr(t, protectedBy(t, missing).URL, livedoc.ToolSpecOptions{OAuth: withSecret()})
	wantContains(t, msg, "OAuth (authorization server metadata): none found for the authorization server "+missing+": "+
		missing+"/.well-known/oauth-authorization-server answered 404 Not Found; "+missing+"/.well-known/openid-configuration answered 404 Not Found",
		"check the authorization server the protected resource metadata names")
}

// What the token endpoint answered, and what to check: an answer that is
// no OAuth error is quoted (its start); each OAuth error gets its hint.
func TestFetchToolSpecOAuth_tokenErrorHints(t *testing.T) {
	for _, tc := range []struct {
		name   string
		status int
		body   string
		want   []string
	}{
		{"no OAuth error", http.StatusInternalServerError, "<html>" + strings.Repeat("x", 100) + "</html>",
			[]string{"answered 500 Internal Server Error with no OAuth error, and a body starting \"<html>xxx", `..."; check the token_endpoint of the authorization server`}},
		{"invalid_scope", http.StatusBadRequest, `{"error":"invalid_scope"}`,
			[]string{`OAuth error "invalid_scope"; check scopes: the authorization server does not grant the client these scopes`}},
		{"invalid_target", http.StatusBadRequest, `{"error":"invalid_target","error_description":"unknown"}`,
			[]string{`OAuth error "invalid_target": "unknown"; the authorization server does not issue tokens for the resource `,
				"(RFC 8707), which the MCP server's protected resource metadata names"}},
		{"unauthorized_client", http.StatusBadRequest, `{"error":"unauthorized_client"}`,
			[]string{"the client may not use the client credentials grant: allow it for the client at the authorization server"}},
		{"other", http.StatusBadRequest, `{"error":"temporarily_unavailable"}`,
			[]string{`OAuth error "temporarily_unavailable"; check the client's registration at the authorization server`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			issuer := fakeAS(t, nil, func(w http.ResponseWriter, _ *http.Request) {
				w.Header().Set("Content-Type", "application/json")
				w.WriteHeader(tc.status)
				_, _ = io.WriteString(w, tc.body)
			})
			p := protectedBy(t, issuer)
			msg := fetchToolsErr(t, p.URL, livedoc.ToolSpecOptions{OAuth: withSecret()})
			wantContains(t, msg, append([]string{"OAuth (token request): the token endpoint " + issuer + "/token answered "}, tc.want...)...)
			if tc.name == "invalid_target" {
				wantContains(t, msg, "for the resource "+p.URL+" (RFC 8707)")
			}
		})
	}
}

// A server that refuses every token after one use: a new token is asked
// for each 401, at most four in a read.
func TestFetchToolSpecOAuth_atMostFourTokens(t *testing.T) {
	s := newOAuthSetupWith(t, livedoctest.AuthServerConfig{Secret: testSecret, Methods: []string{livedoctest.SecretBasic}},
		func(as *livedoctest.AuthServer) livedoctest.ProtectedOptions {
			return livedoctest.ProtectedOptions{Inner: func(next http.Handler) http.Handler {
				return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
					as.ExpireAll() // this request's token was checked: the next one is refused
					next.ServeHTTP(w, r)
				})
			}}
		})
	msg := s.readErr(t, withSecret())
	wantContains(t, msg, "OAuth (MCP request): the MCP server "+s.mcp.URL+" refused 4 tokens in one read (POST answered 401 Unauthorized); stopped asking for more")
	if n := len(s.as.Requests()); n != 4 {
		t.Errorf("%d token requests, want 4", n)
	}
}

// A 403 with no challenge, before any token: the message quotes none.
func TestFetchToolSpecOAuth_forbiddenWithoutChallenge(t *testing.T) {
	srv := livedoctest.Serve(t, map[string]http.HandlerFunc{"/mcp": func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "forbidden", http.StatusForbidden)
	}})
	msg := fetchToolsErr(t, srv.URL+"/mcp", livedoc.ToolSpecOptions{OAuth: withSecret()})
	wantContains(t, msg, "refused the request before any token was asked for: POST "+srv.URL+"/mcp answered 403 Forbidden; a server")
	if strings.Contains(msg, "WWW-Authenticate") {
		t.Errorf("the message quotes a challenge there was not: %s", msg)
	}
}

// A relative resource_metadata is read at the server's origin.
func TestFetchToolSpecOAuth_relativeMetadataURL(t *testing.T) {
	s := newOAuthSetup(t, livedoctest.AuthServerConfig{Secret: testSecret, Methods: []string{livedoctest.SecretBasic}},
		livedoctest.ProtectedOptions{MetadataURL: "/.well-known/oauth-protected-resource/mcp"})
	s.readTools(t, withSecret())
}
