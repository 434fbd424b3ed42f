package provider

import (
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/go-jose/go-jose/v4"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
)

const oauthClientID = "ci-drift-job"

// oauthVariables declares the credentials as a real configuration does:
// sensitive variables (TF_VAR_ in CI).
const oauthVariables = `
variable "client_secret" {
  type      = string
  sensitive = true
}
variable "private_key" {
  type      = string
  sensitive = true
}
`

// A plan reads the tools of protected servers (the Go SDK's) with a client
// secret and with private keys (PEM and JWK), through the CLI.
func TestAccMcpToolSpecDataSource_oauth(t *testing.T) {
	const secret = "weather-client-secret-0123456789"
	ec, ecPEM := livedoctest.NewECKey(t)
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	edJWK, err := json.Marshal(jose.JSONWebKey{Key: ed, KeyID: "ed-1"})
	if err != nil {
		t.Fatal(err)
	}
	t.Setenv("TF_VAR_client_secret", secret)
	t.Setenv("TF_VAR_private_key", ecPEM)
	withSecret := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: oauthClientID, Secret: secret,
		Methods: []string{livedoctest.SecretPost}})
	withKey := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: oauthClientID, PublicKey: ec.Public(),
		Methods: []string{livedoctest.PrivateKeyJWT}})
	withJWK := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: oauthClientID, PublicKey: ed.Public(),
		Methods: []string{livedoctest.PrivateKeyJWT}})
	serve := func(as *livedoctest.AuthServer, names ...string) string {
		return livedoctest.ServeProtectedMCP(t, livedoctest.NewMCPServer(1, livedoctest.NamedTools(names...)...), as,
			livedoctest.ProtectedOptions{}).URL
	}
	config := oauthVariables + toolDS("secret", fmt.Sprintf(`url = %q
oauth = {
  client_id     = %q
  client_secret = var.client_secret
  scopes        = ["tools.read"]
}`, serve(withSecret, "forecast", "alerts"), oauthClientID)) + toolDS("key", fmt.Sprintf(`url = %q
oauth = {
  client_id   = %q
  private_key = var.private_key
}`, serve(withKey, "deploy"), oauthClientID)) + toolDS("jwk", fmt.Sprintf(`url = %q
oauth = {
  client_id   = %q
  private_key = %q
  audience    = "https://api.example.com"
}`, serve(withJWK, "search"), oauthClientID, edJWK))
	resource.Test(t, resource.TestCase{ // not parallel: it sets the environment
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				toolValue("secret", "tool_names", resStrings("alerts", "forecast")), // the SDK lists tools by name
				toolValue("key", "tool_names", resStrings("deploy")),
				toolValue("jwk", "tool_names", resStrings("search")),
				statecheck.ExpectKnownValue("data.agentregistry_mcp_tool_spec.secret", tfjsonpath.New("oauth").AtMapKey("client_id"),
					knownvalue.StringExact(oauthClientID)),
			},
		}},
	})
	for _, as := range []*livedoctest.AuthServer{withSecret, withKey, withJWK} {
		if n := len(as.Requests()); n == 0 {
			t.Errorf("the authorization server %s issued no token", as.Issuer)
		}
	}
}

func TestAccMcpToolSpecDataSource_oauthRefusals(t *testing.T) {
	as := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: oauthClientID, Secret: "the-right-secret-0123",
		Methods: []string{livedoctest.SecretBasic}})
	p := livedoctest.ServeProtectedMCP(t, livedoctest.NewMCPServer(0, livedoctest.NamedTools("a")...), as, livedoctest.ProtectedOptions{})
	step := func(body string, want ...string) resource.TestStep {
		return resource.TestStep{Config: toolDS("x", body), ExpectError: relWords(want...)}
	}
	url := fmt.Sprintf("url = %q\n", p.URL)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			step(url+`oauth = { client_id = "ci-drift-job", client_secret = "a-wrong-secret-0123" }`, "Cannot Read MCP Tool List",
				"OAuth (token request): the token endpoint "+as.Issuer+"/token answered 401 Unauthorized",
				`OAuth error "invalid_client"`, "check client_id and client_secret"),
			step(url+`oauth = { client_id = "ci-drift-job" }`, "Invalid Attribute Combination", "client_secret", "private_key"),
			step(url+`oauth = { client_id = "ci-drift-job", client_secret = "x-secret-1", private_key = "k" }`,
				"Invalid Attribute Combination"),
			step(url+`oauth = { client_id = "", client_secret = "x-secret-1" }`, "client_id", "at least 1"),
			step(url+`oauth = { client_id = "a", private_key = "-----BEGIN PRIVATE KEY-----\nMIGHAgEAMBMGByqGSM49\n-----END PRIVATE KEY-----\n" }`,
				"Invalid Private Key", "oauth.private_key cannot sign a client assertion"),
			step(url+`oauth = { client_id = "a", client_secret = "x-secret-1", scopes = ["two words"] }`, "must be a scope"),
			step(url+"transport = \"sse\"\noauth = { client_id = \"a\", client_secret = \"x-secret-1\" }", "OAuth Needs Streamable HTTP"),
			step(url+"headers = { authorization = \"Bearer t\" }\noauth = { client_id = \"a\", client_secret = \"x-secret-1\" }",
				"Conflicting Authorization", `headers sets "authorization" while oauth is set`),
			step(`command = ["true"]
oauth = { client_id = "a", client_secret = "x-secret-1" }`, "Invalid Attribute Combination", "oauth"),
		},
	})
}
