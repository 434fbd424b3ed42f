package mcpauth_test

// A token from an authorization server named by an A2A card's security
// scheme (Flow.TokenFrom): by its metadata, or by its token URL alone.

import (
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/mcpauth"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

// resourceURL is the resource the tokens are asked for: an agent's interface.
const resourceURL = "https://agent.example.com/a2a/rest"

// tokenFrom asks as for a token with the client c, as an extended card read
// does.
func tokenFrom(t *testing.T, c *mcpauth.Client, as mcpauth.AuthServer) (string, error) {
	t.Helper()
	server, _ := url.Parse(resourceURL)
	secrets := &redact.Secrets{}
	c.AddSecrets(secrets)
	f := mcpauth.New(mcpauth.Config{Client: c, Server: server, HTTP: &http.Client{}, Secrets: secrets,
		Parent: context.Background(), Timeout: 10 * time.Second})
	tok, err := f.TokenFrom(context.Background(), as)
	if err != nil {
		return "", err
	}
	return tok.AccessToken, nil
}

func tokenFromErr(t *testing.T, c *mcpauth.Client, as mcpauth.AuthServer) string {
	t.Helper()
	tok, err := tokenFrom(t, c, as)
	if err == nil {
		t.Fatalf("TokenFrom(%+v) = %q, want an error", as, tok)
	}
	return err.Error()
}

// By its metadata: the issuer checked, the client's scopes (else those
// given), the resource given; a client pinned to that issuer too.
func TestTokenFrom_metadata(t *testing.T) {
	as := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: testClientID, Secret: testSecret,
		Methods: []string{livedoctest.SecretBasic}})
	named := mcpauth.AuthServer{MetadataURL: as.Issuer + "/.well-known/oauth-authorization-server", Resource: resourceURL,
		Scopes: []string{"agent.card"}}
	scoped := withSecret()
	scoped.Scopes = []string{"mine"}
	pinned := withSecret()
	pinned.Issuer = as.Issuer
	for _, c := range []*mcpauth.Client{withSecret(), scoped, pinned} {
		if _, err := tokenFrom(t, c, named); err != nil {
			t.Fatal(err)
		}
	}
	reqs := as.Requests()
	if len(reqs) != 3 || !slices.Equal(reqs[0].Scopes, []string{"agent.card"}) || !slices.Equal(reqs[1].Scopes, []string{"mine"}) ||
		!slices.Equal(reqs[0].Resource, []string{resourceURL}) || reqs[0].Method != livedoctest.SecretBasic {
		t.Errorf("token requests %+v; want three, for agent.card then mine, for %s", reqs, resourceURL)
	}
}

// By its token URL alone: asked as is, a private key's assertion for that
// URL (there is no issuer); refused for a client pinned to an issuer, which
// cannot be checked.
func TestTokenFrom_tokenURL(t *testing.T) {
	key, keyPEM := livedoctest.NewECKey(t)
	as := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: testClientID, PublicKey: key.Public(),
		Methods: []string{livedoctest.PrivateKeyJWT}})
	as.Issuer = as.URL + "/token" // the audience its assertions must name
	if _, err := tokenFrom(t, withKey(keyPEM), mcpauth.AuthServer{TokenURL: as.URL + "/token", Resource: resourceURL}); err != nil {
		t.Fatal(err)
	}
	pinned := withKey(keyPEM)
	pinned.Issuer = as.URL
	livedoctest.WantContains(t, tokenFromErr(t, pinned, mcpauth.AuthServer{TokenURL: as.URL + "/token"}),
		"OAuth (authorization server metadata): the client is pinned to the issuer "+as.URL+", and the scheme names only a "+
			"token URL, "+as.URL+"/token, with no metadata that names its issuer: refused before any credential was sent")
	livedoctest.WantContains(t, tokenFromErr(t, withSecret(), mcpauth.AuthServer{TokenURL: "http://as.example.com/token"}),
		"OAuth (authorization server metadata): the token URL http://as.example.com/token is plain http")
	if n := len(as.Requests()); n != 1 {
		t.Errorf("%d token requests, want 1", n)
	}
}

