package e2e

// A provider-level OAuth client (mcp_oauth_clients) fed by ephemeral
// variables keeps its credentials nowhere Terraform writes: a plan saved with
// -out, applied later (the variables given again, as Terraform requires),
// reads four protected MCP servers (three at plan, by a client secret, a
// workload's token and an enterprise user's ID token; one at apply, by a
// private key) and registers one of them; the client secret, every line of
// the private key, the workload's token, the ID token, the identity
// assertion, the tokens and the client assertions are then looked for in the
// state, in every member of the plan file, in `show -json` of both, and in the
// TF_LOG=trace output of the plan, the apply and a failed plan.

import (
	"archive/zip"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// providerClientConfig reads weatherURL, workloadURL and ssoURL at plan and
// deployURL at apply (its read waits for a resource created at apply), each
// through a client of the provider block whose credentials come from
// ephemeral variables.
func providerClientConfig(registryURL, weatherURL, deployURL, workloadURL, ssoURL, idpURL string) string {
	return fmt.Sprintf(`terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry" }
  }
}

variable "client_secret" {
  type      = string
  ephemeral = true
}

variable "private_key" {
  type      = string
  ephemeral = true
}

variable "workload_token" {
  type      = string
  ephemeral = true
}

variable "id_token" {
  type      = string
  ephemeral = true
}

provider "agentregistry" {
  endpoint = %q
  project  = "test-project"
  mcp_oauth_clients = {
    weather  = { client_id = %q, client_secret = var.client_secret }
    deploy   = { client_id = %[2]q, private_key = var.private_key }
    workload = { assertion = var.workload_token }
    sso = {
      client_id         = %[2]q
      client_secret     = var.client_secret
      identity_provider = { issuer = %[7]q, client_id = "idp-client", id_token = var.id_token }
    }
  }
}

data "agentregistry_mcp_tool_spec" "workload" {
  url          = %[5]q
  oauth_client = "workload"
}

data "agentregistry_mcp_tool_spec" "sso" {
  url          = %[6]q
  oauth_client = "sso"
}

data "agentregistry_mcp_tool_spec" "weather" {
  url          = %[3]q
  oauth_client = "weather"
}

resource "agentregistry_mcp_server" "weather" {
  service_id = "weather-mcp"
  interfaces = [{ url = %[3]q, protocol_binding = "JSONRPC" }]
  tool_spec  = data.agentregistry_mcp_tool_spec.weather.json
}

# Read at apply: it waits for the registration.
data "agentregistry_mcp_tool_spec" "deploy" {
  url          = %[4]q
  oauth_client = "deploy"
  depends_on   = [agentregistry_mcp_server.weather]
}

output "tools" {
  value = concat(agentregistry_mcp_server.weather.tool_names, data.agentregistry_mcp_tool_spec.deploy.tool_names,
  data.agentregistry_mcp_tool_spec.workload.tool_names, data.agentregistry_mcp_tool_spec.sso.tool_names)
}
`, registryURL, leakClientID, weatherURL, deployURL, workloadURL, ssoURL, idpURL)
}

func TestAccMcpToolSpecOAuth_providerClientKeepsNothing(t *testing.T) {
	cli := testkit.CLIFromEnv(t)
	cli.SkipUnless(t, "ephemeral variables", "1.10.0", "1.11.0")
	key, keyPEM := livedoctest.NewECKey(t)
	bySecret := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: leakClientID, Secret: leakSecret,
		Methods: []string{livedoctest.SecretBasic}})
	byKey := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: leakClientID, PublicKey: key.Public(),
		Methods: []string{livedoctest.PrivateKeyJWT}})
	serve := func(as *livedoctest.AuthServer, name string) string {
		return livedoctest.ServeProtectedMCP(t, livedoctest.NewMCPServer(0, livedoctest.NamedTools(name)...), as, livedoctest.ProtectedOptions{}).URL
	}
	ci := livedoctest.NewIssuer(t, "https://token.actions.example")
	byWorkload := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{Grants: []string{livedoctest.GrantJWTBearer},
		Methods: []string{livedoctest.MethodNone}, CheckAssertion: ci.TrustWorkloads})
	idp := livedoctest.NewIdentityProvider(t, "idp-client", leakClientID)
	var ssoURL string
	bySSO := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: leakClientID, Secret: leakSecret,
		Grants: []string{livedoctest.GrantJWTBearer}, Methods: []string{livedoctest.SecretBasic},
		CheckAssertion: func(a *livedoctest.AuthServer, assertion string, r *livedoctest.TokenRequest) (string, string) {
			return idp.TrustAssertions(ssoURL)(a, assertion, r)
		}})
	ssoURL = serve(bySSO, "ledger")
	workloadToken, idToken := ci.WorkloadToken(t, byWorkload.Issuer, time.Hour), idp.IDToken(t)
	registry := testkit.StartRegistry(t, registryserver.Options{})
	h := devOverridesRun(t, cli)
	h.Dir = t.TempDir()
	h.Write(t, "main.tf", providerClientConfig(registry.URL, serve(bySecret, "forecast"), serve(byKey, "deploy"),
		serve(byWorkload, "build"), ssoURL, idp.URL))
	quiet := h.Env
	withSecrets := func(secret string) []string {
		return append(slices.Clone(quiet), "TF_VAR_client_secret="+secret, "TF_VAR_private_key="+keyPEM,
			"TF_VAR_workload_token="+workloadToken, "TF_VAR_id_token="+idToken, "TF_LOG=trace")
	}
	h.Env = withSecrets(leakSecret)
	shown := map[string]string{}
	shown["plan (trace)"] = h.MustRun(t, "plan", "-input=false", "-out=tfplan")
	if n := len(byKey.Requests()); len(bySecret.Requests()) == 0 || n != 0 {
		t.Fatalf("the plan should read the weather server (%d token requests) and not yet the deploy server (%d)",
			len(bySecret.Requests()), n)
	}
	shown["apply (trace)"] = h.MustRun(t, "apply", "-input=false", "tfplan")
	if !strings.Contains(shown["apply (trace)"], `"deploy"`) || !strings.Contains(shown["apply (trace)"], `"forecast"`) {
		t.Fatalf("the apply did not register the weather server nor read the deploy server:\n%s", tail(shown["apply (trace)"]))
	}
	show := &testkit.Harness{Bin: h.Bin, Dir: h.Dir, Env: quiet}
	shown["show -json tfplan"] = show.MustRun(t, "show", "-json", "tfplan")
	shown["show -json"] = show.MustRun(t, "show", "-json")
	shown["terraform.tfstate"] = show.ReadFile(t, "terraform.tfstate")
	if !strings.Contains(shown["terraform.tfstate"], `"oauth_client": "deploy"`) {
		t.Fatalf("the state does not hold the data sources read:\n%s", tail(shown["terraform.tfstate"]))
	}
	for name, content := range planMembers(t, filepath.Join(h.Dir, "tfplan")) {
		shown["tfplan: "+name] = content
	}
	h.Env = withSecrets("a-wrong-secret-5d0e7b")
	shown["failed plan (trace)"] = h.MustExit(t, 1, "plan", "-input=false")
	if !strings.Contains(shown["failed plan (trace)"], "invalid_client") {
		t.Fatalf("the failed plan does not say why:\n%s", tail(shown["failed plan (trace)"]))
	}

	if len(byWorkload.Requests()) == 0 || len(bySSO.Requests()) == 0 {
		t.Fatalf("the workload's and the enterprise user's servers were not read: %d and %d token requests",
			len(byWorkload.Requests()), len(bySSO.Requests()))
	}
	found := lookFor(t, keyPEM, map[string]string{"the workload's token": workloadToken, "the ID token": idToken},
		bySecret, byKey, byWorkload, bySSO)
	for where, text := range shown {
		for _, what := range found(text) {
			t.Errorf("%s holds %s", where, what)
		}
	}
}

