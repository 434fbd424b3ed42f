package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
)

// oauthClientsProvider is a provider block whose mcp_oauth_clients hold
// clients (HCL of the map's entries).
func oauthClientsProvider(clients string) string {
	return "provider \"agentregistry\" {\n  mcp_oauth_clients = {\n" + clients + "\n  }\n}\n"
}

// Data sources read protected servers with the provider's clients, named by
// oauth_client (one client serving two of them), with a secret and with a
// private key; the state holds the name, never the credentials.
func TestAccMcpToolSpecDataSource_oauthClient(t *testing.T) {
	const secret = "weather-client-secret-0123456789"
	ec, ecPEM := livedoctest.NewECKey(t)
	t.Setenv("TF_VAR_client_secret", secret)
	t.Setenv("TF_VAR_private_key", ecPEM)
	withSecret := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: oauthClientID, Secret: secret,
		Methods: []string{livedoctest.SecretBasic}})
	withKey := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: oauthClientID, PublicKey: ec.Public(),
		Methods: []string{livedoctest.PrivateKeyJWT}})
	serve := func(as *livedoctest.AuthServer, names ...string) string {
		return livedoctest.ServeProtectedMCP(t, livedoctest.NewMCPServer(1, livedoctest.NamedTools(names...)...), as,
			livedoctest.ProtectedOptions{}).URL
	}
	config := oauthVariables + oauthClientsProvider(fmt.Sprintf(`    weather = {
      client_id     = %q
      client_secret = var.client_secret
      scopes        = ["tools.read"]
    }
    deploy-key = { client_id = %[1]q, private_key = var.private_key }`, oauthClientID)) +
		toolDS("weather", fmt.Sprintf("url = %q\noauth_client = \"weather\"", serve(withSecret, "forecast", "alerts"))) +
		toolDS("radar", fmt.Sprintf("url = %q\noauth_client = \"weather\"", serve(withSecret, "radar"))) +
		toolDS("deploy", fmt.Sprintf("url = %q\noauth_client = \"deploy-key\"", serve(withKey, "deploy")))
	resource.Test(t, resource.TestCase{ // not parallel: it sets the environment
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				toolValue("weather", "tool_names", resStrings("alerts", "forecast")),
				toolValue("radar", "tool_names", resStrings("radar")),
				toolValue("deploy", "tool_names", resStrings("deploy")),
				toolValue("deploy", "oauth_client", knownvalue.StringExact("deploy-key")),
				statecheck.ExpectKnownValue("data.agentregistry_mcp_tool_spec.weather", tfjsonpath.New("oauth"), knownvalue.Null()),
			},
		}},
	})
	if n := len(withSecret.Requests()); n < 2 {
		t.Errorf("the weather client's authorization server issued %d tokens, want one per read", n)
	}
	for _, r := range withSecret.Requests() {
		if r.Method != livedoctest.SecretBasic || len(r.Scopes) != 1 || r.Scopes[0] != "tools.read" {
			t.Errorf("a token request of the weather client: method %s, scopes %v; want %s and the client's scopes",
				r.Method, r.Scopes, livedoctest.SecretBasic)
		}
	}
	if n := len(withKey.Requests()); n == 0 {
		t.Error("the deploy client's authorization server issued no token")
	}
}

func TestAccMcpToolSpecDataSource_oauthClientRefusals(t *testing.T) {
	as := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: oauthClientID, Secret: "the-right-secret-0123",
		Methods: []string{livedoctest.SecretBasic}})
	p := livedoctest.ServeProtectedMCP(t, livedoctest.NewMCPServer(0, livedoctest.NamedTools("a")...), as, livedoctest.ProtectedOptions{})
	url := fmt.Sprintf("url = %q\n", p.URL)
	clients := oauthClientsProvider(`    weather = { client_id = "ci-drift-job", client_secret = "a-wrong-secret-0123" }
    deploy  = { client_id = "ci-drift-job", client_secret = "x-secret-1" }`)
	step := func(provider, body string, want ...string) resource.TestStep {
		return resource.TestStep{Config: provider + toolDS("x", body), ExpectError: relWords(want...)}
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			step(clients, url+`oauth_client = "weather"`, "Cannot Read MCP Tool List",
				"OAuth (token request): the token endpoint "+as.Issuer+"/token answered 401 Unauthorized",
				`OAuth error "invalid_client"`, "check client_id and client_secret"),
			step(clients, url+`oauth_client = "wether"`, "Unknown OAuth Client",
				`oauth_client = "wether" names no client of the provider's mcp_oauth_clients, which has "deploy", "weather".`),
			step("", url+`oauth_client = "weather"`, "Unknown OAuth Client", "mcp_oauth_clients, which has none."),
			step(`resource "terraform_data" "secret" { input = "x-secret-1" }
`+oauthClientsProvider(`    weather = { client_id = "a", client_secret = terraform_data.secret.output }`),
				url+`oauth_client = "weather"`, "OAuth Client Not Known Yet", `mcp_oauth_clients["weather"] depends on a value`),
			step(clients, url+`oauth_client = "two words"`, "must be a client name"),
			step(clients, url+"oauth_client = \"weather\"\noauth = { client_id = \"a\", client_secret = \"x-secret-1\" }",
				"Invalid Attribute Combination", "oauth_client"),
			step(clients, "command = [\"true\"]\noauth_client = \"weather\"", "Invalid Attribute Combination", "oauth_client"),
			step(clients, url+"transport = \"sse\"\noauth_client = \"weather\"", "OAuth Needs Streamable HTTP",
				`transport = "sse" with oauth_client`),
			step(clients, url+"headers = { Authorization = \"Bearer t\" }\noauth_client = \"weather\"", "Conflicting Authorization",
				`headers sets "Authorization" while oauth_client is set`),
			step(oauthClientsProvider(`    weather = { client_id = "a" }`), url+`oauth_client = "weather"`,
				"Invalid Attribute Combination", "client_secret", "private_key"),
			step(oauthClientsProvider(`    weather = { client_id = "a", client_secret = "x-secret-1", private_key = "k" }`),
				url+`oauth_client = "weather"`, "Invalid Attribute Combination"),
			step(oauthClientsProvider(`    weather = { client_id = "a", private_key = "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49\n-----END PRIVATE KEY-----\n" }`),
				url+`oauth_client = "weather"`, "Invalid Private Key", `mcp_oauth_clients["weather"].private_key cannot sign a client assertion`),
			step(oauthClientsProvider(`    "1st" = { client_id = "a", client_secret = "x-secret-1" }`), url+`oauth_client = "weather"`,
				"must be a client name"),
			step(oauthClientsProvider(`    weather = { client_id = "a", client_secret = "x-secret-1", scopes = ["two words"] }`),
				url+`oauth_client = "weather"`, "must be a scope"),
		},
	})
}
