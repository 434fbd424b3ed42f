package provider

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
)

// workloadServer is a protected MCP server whose authorization server takes
// the workload tokens of ci as jwt-bearer grants, without client
// authentication (SEP-1933).
func workloadServer(t *testing.T, ci *livedoctest.Issuer, tools ...string) (*livedoctest.AuthServer, string) {
	t.Helper()
	as := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{Grants: []string{livedoctest.GrantJWTBearer},
		Methods: []string{livedoctest.MethodNone}, CheckAssertion: ci.TrustWorkloads})
	return as, livedoctest.ServeProtectedMCP(t, livedoctest.NewMCPServer(0, livedoctest.NamedTools(tools...)...), as,
		livedoctest.ProtectedOptions{}).URL
}

// A CI job reads protected servers with its workload's token, given from a
// variable and as a file the runner writes, through the provider's clients
// and inline: no client secret anywhere.
func TestAccMcpToolSpecDataSource_workloadIdentity(t *testing.T) {
	ci := livedoctest.NewIssuer(t, "https://token.actions.example")
	as, url := workloadServer(t, ci, "forecast")
	file := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(file, []byte(ci.WorkloadToken(t, as.Issuer, time.Hour)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("TF_VAR_workload_token", ci.WorkloadToken(t, as.Issuer, time.Hour))
	config := "variable \"workload_token\" {\n  type      = string\n  sensitive = true\n}\n" +
		oauthClientsProvider(fmt.Sprintf(`    ci      = { assertion = var.workload_token }
    rotated = { assertion_file = %q, client_id = "fleet-drift" }`, file)) +
		toolDS("named", fmt.Sprintf("url = %q\noauth_client = \"ci\"", url)) +
		toolDS("file", fmt.Sprintf("url = %q\noauth_client = \"rotated\"", url)) +
		toolDS("inline", fmt.Sprintf("url = %q\noauth = { assertion_file = %q }", url, file))
	resource.Test(t, resource.TestCase{ // not parallel: it sets the environment
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				toolValue("named", "tool_names", resStrings("forecast")),
				toolValue("file", "tool_names", resStrings("forecast")),
				toolValue("inline", "tool_names", resStrings("forecast")),
			},
		}},
	})
	clients := map[string]bool{}
	for _, r := range as.Requests() {
		if r.GrantType != livedoctest.GrantJWTBearer || r.Method != livedoctest.MethodNone || r.Refused != "" {
			t.Errorf("a token request: grant %q, authentication %q, refused %q; want a jwt-bearer grant, none, granted",
				r.GrantType, r.Method, r.Refused)
		}
		clients[r.ClientID] = true
	}
	if !clients[""] || !clients["fleet-drift"] {
		t.Errorf("the token requests came from the clients %v, want the unnamed workload and fleet-drift", clients)
	}
}

// An enterprise user's ID token, exchanged at the identity provider, reads a
// protected server; the provider's client holds it.
func TestAccMcpToolSpecDataSource_enterpriseManaged(t *testing.T) {
	const secret = "enterprise-client-secret-0123"
	idp := livedoctest.NewIdentityProvider(t, "idp-client", oauthClientID)
	var resourceURL string
	as := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: oauthClientID, Secret: secret,
		Grants: []string{livedoctest.GrantJWTBearer}, Methods: []string{livedoctest.SecretBasic},
		CheckAssertion: func(a *livedoctest.AuthServer, assertion string, r *livedoctest.TokenRequest) (string, string) {
			return idp.TrustAssertions(resourceURL)(a, assertion, r)
		}})
	resourceURL = livedoctest.ServeProtectedMCP(t, livedoctest.NewMCPServer(0, livedoctest.NamedTools("ledger")...), as,
		livedoctest.ProtectedOptions{}).URL
	t.Setenv("TF_VAR_client_secret", secret)
	t.Setenv("TF_VAR_id_token", idp.IDToken(t))
	config := "variable \"client_secret\" {\n  type      = string\n  sensitive = true\n}\n" +
		"variable \"id_token\" {\n  type      = string\n  sensitive = true\n}\n" +
		oauthClientsProvider(fmt.Sprintf(`    sso = {
      client_id         = %q
      client_secret     = var.client_secret
      identity_provider = { issuer = %q, client_id = "idp-client", id_token = var.id_token }
    }`, oauthClientID, idp.URL)) +
		toolDS("ledger", fmt.Sprintf("url = %q\noauth_client = \"sso\"", resourceURL))
	resource.Test(t, resource.TestCase{ // not parallel: it sets the environment
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config:            config,
			ConfigStateChecks: []statecheck.StateCheck{toolValue("ledger", "tool_names", resStrings("ledger"))},
		}},
	})
	if len(idp.Exchanges()) == 0 || len(as.Requests()) == 0 || as.Requests()[0].Method != livedoctest.SecretBasic {
		t.Errorf("%d token exchanges at the identity provider, token requests %+v; want an exchange, then a grant "+
			"authenticated with client_secret_basic", len(idp.Exchanges()), as.Requests())
	}
}