// Metadata that cannot be the named server's is refused before any token
// request: missing, of another issuer, of another server than the pin.
func TestTokenFrom_metadataRefused(t *testing.T) {
	as := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: testClientID, Secret: testSecret,
		Methods: []string{livedoctest.SecretBasic}})
	rfc8414 := as.Issuer + "/.well-known/oauth-authorization-server"
	other := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{Metadata: func(m map[string]any) {
		m["issuer"] = as.Issuer // another server's metadata, claiming as's issuer
	}})
	pinned := withSecret()
	pinned.Issuer = "https://as.example.com"
	for _, tc := range []struct {
		client *mcpauth.Client
		url    string
		want   string
	}{
		{withSecret(), as.Issuer + "/.well-known/none", as.Issuer + "/.well-known/none answered 404 Not Found"},
		{withSecret(), other.Issuer + "/.well-known/oauth-authorization-server", "names the issuer \"" + as.Issuer +
			"\", whose metadata is not at that URL: refused, as RFC 8414 §3.3 requires"},
		{pinned, rfc8414, "the scheme names the authorization server " + as.Issuer + ", not https://as.example.com, the " +
			"issuer the client is pinned to: refused before any credential was sent"},
		{workload(mcpauth.WorkloadIdentity{Assertion: "eyJ.a.b"}), rfc8414, "the authorization server " + as.Issuer +
			" does not take the jwt-bearer grant"},
	} {
		livedoctest.WantContains(t, tokenFromErr(t, tc.client, mcpauth.AuthServer{MetadataURL: tc.url}),
			"OAuth (authorization server metadata): ", tc.want)
	}
	if n := len(as.Requests()) + len(other.Requests()); n != 0 {
		t.Errorf("%d token requests, want none", n)
	}
}

// An identity assertion is made for an issuer: an authorization server known
// by its token URL alone cannot be asked with one.
func TestTokenFrom_enterpriseNeedsAnIssuer(t *testing.T) {
	idp := livedoctest.NewIdentityProvider(t, "idp-client", testClientID)
	msg := tokenFromErr(t, enterprise(idp, idp.IDToken(t), true), mcpauth.AuthServer{TokenURL: "https://as.example.com/token"})
	livedoctest.WantContains(t, msg, "OAuth (token request): the authorization server is known by its token endpoint "+
		"https://as.example.com/token alone, with no issuer")
	if n := len(idp.Exchanges()); n != 0 {
		t.Errorf("%d token exchanges, want none", n)
	}
}

// fakeEndpoint answers every POST with status and the JSON body given.
func fakeEndpoint(t *testing.T, status int, body any) string {
	t.Helper()
	return livedoctest.Serve(t, map[string]http.HandlerFunc{"/token": func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_ = json.NewEncoder(w).Encode(body)
	}}).URL + "/token"
}

