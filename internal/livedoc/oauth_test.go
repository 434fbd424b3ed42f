package livedoc

// OAuth in a whole read, where it meets the rest of the read: the dial guard
// under the flow's requests, the https rule on url, and the error of a server
// that asks for OAuth when none is configured. The flow's own tests are
// mcpauth's.

import (
	"context"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/mcpauth"
)

const (
	testClientID = "ci-drift-job"
	testSecret   = "s3cret-client-secret-0123456789"
)

func withSecret() *mcpauth.Client {
	return &mcpauth.Client{Grant: &mcpauth.ClientCredentials{ClientID: testClientID, ClientSecret: testSecret}}
}

// From a public start, metadata that leads to loopback (the metadata URL the
// 401 names, an authorization server, a redirect) is refused by the dial
// guard before any request reaches it.
func TestFetchToolSpecOAuth_metadataToLoopbackRefused(t *testing.T) {
	internal, hits := internalService(t)
	for _, tc := range []struct {
		name, step string
		named      string // resource_metadata of the 401
		issuer     func(public string) string
	}{
		{"resource metadata", "OAuth (protected resource metadata)", internal.URL + "/prm", nil},
		{"authorization server", "OAuth (authorization server metadata)", "", func(string) string { return internal.URL }},
		{"redirect", "OAuth (authorization server metadata)", "", func(public string) string { return public + "/to-internal" }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			mux := http.NewServeMux()
			public := httptest.NewServer(mux)
			defer public.Close()
			issuer := public.URL
			if tc.issuer != nil {
				issuer = tc.issuer(public.URL)
			}
			mux.Handle("/.well-known/oauth-protected-resource/mcp", livedoctest.JSON(`{"resource":"`+public.URL+`/mcp","authorization_servers":["`+issuer+`"]}`))
			mux.Handle("/.well-known/oauth-authorization-server/to-internal", redirectTo(internal.URL))
			mux.Handle("/mcp", http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
				if tc.named != "" {
					w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+tc.named+`"`)
				}
				http.Error(w, "no token", http.StatusUnauthorized)
			}))
			_, err := FetchToolSpec(context.Background(), public.URL+"/mcp", ToolSpecOptions{OAuth: withSecret(), Options: Options{}.on(publicNet(t, nil, public))})
			wantRefused(t, err, "loopback", hits)
			wantContains(t, err.Error(), tc.step)
		})
	}
}

// An authorization server on plain http is refused unless it is loopback,
// before any request is sent to it.
func TestFetchToolSpecOAuth_plainHTTPAuthServerRefused(t *testing.T) {
	internal, hits := internalService(t)
	_, port, _ := net.SplitHostPort(internal.Listener.Addr().String())
	as := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: testClientID, Secret: testSecret,
		Methods: []string{livedoctest.SecretBasic}})
	s := livedoctest.ServeProtectedMCP(t, newMCPServer(0, namedTools("a")...), as,
		livedoctest.ProtectedOptions{Metadata: func(m *oauthex.ProtectedResourceMetadata) {
			m.AuthorizationServers = []string{"http://as.test:" + port}
		}})
	n := publicNet(t, map[string][][]netip.Addr{"as.test": {{netip.MustParseAddr("127.0.0.1")}}})
	_, err := FetchToolSpec(context.Background(), s.URL, ToolSpecOptions{OAuth: withSecret(), Options: Options{}.on(n)})
	if err == nil {
		t.Fatal("the read succeeded")
	}
	wantContains(t, err.Error(), "OAuth (protected resource metadata)", "the authorization server http://as.test:"+port,
		"plain http", "https, or http on loopback")
	if hits.Load() != 0 {
		t.Errorf("the plain-http authorization server was reached %d times", hits.Load())
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
	n := publicNet(t, map[string][][]netip.Addr{"mcp.test": {{netip.MustParseAddr("127.0.0.1")}}})
	_, err := FetchToolSpec(context.Background(), target, ToolSpecOptions{OAuth: withSecret(), Options: Options{}.on(n)})
	if err == nil {
		t.Fatal("the read succeeded")
	}
	wantContains(t, err.Error(), "oauth needs an https url", target, "plain http", "loopback")
	if hits.Load() != 0 {
		t.Errorf("the plain-http server was sent %d requests", hits.Load())
	}
}

// An MCP server that asks for OAuth, read without oauth: the error says so
// and shows what to add (a client of the provider block, and its name in the
// data source), rather than blaming headers.
func TestFetchToolSpec_serverAsksForOAuth(t *testing.T) {
	as := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: testClientID, Secret: testSecret,
		Methods: []string{livedoctest.SecretBasic}})
	p := livedoctest.ServeProtectedMCP(t, newMCPServer(0, namedTools("a")...), as, livedoctest.ProtectedOptions{})
	msg := fetchToolsErr(t, p.URL, ToolSpecOptions{})
	wantContains(t, msg, "the MCP server "+p.URL+" asks for OAuth", "401 Unauthorized", p.MetadataURL,
		"mcp_oauth_clients = {", "client_id", "client_secret", "assertion_file", `oauth_client = "mcp"`)
	if strings.Contains(msg, "check the credentials given in headers") {
		t.Errorf("the error blames headers: %s", msg)
	}
}
