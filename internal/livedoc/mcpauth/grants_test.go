package mcpauth_test

// The grants in which the client proves itself with a token another party
// issued: a workload's (SEP-1933) and an enterprise user's, exchanged at the
// enterprise's identity provider (SEP-990); and the issuer a client is
// pinned to.

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/oauthex"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/mcpauth"
)

// workloadSetup is a protected MCP server whose authorization server takes
// the workload tokens of a CI's issuer as jwt-bearer grants, and no client
// authentication, as the servers of SEP-1933 do.
func workloadSetup(t *testing.T, scopes func([]string) []string) (oauthSetup, *livedoctest.Issuer) {
	t.Helper()
	ci := livedoctest.NewIssuer(t, "https://token.actions.example")
	s := newOAuthSetup(t, livedoctest.AuthServerConfig{Grants: []string{livedoctest.GrantJWTBearer},
		Methods: []string{livedoctest.MethodNone}, CheckAssertion: ci.TrustWorkloads, Grant: scopes}, livedoctest.ProtectedOptions{})
	return s, ci
}

func workload(w mcpauth.WorkloadIdentity) *mcpauth.Client { return &mcpauth.Client{Grant: &w} }

// The workload's token is sent as a jwt-bearer grant with the server's
// resource and no client authentication; client_id only when given.
func TestFetchToolSpecOAuth_workloadIdentity(t *testing.T) {
	s, ci := workloadSetup(t, nil)
	token := ci.WorkloadToken(t, s.as.Issuer, time.Hour)
	s.readTools(t, workload(mcpauth.WorkloadIdentity{Assertion: token}))
	s.readTools(t, workload(mcpauth.WorkloadIdentity{ClientID: "fleet-drift", Assertion: token}))
	reqs := s.wantGrants(t, 2, livedoctest.MethodNone)
	for i, want := range []string{"", "fleet-drift"} {
		if r := reqs[i]; r.GrantType != livedoctest.GrantJWTBearer || r.Grant != token || r.ClientID != want ||
			!slices.Equal(r.Scopes, []string{"tools.read"}) {
			t.Errorf("token request %d: grant %q, assertion sent %v, client_id %q, scopes %v; want jwt-bearer, the token, %q, [tools.read]",
				i, r.GrantType, r.Grant == token, r.ClientID, r.Scopes, want)
		}
	}
}

// assertion_file is read at each token request: a token the platform
// rotated between two reads is the one sent.
func TestFetchToolSpecOAuth_assertionFileReadEachTime(t *testing.T) {
	s, ci := workloadSetup(t, nil)
	file := filepath.Join(t.TempDir(), "token")
	var sent []string
	for range 2 {
		token := ci.WorkloadToken(t, s.as.Issuer, time.Hour) + "\n" // as a runner writes it
		if err := os.WriteFile(file, []byte(token), 0o600); err != nil {
			t.Fatal(err)
		}
		sent = append(sent, strings.TrimSpace(token))
		s.readTools(t, workload(mcpauth.WorkloadIdentity{AssertionFile: file}))
	}
	reqs := s.wantGrants(t, 2, livedoctest.MethodNone)
	if reqs[0].Grant != sent[0] || reqs[1].Grant != sent[1] || sent[0] == sent[1] {
		t.Errorf("the token requests did not send the token in the file at the time")
	}
}

