package mcpauth

// The flow's rules, one function at a time: which URLs are read, which
// resource matches the server, which URLs may carry credentials, which parts
// of a key are secrets.

import (
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/oauthex"
)

func mustParse(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

// The metadata the 401 names is read (resolved against the server's URL);
// else the path-based well-known URL, then the root one.
func TestResourceMetadataURLs(t *testing.T) {
	for _, tc := range []struct {
		server, named string
		want          []string
	}{
		{"https://mcp.example/a/mcp", "", []string{"https://mcp.example/.well-known/oauth-protected-resource/a/mcp",
			"https://mcp.example/.well-known/oauth-protected-resource"}},
		{"https://mcp.example/", "", []string{"https://mcp.example/.well-known/oauth-protected-resource"}},
		{"https://mcp.example/mcp", "/prm", []string{"https://mcp.example/prm"}},
		{"https://mcp.example/mcp", "https://meta.example/prm", []string{"https://meta.example/prm"}},
		{"https://mcp.example/mcp", "%zz", []string{"%zz"}},
	} {
		f := &Flow{Config: Config{Server: mustParse(t, tc.server)}}
		if got := f.resourceMetadataURLs(tc.named); !slices.Equal(got, tc.want) {
			t.Errorf("server %s, named %q: %v, want %v", tc.server, tc.named, got, tc.want)
		}
	}
}

func TestServerMetadataURLs(t *testing.T) {
	if got, want := serverMetadataURLs("https://as.example"), []string{"https://as.example/.well-known/oauth-authorization-server",
		"https://as.example/.well-known/openid-configuration"}; !slices.Equal(got, want) {
		t.Errorf("an issuer without a path: %v", got)
	}
	if got, want := serverMetadataURLs("https://as.example/tenant/"), []string{"https://as.example/.well-known/oauth-authorization-server/tenant",
		"https://as.example/.well-known/openid-configuration/tenant", "https://as.example/tenant/.well-known/openid-configuration"}; !slices.Equal(got, want) {
		t.Errorf("an issuer with a path: %v", got)
	}
	if got := serverMetadataURLs("%zz"); got != nil {
		t.Errorf("an issuer that is no URL: %v", got)
	}
}

// The resource must be the server's URL, or a parent of it on its origin,
// with no other query and no fragment.
func TestResourceMatches(t *testing.T) {
	server := mustParse(t, "https://mcp.example/t/mcp?tenant=a")
	for resource, want := range map[string]bool{
		"https://mcp.example/t/mcp?tenant=a": true, "https://mcp.example/t/mcp": true, "https://mcp.example/t/": true,
		"https://mcp.example": true, "https://MCP.example:443/t/mcp/": true,
		"https://mcp.example/t/mcp?tenant=b": false, "https://mcp.example/t/mcp#f": false, "https://mcp.example/t/m": false,
		"http://mcp.example/t/mcp": false, "https://mcp.example:8443/t/mcp": false, "/t/mcp": false, "": false,
		"https:///t/mcp": false, "%zz": false, "https://mcp.example/t/mcp/more": false,
	} {
		if got := resourceMatches(resource, server); got != want {
			t.Errorf("resourceMatches(%q) = %v, want %v", resource, got, want)
		}
	}
}

// Only https, or http on loopback, carries credentials.
func TestSecureURLs(t *testing.T) {
	for raw, want := range map[string]string{
		"https://as.example/t": "", "HTTPS://as.example": "", "http://localhost:9/t": "", "http://LOCALHOST/": "",
		"http://127.0.0.2/": "", "http://[::1]:8080/": "", "http://[::ffff:127.0.0.1]/": "",
		"http://as.example/t": "is plain http", "http://10.0.0.1/": "is plain http", "ftp://as.example/": "is not an https URL",
		"/token": "is not an absolute https URL", "https://": "is not an absolute https URL", "%zz": "is not an absolute https URL",
	} {
		err := secureURL(raw)
		if (err == nil) != (want == "") || err != nil && !strings.Contains(err.Error(), want) {
			t.Errorf("secureURL(%q) = %v, want %q", raw, err, want)
		}
	}
	for raw, want := range map[string]string{
		"https://mcp.example/mcp": "", "http://127.0.0.1:8080/mcp": "", "http://localhost/mcp": "", "%zz": "",
		"http://user:pw@mcp.example/mcp": "oauth needs an https url, or http on loopback (localhost, 127.0.0.0/8, ::1): " +
			"http://user:xxxxx@mcp.example/mcp is plain http, where anyone on the network path could forge the 401",
	} {
		err := CheckServerURL(raw)
		if (err == nil) != (want == "") || err != nil && !strings.Contains(err.Error(), want) {
			t.Errorf("CheckServerURL(%q) = %v, want %q", raw, err, want)
		}
	}
}

// The parts of a key an error could quote alone: each line of a PEM body
// (not its armour nor its headers), each private member of a JWK.
func TestKeyParts(t *testing.T) {
	pem := "-----BEGIN EC PRIVATE KEY-----\nProc-Type: 4,ENCRYPTED\n\n  MHcCAQEEIL0  \nAoGCCqGSM49\n-----END EC PRIVATE KEY-----\n"
	if got := keyParts(pem); !slices.Equal(got, []string{"MHcCAQEEIL0", "AoGCCqGSM49"}) {
		t.Errorf("keyParts(PEM) = %q", got)
	}
	jwk := `{"kty":"RSA","n":"public-n","e":"AQAB","d":"private-d","p":"private-p","q":"private-q","dp":"x1","dq":"x2","qi":"x3"}`
	if got := keyParts(jwk); !slices.Equal(got, []string{"private-d", "private-p", "private-q", "x1", "x2", "x3"}) {
		t.Errorf("keyParts(JWK) = %q", got)
	}
	if got := keyParts(`{"kty":"oct","k":"shared-key"}`); !slices.Equal(got, []string{"shared-key"}) {
		t.Errorf("keyParts(oct JWK) = %q", got)
	}
	if got := keyParts("not a key"); got != nil {
		t.Errorf("keyParts(text) = %q", got)
	}
}

// A token request answered with a redirect names it, whether or not the
// answer that caused it is known.
func TestRefuseTokenRedirect(t *testing.T) {
	f := &Flow{found: &discovered{issuer: "https://as.example"}}
	via := []*http.Request{{URL: mustParse(t, "https://as.example/token")}}
	err := f.refuseTokenRedirect(&http.Request{URL: mustParse(t, "https://evil.example/t")}, via)
	want := "the token endpoint https://as.example/token answered a redirect to https://evil.example/t: refused, token " +
		"requests follow no redirect (they carry the client's credentials); check that token endpoint (the authorization server is https://as.example)"
	if err == nil || err.Error() != want {
		t.Errorf("refuseTokenRedirect = %v\nwant %s", err, want)
	}
	err = f.refuseTokenRedirect(&http.Request{URL: mustParse(t, "https://evil.example/t"), Response: &http.Response{Status: "307 Temporary Redirect"}}, via)
	if err == nil || !strings.Contains(err.Error(), "answered 307 Temporary Redirect to https://evil.example/t") {
		t.Errorf("refuseTokenRedirect = %v", err)
	}
}

// The client's authentication at the token endpoint, from what the metadata
// offers.
func TestAuthentication(t *testing.T) {
	secret, key, public := &ClientCredentials{ClientSecret: "s"}, &ClientCredentials{PrivateKey: "k"}, &ClientCredentials{}
	for _, tc := range []struct {
		c       *ClientCredentials
		offered []string
		want    string
	}{
		{secret, nil, methodSecretBasic},
		{secret, []string{methodSecretPost, methodSecretBasic}, methodSecretBasic},
		{secret, []string{methodSecretPost}, methodSecretPost},
		{secret, []string{methodPrivateKeyJWT}, "offers only private_key_jwt at its token endpoint, not client_secret_basic or client_secret_post: give private_key instead of client_secret"},
		{key, nil, methodPrivateKeyJWT},
		{key, []string{methodSecretBasic, methodPrivateKeyJWT}, methodPrivateKeyJWT},
		{key, []string{methodSecretBasic, methodSecretPost}, "offers only client_secret_basic, client_secret_post at its token endpoint, not private_key_jwt: give client_secret instead of private_key"},
		{public, nil, methodNone},
		{public, []string{methodSecretBasic, methodNone}, methodNone},
		{public, []string{methodSecretBasic}, "offers only client_secret_basic at its token endpoint, not none (a client without a secret): give client_secret or private_key"},
	} {
		got, err := tc.c.Authentication(&oauthex.AuthServerMeta{TokenEndpointAuthMethodsSupported: tc.offered})
		if err != nil {
			got = err.Error()
		}
		if got != tc.want {
			t.Errorf("%+v with %v: %q, want %q", tc.c, tc.offered, got, tc.want)
		}
	}
}