// planMembers are the files of a saved plan (a zip archive), by name.
func planMembers(t *testing.T, planFile string) map[string]string {
	t.Helper()
	r, err := zip.OpenReader(planFile)
	if err != nil {
		t.Fatalf("the plan file is not a zip archive: %v", err)
	}
	defer func() { _ = r.Close() }()
	members := map[string]string{}
	for _, f := range r.File {
		rc, err := f.Open()
		if err != nil {
			t.Fatal(err)
		}
		b, err := io.ReadAll(io.LimitReader(rc, 64<<20))
		_ = rc.Close()
		if err != nil {
			t.Fatal(err)
		}
		members[f.Name] = string(b)
	}
	if _, ok := members["tfplan"]; !ok {
		t.Fatalf("the plan file has no tfplan member: %v", slices.Collect(maps.Keys(members)))
	}
	return members
}

// lookFor returns a finder of the credentials of the run: the client secrets
// (right and wrong), each line of the private key's PEM body, the JWTs given
// (by what they are: their signatures, without which they are of no use), and
// every token, client assertion and jwt-bearer grant the authorization
// servers saw. It finds each in clear
// and in the spellings redact knows (base64 in either alphabet, padded or
// not, alone or inside a longer encoded text such as a Basic authorization;
// URL-encoded; JSON-escaped; wrapped over lines), and in hex.
func lookFor(t *testing.T, keyPEM string, jwts map[string]string, servers ...*livedoctest.AuthServer) func(string) []string {
	t.Helper()
	secrets := &redact.Secrets{}
	values := map[string]string{"the client secret": leakSecret, "the wrong secret": "a-wrong-secret-5d0e7b"}
	for what, jwt := range jwts {
		values[what] = signature(jwt)
	}
	for i, line := range pemBodyLines(keyPEM) {
		values[fmt.Sprintf("line %d of the private key", i+1)] = line
	}
	tokens := 0
	for _, as := range servers {
		for i, r := range as.Requests() {
			if r.Token != "" {
				values[fmt.Sprintf("token %d of %s", i+1, as.Issuer)] = r.Token
				tokens++
			}
			if r.Assertion != "" {
				values[fmt.Sprintf("assertion %d of %s", i+1, as.Issuer)] = signature(r.Assertion)
			}
			if r.Grant != "" {
				values[fmt.Sprintf("jwt-bearer grant %d of %s", i+1, as.Issuer)] = signature(r.Grant)
			}
		}
	}
	if tokens < 2 {
		t.Fatalf("%d tokens issued: the reads did not happen", tokens)
	}
	var labels []string
	for what, v := range values {
		secrets.Add(what, v)
		secrets.Add(what+" in hex", hex.EncodeToString([]byte(v)))
		secrets.Add(what+" in hex", strings.ToUpper(hex.EncodeToString([]byte(v))))
		labels = append(labels, what, what+" in hex")
	}
	return func(text string) []string {
		blanked := secrets.Blank(text)
		if blanked == text {
			return nil
		}
		var what []string
		for _, label := range labels {
			if strings.Contains(blanked, "("+label+")") {
				what = append(what, label)
			}
		}
		return what
	}
}

// signature is the signature of a JWT, its last part.
func signature(jwt string) string { return jwt[strings.LastIndexByte(jwt, '.')+1:] }