// A token file that is not a regular file of at most 1 MiB is refused
// naming its path, before anything is sent; so is an empty one, when read.
func TestFetchToolSpecOAuth_assertionFileBounded(t *testing.T) {
	s, _ := workloadSetup(t, nil)
	dir := t.TempDir()
	fifo, big, empty := filepath.Join(dir, "fifo"), filepath.Join(dir, "big"), filepath.Join(dir, "empty")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("no named pipes here: %v", err)
	}
	if err := os.WriteFile(big, make([]byte, 1<<20+1), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(empty, []byte("\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for file, want := range map[string]string{
		fifo:                         "the OAuth assertion_file: " + fifo + " is a named pipe (FIFO), not a regular file",
		"/dev/zero":                  "the OAuth assertion_file: /dev/zero is a device, not a regular file",
		big:                          "the OAuth assertion_file: " + big + " is 1048577 bytes, over the 1024 KiB",
		filepath.Join(dir, "absent"): "the OAuth assertion_file: no such file or directory",
		empty:                        "OAuth (token request): the OAuth assertion_file " + empty + " is empty",
	} {
		began := time.Now()
		wantContains(t, s.readErr(t, workload(mcpauth.WorkloadIdentity{AssertionFile: file})), want)
		if d := time.Since(began); d > 5*time.Second {
			t.Errorf("%s took %s", file, d)
		}
	}
	if n := len(s.as.Requests()); n != 0 {
		t.Errorf("%d token requests, want none", n)
	}
}

// A workload's token the authorization server refuses ends the read at once,
// naming the OAuth error and what to check: one token request, the same
// grant (no retry, no other grant), whatever the refusal.
func TestFetchToolSpecOAuth_workloadTokenRefusedOnce(t *testing.T) {
	for _, tc := range []struct {
		name   string
		token  func(s oauthSetup, ci *livedoctest.Issuer) string
		scopes func([]string) []string
		want   []string
	}{
		{"expired", func(s oauthSetup, ci *livedoctest.Issuer) string {
			return ci.WorkloadToken(t, s.as.Issuer, -time.Minute)
		}, nil, []string{`OAuth error "invalid_grant"`, "the authorization server refused the workload's token: check " +
			"assertion: it must be unexpired, issued for the audience "}},
		{"wrong audience", func(_ oauthSetup, ci *livedoctest.Issuer) string {
			return ci.WorkloadToken(t, "https://wrong.example", time.Hour)
		}, nil, []string{`OAuth error "invalid_grant"`, "issued for the audience "}},
		{"another issuer", func(s oauthSetup, _ *livedoctest.Issuer) string {
			return livedoctest.NewIssuer(t, "https://rogue.example").WorkloadToken(t, s.as.Issuer, time.Hour)
		}, nil, []string{`OAuth error "invalid_grant"`, "by an issuer the server trusts for this workload"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, ci := workloadSetup(t, tc.scopes)
			token := tc.token(s, ci)
			msg := s.readErr(t, workload(mcpauth.WorkloadIdentity{Assertion: token}))
			wantContains(t, msg, append([]string{"OAuth (token request): the token endpoint " + s.as.Issuer + "/token answered 400 Bad Request"}, tc.want...)...)
			if strings.Contains(msg, token) || strings.Contains(msg, token[strings.LastIndexByte(token, '.')+1:]) {
				t.Errorf("the message shows the token: %s", msg)
			}
			reqs := s.as.Requests()
			if len(reqs) != 1 || reqs[0].GrantType != livedoctest.GrantJWTBearer {
				t.Errorf("token requests %+v, want one jwt-bearer grant", reqs)
			}
		})
	}
}

// The other refusals of SEP-1933's servers: a scope not granted, a workload
// not allowed; each once, naming the error.
func TestFetchToolSpecOAuth_workloadRefusalsNamed(t *testing.T) {
	for code, want := range map[string]string{
		"invalid_scope":       "check scopes: the authorization server does not grant the client these scopes",
		"unauthorized_client": "the authorization server does not let this workload use the jwt-bearer grant",
	} {
		t.Run(code, func(t *testing.T) {
			ci := livedoctest.NewIssuer(t, "https://token.actions.example")
			s := newOAuthSetup(t, livedoctest.AuthServerConfig{Grants: []string{livedoctest.GrantJWTBearer},
				Methods: []string{livedoctest.MethodNone}, CheckAssertion: func(*livedoctest.AuthServer, string, *livedoctest.TokenRequest) (string, string) {
					return code, "refused for the test"
				}}, livedoctest.ProtectedOptions{})
			msg := s.readErr(t, workload(mcpauth.WorkloadIdentity{Assertion: ci.WorkloadToken(t, s.as.Issuer, time.Hour)}))
			wantContains(t, msg, `OAuth error "`+code+`": "refused for the test"; `+want)
			if n := len(s.as.Requests()); n != 1 {
				t.Errorf("%d token requests, want 1", n)
			}
		})
	}
}

// The token goes only to an authorization server that takes it: one whose
// metadata lists its grants without jwt-bearer is refused before any token
// request.
func TestFetchToolSpecOAuth_workloadNotSentWhereNotTaken(t *testing.T) {
	ci := livedoctest.NewIssuer(t, "https://token.actions.example")
	s := secretSetup(t, livedoctest.SecretBasic)
	msg := s.readErr(t, workload(mcpauth.WorkloadIdentity{Assertion: ci.WorkloadToken(t, s.as.Issuer, time.Hour)}))
	wantContains(t, msg, "OAuth (authorization server metadata): the authorization server "+s.as.Issuer+
		" does not take the jwt-bearer grant (RFC 7523), which the client's assertion needs: its grant_types_supported are client_credentials")
	if n := len(s.as.Requests()); n != 0 {
		t.Errorf("%d token requests, want none", n)
	}
}

// Neither token, or both: refused before any request.
func TestFetchToolSpecOAuth_workloadNeedsOneToken(t *testing.T) {
	s, _ := workloadSetup(t, nil)
	for _, w := range []mcpauth.WorkloadIdentity{{}, {Assertion: "eyJ.a.b", AssertionFile: "/etc/hostname"}} {
		wantContains(t, s.readErr(t, workload(w)), "the OAuth workload identity needs exactly one of assertion and assertion_file")
	}
}

// enterpriseSetup is a protected MCP server whose authorization server takes
// the identity assertions of an enterprise's identity provider, from a
// client that authenticates with client_secret_basic (as SEP-990's suite
// asks).
func enterpriseSetup(t *testing.T) (oauthSetup, *livedoctest.IdentityProvider) {
	t.Helper()
	idp := livedoctest.NewIdentityProvider(t, "idp-client", testClientID)
	var resource string
	s := newOAuthSetup(t, livedoctest.AuthServerConfig{Secret: testSecret, Grants: []string{livedoctest.GrantJWTBearer},
		Methods: []string{livedoctest.SecretBasic}, CheckAssertion: func(a *livedoctest.AuthServer, assertion string, r *livedoctest.TokenRequest) (string, string) {
			return idp.TrustAssertions(resource)(a, assertion, r)
		}}, livedoctest.ProtectedOptions{})
	resource = s.mcp.URL
	return s, idp
}

func enterprise(idp *livedoctest.IdentityProvider, idToken string, tokenEndpoint bool) *mcpauth.Client {
	e := &mcpauth.EnterpriseManaged{Client: mcpauth.ClientCredentials{ClientID: testClientID, ClientSecret: testSecret},
		IdP: mcpauth.IdentityProvider{Issuer: idp.URL, ClientID: idp.ClientID, IDToken: idToken}}
	if tokenEndpoint {
		e.IdP.Issuer, e.IdP.TokenEndpoint = "", idp.URL+"/token"
	}
	return &mcpauth.Client{Grant: e}
}

// The ID token is exchanged at the identity provider (found by its issuer's
// metadata, or given) for an identity assertion for the authorization server
// and the MCP server, which the client presents there as a jwt-bearer grant,
// authenticated with client_secret_basic.
func TestFetchToolSpecOAuth_enterpriseManaged(t *testing.T) {
	s, idp := enterpriseSetup(t)
	idToken := idp.IDToken(t)
	s.readTools(t, enterprise(idp, idToken, false))
	s.readTools(t, enterprise(idp, idToken, true))
	for i, r := range s.wantGrants(t, 2, livedoctest.SecretBasic) {
		if r.GrantType != livedoctest.GrantJWTBearer || r.ClientID != testClientID {
			t.Errorf("token request %d: grant %q by %q, want jwt-bearer by %s", i, r.GrantType, r.ClientID, testClientID)
		}
	}
	exchanges := idp.Exchanges()
	if len(exchanges) != 2 {
		t.Fatalf("%d token exchanges, want 2", len(exchanges))
	}
	for k, want := range map[string]string{"grant_type": livedoctest.GrantTokenExchange, "subject_token": idToken,
		"subject_token_type": livedoctest.TokenTypeIDToken, "requested_token_type": livedoctest.TokenTypeIDJAG,
		"audience": s.as.Issuer, "resource": s.mcp.URL, "client_id": idp.ClientID, "scope": "tools.read"} {
		if got := exchanges[0].Get(k); got != want {
			t.Errorf("the token exchange's %s is %q, want %q", k, got, want)
		}
	}
}

// An ID token the identity provider refuses ends the read naming the
// identity provider's endpoint and the OAuth error; the authorization server
// is never asked.
func TestFetchToolSpecOAuth_enterpriseIDTokenRefused(t *testing.T) {
	s, idp := enterpriseSetup(t)
	other := livedoctest.NewIdentityProvider(t, idp.ClientID, testClientID) // its ID token, not idp's
	idToken := other.IDToken(t)
	msg := s.readErr(t, enterprise(idp, idToken, false))
	wantContains(t, msg, "OAuth (token exchange): the identity provider's token endpoint "+idp.URL+"/token answered 400 Bad Request "+
		`with OAuth error "invalid_grant"`, "the identity provider refused the ID token: give a fresh id_token")
	if strings.Contains(msg, idToken) {
		t.Errorf("the message shows the ID token: %s", msg)
	}
	if n := len(s.as.Requests()); n != 0 {
		t.Errorf("%d token requests at the authorization server, want none", n)
	}
}

// An authorization server that echoes the identity assertion and the
// client's Basic credentials: neither shows.
func TestFetchToolSpecOAuth_enterpriseAssertionBlanked(t *testing.T) {
	idp := livedoctest.NewIdentityProvider(t, "idp-client", testClientID)
	s := newOAuthSetup(t, livedoctest.AuthServerConfig{Secret: testSecret, Grants: []string{livedoctest.GrantJWTBearer},
		Methods: []string{livedoctest.SecretBasic}, CheckAssertion: func(_ *livedoctest.AuthServer, assertion string, _ *livedoctest.TokenRequest) (string, string) {
			return "invalid_grant", "no thanks: " + assertion
		}}, livedoctest.ProtectedOptions{})
	msg := s.readErr(t, enterprise(idp, idp.IDToken(t), false))
	wantContains(t, msg, `OAuth error "invalid_grant": "no thanks: (the identity assertion (ID-JAG))"`,
		"the authorization server refused the identity assertion the identity provider issued")
	if strings.Contains(msg, "eyJ") {
		t.Errorf("the message shows a token: %s", msg)
	}
}

// A client pinned to an issuer uses that authorization server among those
// the metadata names, and refuses a server that names none such before
// sending anything.
func TestFetchToolSpecOAuth_issuerPinned(t *testing.T) {
	rogue := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: testClientID, Secret: testSecret,
		Methods: []string{livedoctest.SecretBasic}})
	s := newOAuthSetupWith(t, livedoctest.AuthServerConfig{Secret: testSecret, Methods: []string{livedoctest.SecretBasic}},
		func(as *livedoctest.AuthServer) livedoctest.ProtectedOptions {
			return livedoctest.ProtectedOptions{Metadata: func(m *oauthex.ProtectedResourceMetadata) {
				m.AuthorizationServers = []string{rogue.Issuer, as.Issuer}
			}}
		})
	pinned := withSecret()
	pinned.Issuer = s.as.Issuer + "/"
	s.readTools(t, pinned)
	s.wantGrants(t, 1, livedoctest.SecretBasic)

	pinned.Issuer = "https://as.example.com"
	msg := s.readErr(t, pinned)
	wantContains(t, msg, "OAuth (protected resource metadata): the MCP server "+s.mcp.URL+" names the authorization server "+
		rogue.Issuer+", "+s.as.Issuer+", not https://as.example.com, the issuer the client is pinned to: refused before any credential was sent")
	if n, m := len(rogue.Requests()), len(s.as.Requests()); n != 0 || m != 1 {
		t.Errorf("token requests: %d at the rogue server, %d at the pinned one; want 0 and 1", n, m)
	}
}
