package mcpauth_test

// The OAuth client's credentials and its token go to the MCP server's origin
// (scheme, host, port) and the authorization server it names, or nowhere.

import (
	"context"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/mcpauth"
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

// redirectTo answers every request with a 307 to target (path kept).
func redirectTo(target string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target+r.URL.Path, http.StatusTemporaryRedirect)
	}
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

	_, err := livedoc.FetchToolSpec(context.Background(), configured.URL+"/mcp", livedoc.ToolSpecOptions{OAuth: withSecret()})
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
func TestFlow_refusesAChallengeFromAnotherOrigin(t *testing.T) {
	var hits atomic.Int64
	other := livedoctest.Serve(t, map[string]http.HandlerFunc{"/": func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		http.Error(w, "no", http.StatusNotFound)
	}})
	server, _ := url.Parse("http://127.0.0.1:1/mcp")
	f := mcpauth.New(mcpauth.Config{Client: withSecret(), Server: server, HTTP: http.DefaultClient, Parent: context.Background()})
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
	if again := f.Authorize(context.Background(), req, resp); again == nil || again.Error() != err.Error() {
		t.Errorf("a later Authorize gave %v, want the first failure again", again)
	}
	if ferr := f.Failure(nil); ferr == nil || ferr.Error() != err.Error() {
		t.Errorf("Failure gave %v, want the flow's failure", ferr)
	}
}