// What the identity provider answered, and what to check.
func TestTokenFrom_identityProviderErrors(t *testing.T) {
	as := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: testClientID, Secret: testSecret,
		Grants: []string{livedoctest.GrantJWTBearer}, Methods: []string{livedoctest.SecretBasic}})
	named := mcpauth.AuthServer{MetadataURL: as.Issuer + "/.well-known/oauth-authorization-server", Resource: resourceURL}
	for _, tc := range []struct {
		status int
		body   any
		want   string
	}{
		{400, map[string]string{"error": "invalid_client"}, "check identity_provider's client_id and client_secret"},
		{400, map[string]string{"error": "invalid_target"}, "the identity provider does not issue identity assertions " +
			"(ID-JAG) for the authorization server " + as.Issuer + " and the resource " + resourceURL},
		{400, map[string]string{"error": "slow_down"}, "check the client's registration at the identity provider"},
		{500, "down", `answered 500 Internal Server Error with no OAuth error, and a body starting "\"down\"\n"; check ` +
			"identity_provider's token_endpoint (or its issuer)"},
		{200, map[string]string{"access_token": "eyJ.an.access-token", "issued_token_type": "urn:ietf:params:oauth:token-type:access_token",
			"token_type": "Bearer"}, "OAuth (token request): the identity provider's token endpoint "},
	} {
		endpoint := fakeEndpoint(t, tc.status, tc.body)
		e := &mcpauth.EnterpriseManaged{Client: mcpauth.ClientCredentials{ClientID: testClientID, ClientSecret: testSecret},
			IdP: mcpauth.IdentityProvider{TokenEndpoint: endpoint, ClientID: "idp-client", IDToken: "eyJ.id.token"}}
		msg := tokenFromErr(t, &mcpauth.Client{Grant: e}, named)
		livedoctest.WantContains(t, msg, tc.want)
		if tc.status == 200 {
			livedoctest.WantContains(t, msg, `issued a token of type "urn:ietf:params:oauth:token-type:access_token", not an identity assertion`)
		} else {
			livedoctest.WantContains(t, msg, "OAuth (token exchange): the identity provider's token endpoint "+endpoint+" answered ")
		}
	}
	if n := len(as.Requests()); n != 0 {
		t.Errorf("%d token requests at the authorization server, want none", n)
	}
}

// What the authorization server answered a workload's or an enterprise
// client's grant, and what to check.
func TestTokenFrom_grantHints(t *testing.T) {
	idp := livedoctest.NewIdentityProvider(t, "idp-client", testClientID)
	for _, tc := range []struct {
		client *mcpauth.Client
		code   string
		want   string
	}{
		{workload(mcpauth.WorkloadIdentity{AssertionFile: "/etc/hostname"}), "invalid_grant",
			"the authorization server refused the workload's token: check the token in assertion_file (/etc/hostname): it must be unexpired"},
		{workload(mcpauth.WorkloadIdentity{Assertion: "eyJ.a.b"}), "invalid_client", "the authorization server does not know " +
			"the client: check client_id (or leave it out"},
		{workload(mcpauth.WorkloadIdentity{Assertion: "eyJ.a.b"}), "temporarily_unavailable", "check the client's registration at the authorization server"},
		{enterprise(idp, idp.IDToken(t), true), "invalid_client", "check client_id and the client's secret or key at the " +
			"authorization server (sent as client_secret_basic)"},
		{enterprise(idp, idp.IDToken(t), true), "unauthorized_client", "the authorization server does not let the client use identity assertions"},
		{enterprise(idp, idp.IDToken(t), true), "invalid_grant", "the authorization server refused the identity assertion " +
			"the identity provider issued: check that it trusts the identity provider " + idp.URL + "/token for the client " +
			testClientID + " and the resource " + resourceURL},
	} {
		as := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: testClientID, Secret: testSecret,
			Grants: []string{livedoctest.GrantJWTBearer}, Methods: []string{livedoctest.MethodNone, livedoctest.SecretBasic},
			CheckAssertion: func(*livedoctest.AuthServer, string, *livedoctest.TokenRequest) (string, string) { return tc.code, "" }})
		msg := tokenFromErr(t, tc.client, mcpauth.AuthServer{MetadataURL: as.Issuer + "/.well-known/oauth-authorization-server",
			Resource: resourceURL})
		livedoctest.WantContains(t, msg, `OAuth error "`+tc.code+`"; `+tc.want)
	}
}

