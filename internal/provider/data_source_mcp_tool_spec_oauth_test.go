package provider

import (
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-jose/go-jose/v4"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/modelcontextprotocol/go-sdk/oauthex"

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
	// The configured server redirects to another origin whose 401 names its
	// own metadata (claiming the configured URL) and authorization server.
	configured := httptest.NewServer(nil)
	t.Cleanup(configured.Close)
	rogueAS := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: oauthClientID, Secret: "the-right-secret-0123",
		Methods: []string{livedoctest.SecretBasic}})
	rogue := livedoctest.ServeProtectedMCP(t, livedoctest.NewMCPServer(0, livedoctest.NamedTools("a")...), rogueAS,
		livedoctest.ProtectedOptions{Metadata: func(m *oauthex.ProtectedResourceMetadata) { m.Resource = configured.URL + "/mcp" }})
	configured.Config.Handler = http.RedirectHandler(rogue.URL, http.StatusTemporaryRedirect)
	step := func(body string, want ...string) resource.TestStep {
		return resource.TestStep{Config: toolDS("x", body), ExpectError: relWords(want...)}
	}
	url := fmt.Sprintf("url = %q\n", p.URL)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			step(fmt.Sprintf("url = %q\noauth = { client_id = %q, client_secret = \"the-right-secret-0123\" }", configured.URL+"/mcp",
				oauthClientID), "Cannot Read MCP Tool List", "refusing a redirect to another origin with oauth",
				strings.TrimPrefix(configured.URL, "http://"), strings.TrimPrefix(rogue.Server.URL, "http://")),
			step("url = \"http://mcp.example.com/mcp\"\noauth = { client_id = \"a\", client_secret = \"x-secret-1\" }",
				"OAuth Needs HTTPS", "oauth needs an https url", "http://mcp.example.com/mcp is plain http"),
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
	if n := len(rogueAS.Requests()); n != 0 {
		t.Errorf("the other origin's authorization server received %d token requests, want 0", n)
	}
}

// A server whose 401 announces OAuth, read without oauth: the error says
// that it asks for OAuth and shows the block to add.
func TestAccMcpToolSpecDataSource_serverAsksForOAuth(t *testing.T) {
	as := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: oauthClientID, Secret: "the-right-secret-0123",
		Methods: []string{livedoctest.SecretBasic}})
	p := livedoctest.ServeProtectedMCP(t, livedoctest.NewMCPServer(0, livedoctest.NamedTools("a")...), as, livedoctest.ProtectedOptions{})
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: toolDS("x", fmt.Sprintf("url = %q", p.URL)),
			ExpectError: relWords("Cannot Read MCP Tool List", "the MCP server "+p.URL+" asks for OAuth", "answered 401 Unauthorized",
				p.MetadataURL, "mcp_oauth_clients = {", "client_id", "client_secret", `oauth_client = "mcp"`),
		}},
	})
}

// The https rule of oauth is checked once url is known: an unknown url (from
// a resource not yet created) passes validation, to be checked again later.
func TestOAuthConfigValidator_httpsOnceKnown(t *testing.T) {
	ctx := context.Background()
	var sr datasource.SchemaResponse
	NewMcpToolSpecDataSource().Schema(ctx, datasource.SchemaRequest{}, &sr)
	typ, ok := sr.Schema.Type().TerraformType(ctx).(tftypes.Object)
	oauthType, ok2 := typ.AttributeTypes["oauth"].(tftypes.Object)
	if !ok || !ok2 {
		t.Fatalf("the schema's type is %T, its oauth %T", sr.Schema.Type().TerraformType(ctx), typ.AttributeTypes["oauth"])
	}
	oauth := map[string]tftypes.Value{}
	for name, at := range oauthType.AttributeTypes {
		oauth[name] = tftypes.NewValue(at, nil)
	}
	oauth["client_id"] = tftypes.NewValue(tftypes.String, "a")
	oauth["client_secret"] = tftypes.NewValue(tftypes.String, "x-secret-1")
	for _, tc := range []struct {
		url  tftypes.Value
		want string
	}{
		{tftypes.NewValue(tftypes.String, tftypes.UnknownValue), ""},
		{tftypes.NewValue(tftypes.String, "http://127.0.0.1:8080/mcp"), ""},
		{tftypes.NewValue(tftypes.String, "https://mcp.example.com/mcp"), ""},
		{tftypes.NewValue(tftypes.String, "http://mcp.example.com/mcp"), "OAuth Needs HTTPS"},
	} {
		vals := map[string]tftypes.Value{}
		for name, at := range typ.AttributeTypes {
			vals[name] = tftypes.NewValue(at, nil)
		}
		vals["url"], vals["oauth"] = tc.url, tftypes.NewValue(oauthType, oauth)
		var resp datasource.ValidateConfigResponse
		oauthConfigValidator{}.ValidateDataSource(ctx, datasource.ValidateConfigRequest{
			Config: tfsdk.Config{Schema: sr.Schema, Raw: tftypes.NewValue(typ, vals)}}, &resp)
		got := firstError(resp.Diagnostics)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("url %s: error %q, want %q", tc.url, got, tc.want)
		}
	}
}
