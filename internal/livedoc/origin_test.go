package livedoc

// A credential goes to the origin (scheme, host, port) it was configured for,
// or nowhere: the OAuth client's credentials and its token to the MCP server's
// origin and the authorization server it names, headers to the origin of url.

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
)

// originOf is the scheme://host:port of a URL, as errors name it.
func originOf(t *testing.T, raw string) string {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u.Scheme + "://" + u.Host
}

// The configured server redirects to another origin (another loopback port),
// whose 401 names its own protected resource metadata, claiming the
// configured URL as its resource, and its own authorization server: the read
// ends at the redirect, naming both origins, and that authorization server
// never sees a token request (the client secret never reaches it).
func TestFetchToolSpecOAuth_redirectToAnotherOriginRefused(t *testing.T) {
	configured := httptest.NewServer(nil)
	t.Cleanup(configured.Close)
	rogueAS := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: testClientID, Secret: testSecret,
		Methods: []string{livedoctest.SecretBasic, livedoctest.SecretPost}})
	rogue := livedoctest.ServeProtectedMCP(t, newMCPServer(0, namedTools("a")...), rogueAS, livedoctest.ProtectedOptions{
		Metadata: func(m *oauthex.ProtectedResourceMetadata) { m.Resource = configured.URL + "/mcp" }})
	configured.Config.Handler = redirectTo(strings.TrimSuffix(rogue.URL, "/mcp"))

	_, err := FetchToolSpec(context.Background(), configured.URL+"/mcp", ToolSpecOptions{OAuth: withSecret()})
	if n := len(rogueAS.Requests()); n != 0 {
		t.Errorf("the other origin's authorization server received %d token requests, want 0: %+v", n, rogueAS.Requests())
	}
	if err == nil {
		t.Fatal("the read succeeded")
	}
	wantContains(t, err.Error(), "refusing a redirect to another origin", originOf(t, configured.URL), originOf(t, rogue.URL),
		"with oauth")
}

// Once a token is issued, an MCP request redirected to another origin (here
// another port of the same host, which Go's client would send the
// Authorization header to) is refused: the token never leaves the server's
// origin.
func TestFetchToolSpecOAuth_tokenStaysOnTheServersOrigin(t *testing.T) {
	var leaked atomic.Value
	other := livedoctest.Serve(t, map[string]http.HandlerFunc{"/": func(w http.ResponseWriter, r *http.Request) {
		leaked.Store(r.Header.Get("Authorization"))
		http.Error(w, "no", http.StatusNotFound)
	}})
	s := newOAuthSetup(t, livedoctest.AuthServerConfig{Secret: testSecret, Methods: []string{livedoctest.SecretBasic}},
		livedoctest.ProtectedOptions{Inner: func(http.Handler) http.Handler { return redirectTo(other.URL) }})
	msg := s.readErr(t, withSecret())
	wantContains(t, msg, "refusing a redirect to another origin", originOf(t, s.mcp.URL), originOf(t, other.URL))
	if got, _ := leaked.Load().(string); got != "" {
		t.Errorf("the other origin received Authorization %q", got)
	}
}