// What the credentials may combine is checked at plan, before any request;
// a workload token the authorization server refuses fails the plan naming
// the OAuth error, after one token request.
func TestAccMcpToolSpecDataSource_grantRefusals(t *testing.T) {
	ci := livedoctest.NewIssuer(t, "https://token.actions.example")
	as, url := workloadServer(t, ci, "a")
	expired := ci.WorkloadToken(t, as.Issuer, -time.Minute)
	idp := `identity_provider = { issuer = "https://idp.example", client_id = "c", id_token = "eyJ.x.y" }`
	step := func(provider, body string, want ...string) resource.TestStep {
		return resource.TestStep{Config: provider + toolDS("x", fmt.Sprintf("url = %q\n", url)+body), ExpectError: relWords(want...)}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			step(oauthClientsProvider(fmt.Sprintf("    ci = { assertion = %q }", expired)), `oauth_client = "ci"`,
				"Cannot Read MCP Tool List", "OAuth (token request): the token endpoint "+as.Issuer+"/token answered 400 Bad Request",
				`OAuth error "invalid_grant"`, "the authorization server refused the workload's token"),
			step("", `oauth = { client_secret = "x-secret-1" }`, "Invalid Attribute Combination", "client_id"),
			step("", `oauth = { private_key = "k" }`, "Invalid Attribute Combination", "client_id"),
			step("", "oauth = { "+idp+" }", "Invalid Attribute Combination", "client_id"),
			step("", `oauth = { client_id = "a", client_secret = "x-secret-1", assertion = "eyJ.x.y" }`, "Invalid Attribute Combination"),
			step("", `oauth = { assertion = "eyJ.x.y", assertion_file = "/tmp/t" }`, "Invalid Attribute Combination"),
			step("", `oauth = { client_id = "a", assertion = "eyJ.x.y", `+idp+` }`, "Invalid Attribute Combination"),
			step("", `oauth = { client_id = "a" }`, "Invalid Attribute Combination", "client_secret", "assertion_file", "identity_provider"),
			step("", `oauth = { client_id = "a", identity_provider = { client_id = "c", id_token = "eyJ.x.y" } }`,
				"Invalid Attribute Combination", "issuer", "token_endpoint"),
			step(oauthClientsProvider(`    ci = { assertion = "eyJ.x.y", issuer = "http://as.example.com" }`), `oauth_client = "ci"`,
				"Invalid OAuth Endpoint", `mcp_oauth_clients["ci"].issuer is plain http`),
			step("", `oauth = { client_id = "a", `+idp[:len(idp)-2]+`, token_endpoint = "ftp://idp.example/token" } }`,
				"Invalid OAuth Endpoint", "oauth.identity_provider.token_endpoint is not an https URL"),
		},
	})
	if n := len(as.Requests()); n != 1 {
		t.Errorf("%d token requests, want 1 (the expired token, refused once)", n)
	}
}