// An authorization server whose metadata lists no grant types may take the
// workload's token: it is asked.
func TestTokenFrom_noGrantTypesListed(t *testing.T) {
	ci := livedoctest.NewIssuer(t, "https://token.actions.example")
	as := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{Grants: []string{livedoctest.GrantJWTBearer},
		Methods: []string{livedoctest.MethodNone}, CheckAssertion: ci.TrustWorkloads,
		Metadata: func(m map[string]any) { delete(m, "grant_types_supported") }})
	_, err := tokenFrom(t, workload(mcpauth.WorkloadIdentity{Assertion: ci.WorkloadToken(t, as.Issuer, time.Hour)}),
		mcpauth.AuthServer{MetadataURL: as.Issuer + "/.well-known/oauth-authorization-server"})
	if err != nil {
		t.Fatal(err)
	}
}

// A server that echoes the signature of the workload's token alone: it is
// blanked too (with it, the token can be used).
func TestFetchToolSpecOAuth_workloadSignatureBlanked(t *testing.T) {
	ci := livedoctest.NewIssuer(t, "https://token.actions.example")
	s := newOAuthSetup(t, livedoctest.AuthServerConfig{Grants: []string{livedoctest.GrantJWTBearer},
		Methods: []string{livedoctest.MethodNone}, CheckAssertion: func(_ *livedoctest.AuthServer, assertion string, _ *livedoctest.TokenRequest) (string, string) {
			return "invalid_grant", "bad signature " + assertion[strings.LastIndexByte(assertion, '.')+1:]
		}}, livedoctest.ProtectedOptions{})
	token := ci.WorkloadToken(t, s.as.Issuer, time.Hour)
	msg := s.readErr(t, workload(mcpauth.WorkloadIdentity{Assertion: token}))
	livedoctest.WantContains(t, msg, `"bad signature (the workload's token)"`)
}

// What cannot work is refused before any request.
func TestEnterpriseManaged_check(t *testing.T) {
	good := mcpauth.IdentityProvider{Issuer: "https://idp.example.com", ClientID: "c", IDToken: "eyJ.x.y"}
	for _, tc := range []struct {
		e    mcpauth.EnterpriseManaged
		want string
	}{
		{mcpauth.EnterpriseManaged{IdP: good}, "the OAuth client_id is empty"},
		{mcpauth.EnterpriseManaged{Client: mcpauth.ClientCredentials{ClientID: "a", ClientSecret: "s", PrivateKey: "k"}, IdP: good},
			"at most one of client_secret and private_key beside identity_provider"},
		{mcpauth.EnterpriseManaged{Client: mcpauth.ClientCredentials{ClientID: "a", PrivateKey: "not a key"}, IdP: good},
			"the OAuth private_key: "},
		{mcpauth.EnterpriseManaged{Client: mcpauth.ClientCredentials{ClientID: "a"},
			IdP: mcpauth.IdentityProvider{Issuer: "https://idp.example.com", IDToken: "eyJ.x.y"}}, "identity_provider's client_id is empty"},
		{mcpauth.EnterpriseManaged{Client: mcpauth.ClientCredentials{ClientID: "a"},
			IdP: mcpauth.IdentityProvider{Issuer: "https://idp.example.com", ClientID: "c"}}, "identity_provider's id_token is empty"},
		{mcpauth.EnterpriseManaged{Client: mcpauth.ClientCredentials{ClientID: "a"},
			IdP: mcpauth.IdentityProvider{ClientID: "c", IDToken: "eyJ.x.y"}}, "needs its issuer or its token_endpoint"},
		{mcpauth.EnterpriseManaged{Client: mcpauth.ClientCredentials{ClientID: "a"},
			IdP: mcpauth.IdentityProvider{TokenEndpoint: "http://idp.example.com/token", ClientID: "c", IDToken: "eyJ.x.y"}},
			"identity_provider's token_endpoint is plain http"},
	} {
		err := tc.e.Check()
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("Check(%+v) = %v, want %q", tc.e, err, tc.want)
		}
	}
	ok := mcpauth.EnterpriseManaged{Client: mcpauth.ClientCredentials{ClientID: "a"}, IdP: good}
	if err := ok.Check(); err != nil {
		t.Errorf("a public client with an issuer: %v", err)
	}
}