// oauth on a plain-http url that is not loopback is refused before any
// request: anyone on the path could forge the 401 that names the
// authorization server, and read the token.
func TestFetchToolSpecOAuth_plainHTTPURLRefused(t *testing.T) {
	var hits atomic.Int64
	srv := livedoctest.Serve(t, map[string]http.HandlerFunc{"/": func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="http://mcp.test/prm"`)
		http.Error(w, "no token", http.StatusUnauthorized)
	}})
	target := "http://mcp.test:" + port(t, srv) + "/mcp"
	ctx := publicCtx(t, map[string][][]netip.Addr{"mcp.test": {{netip.MustParseAddr("127.0.0.1")}}})
	_, err := FetchToolSpec(ctx, target, ToolSpecOptions{OAuth: withSecret()})
	if err == nil {
		t.Fatal("the read succeeded")
	}
	wantContains(t, err.Error(), "oauth needs an https url", target, "plain http", "loopback")
	if hits.Load() != 0 {
		t.Errorf("the plain-http server was sent %d requests", hits.Load())
	}
}

// The token request follows no redirect: a token endpoint that answers 307
// to another host, which would get the client_secret_post body again, ends
// the read with an error naming the token endpoint.
func TestFetchToolSpecOAuth_tokenRequestNotRedirected(t *testing.T) {
	rogue := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: testClientID, Secret: testSecret,
		Methods: []string{livedoctest.SecretPost}})
	moved := livedoctest.Serve(t, map[string]http.HandlerFunc{"/": redirectTo(rogue.URL)})
	s := newOAuthSetup(t, livedoctest.AuthServerConfig{Secret: testSecret, Methods: []string{livedoctest.SecretPost},
		Metadata: func(m map[string]any) { m["token_endpoint"] = moved.URL + "/token" }}, livedoctest.ProtectedOptions{})
	msg := s.readErr(t, withSecret())
	wantContains(t, msg, "OAuth (token request)", "the token endpoint "+moved.URL+"/token", "redirect",
		rogue.URL+"/token", "token requests follow no redirect")
	if n := len(rogue.Requests()); n != 0 {
		t.Errorf("the redirect's target received %d token requests, want 0", n)
	}
	wantNoSecret(t, msg, testSecret)
}

// A 401 whose request went to another origin than the server's drives no
// discovery (the redirect policy keeps requests on the origin; this holds
// should anything else lead there).
func TestOAuthFlow_refusesAChallengeFromAnotherOrigin(t *testing.T) {
	var hits atomic.Int64
	other := livedoctest.Serve(t, map[string]http.HandlerFunc{"/": func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		http.Error(w, "no", http.StatusNotFound)
	}})
	server, _ := url.Parse("http://127.0.0.1:1/mcp")
	f := &oauthFlow{creds: withSecret(), client: http.DefaultClient, server: server, parent: context.Background()}
	req := httptest.NewRequest(http.MethodPost, server.String(), nil)
	answered := httptest.NewRequest(http.MethodPost, other.URL+"/mcp", nil)
	resp := &http.Response{StatusCode: http.StatusUnauthorized, Status: "401 Unauthorized", Request: answered,
		Header: http.Header{"Www-Authenticate": {`Bearer resource_metadata="` + other.URL + `/prm"`}},
		Body:   http.NoBody}
	err := f.Authorize(context.Background(), req, resp)
	if err == nil {
		t.Fatal("Authorize accepted a 401 from another origin")
	}
	wantContains(t, err.Error(), "OAuth (MCP request)", originOf(t, other.URL), "http://127.0.0.1:1", "not the origin of url")
	if hits.Load() != 0 {
		t.Errorf("the other origin was asked for metadata %d times", hits.Load())
	}
}

// Headers go to the origin of url only: not to the same host and port
// reached over another scheme.
func TestFetchAgentCardHeadersStayOnTheOrigin(t *testing.T) {
	var got atomic.Value
	dual := livedoctest.ServeBothSchemes(t, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.TLS == nil {
			http.Redirect(w, r, "https://"+r.Host+"/card.json", http.StatusFound)
			return
		}
		got.Store(r.Header.Get("Authorization"))
		jsonBody(testCard)(w, r)
	}))
	opts := Options{Headers: map[string]string{"Authorization": secret}, Transport: dual.Transport()}
	if _, err := FetchAgentCard(context.Background(), dual.HTTPURL+"/card.json", opts); err != nil {
		t.Fatal(err)
	}
	if v, _ := got.Load().(string); v != "" {
		t.Errorf("https on the same host and port received Authorization %q", v)
	}
}

// An MCP server that asks for OAuth, read without oauth: the error says so
// and shows the block to add, rather than blaming headers.
func TestFetchToolSpec_serverAsksForOAuth(t *testing.T) {
	s := secretSetup(t, livedoctest.SecretBasic)
	msg := fetchToolsErr(t, s.mcp.URL, ToolSpecOptions{})
	wantContains(t, msg, "the MCP server "+s.mcp.URL+" asks for OAuth", "401 Unauthorized", s.mcp.MetadataURL,
		"oauth = {", "client_id", "client_secret")
	if strings.Contains(msg, "check the credentials given in headers") {
		t.Errorf("the error blames headers: %s", msg)
	}
}

func TestSameOrigin(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{"https://Example.com/a", "https://example.com:443/b", true},
		{"http://example.com/a", "http://example.com:80/b", true},
		{"http://example.com/a", "https://example.com/a", false},
		{"http://127.0.0.1:8080/", "https://127.0.0.1:8080/", false},
		{"http://127.0.0.1:8080/", "http://127.0.0.1:8081/", false},
		{"https://example.com/", "https://evil.example.com/", false},
	} {
		a, _ := url.Parse(tc.a)
		b, _ := url.Parse(tc.b)
		if got := sameOrigin(a, b); got != tc.want {
			t.Errorf("sameOrigin(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
	if sameOrigin(nil, &url.URL{}) || sameOrigin(&url.URL{}, nil) {
		t.Error("a nil URL has an origin")
	}
}
