package e2e

// The OAuth credentials of agentregistry_mcp_tool_spec and what they buy
// stay out of what Terraform shows and keeps: a plan, an apply and a failed
// plan with TF_LOG=trace, run by the CLI of the run with the provider built
// from the repository (its logs go to the CLI's trace as a user's would).
// The client secret and the private key are kept only as the arguments they
// are (a data source's arguments are in the state, and a plan file holds
// the variables); the assertion and the token are nowhere.

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

const (
	leakClientID = "ci-drift-job"
	leakSecret   = "drift-job-client-secret-8f3a91c2"
)

// leakConfig reads one server with the secret and one with the key, both
// from sensitive variables set by TF_VAR_, as the drift guide's CI job does.
func leakConfig(secretURL, keyURL string) string {
	return fmt.Sprintf(`terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry" }
  }
}

variable "client_secret" {
  type      = string
  sensitive = true
}

variable "private_key" {
  type      = string
  sensitive = true
}

data "agentregistry_mcp_tool_spec" "with_secret" {
  url   = %q
  oauth = { client_id = %q, client_secret = var.client_secret }
}

data "agentregistry_mcp_tool_spec" "with_key" {
  url   = %q
  oauth = { client_id = %[2]q, private_key = var.private_key }
}

output "tools" {
  value = concat(data.agentregistry_mcp_tool_spec.with_secret.tool_names, data.agentregistry_mcp_tool_spec.with_key.tool_names)
}
`, secretURL, leakClientID, keyURL)
}

func TestAccMcpToolSpecOAuth_secretsStayOut(t *testing.T) {
	cli := testkit.CLIFromEnv(t)
	key, keyPEM := livedoctest.NewECKey(t)
	bySecret := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: leakClientID, Secret: leakSecret,
		Methods: []string{livedoctest.SecretBasic}})
	byKey := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: leakClientID, PublicKey: key.Public(),
		Methods: []string{livedoctest.PrivateKeyJWT}})
	serve := func(as *livedoctest.AuthServer, name string) string {
		return livedoctest.ServeProtectedMCP(t, livedoctest.NewMCPServer(0, livedoctest.NamedTools(name)...), as, livedoctest.ProtectedOptions{}).URL
	}
	h := devOverridesRun(t, cli)
	h.Dir = t.TempDir()
	h.Write(t, "main.tf", leakConfig(serve(bySecret, "forecast"), serve(byKey, "deploy")))
	quiet := h.Env
	h.Env = append(slices.Clone(quiet), "TF_VAR_client_secret="+leakSecret, "TF_VAR_private_key="+keyPEM, "TF_LOG=trace")
	shown := map[string]string{}
	shown["plan (trace)"] = h.MustRun(t, "plan", "-input=false", "-out=tfplan")
	shown["apply (trace)"] = h.MustRun(t, "apply", "-input=false", "tfplan")
	if !strings.Contains(shown["apply (trace)"], `"deploy"`) || !strings.Contains(shown["apply (trace)"], `"forecast"`) {
		t.Fatalf("the apply did not read both servers' tools:\n%s", tail(shown["apply (trace)"]))
	}
	show := &testkit.Harness{Bin: h.Bin, Dir: h.Dir, Env: quiet}
	shown["show -json tfplan"] = withoutArguments(t, show.MustRun(t, "show", "-json", "tfplan"), 2)
	shown["show -json"] = withoutArguments(t, show.MustRun(t, "show", "-json"), 2)
	shown["terraform.tfstate"] = withoutArguments(t, show.ReadFile(t, "terraform.tfstate"), 2)
	// A failed read: the wrong secret, echoed by nothing but still tried.
	h.Env = append(slices.Clone(quiet), "TF_VAR_client_secret=a-wrong-secret-5d0e7b", "TF_VAR_private_key="+keyPEM, "TF_LOG=trace")
	shown["failed plan (trace)"] = h.MustExit(t, 1, "plan", "-input=false")
	if !strings.Contains(shown["failed plan (trace)"], "invalid_client") {
		t.Fatalf("the failed plan does not say why:\n%s", tail(shown["failed plan (trace)"]))
	}

	secrets := map[string]string{"the client secret": leakSecret, "the wrong secret": "a-wrong-secret-5d0e7b"}
	for i, line := range pemBodyLines(keyPEM) {
		secrets[fmt.Sprintf("line %d of the private key", i+1)] = line
	}
	for _, as := range []*livedoctest.AuthServer{bySecret, byKey} {
		for i, r := range as.Requests() {
			if r.Token != "" {
				secrets[fmt.Sprintf("token %d of %s", i+1, as.Issuer)] = r.Token
			}
			if r.Assertion != "" {
				secrets[fmt.Sprintf("assertion %d", i+1)] = r.Assertion[strings.LastIndexByte(r.Assertion, '.')+1:] // its signature
			}
		}
	}
	if len(secrets) < 5 {
		t.Fatalf("too few values to look for (no token issued?): %v", secrets)
	}
	for where, text := range shown {
		for what, value := range secrets {
			for _, form := range []string{value, base64.StdEncoding.EncodeToString([]byte(leakClientID + ":" + value))} {
				if i := strings.Index(text, form); i >= 0 {
					t.Errorf("%s shows %s: ...%s...", where, what, text[max(0, i-200):min(len(text), i+len(form)+50)])
				}
			}
		}
	}
}

// withoutArguments is a JSON document of the CLI with the values of the
// arguments that hold the credentials removed: each oauth's client_secret and
// private_key, and the variables they come from (a plan file holds those);
// want is how many oauth objects must be found (a test that found none would
// prove nothing).
func withoutArguments(t *testing.T, doc string, want int) string {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, tail(doc))
	}
	found := 0
	var walk func(any)
	walk = func(v any) {
		switch x := v.(type) {
		case map[string]any:
			if o, ok := x["oauth"].(map[string]any); ok {
				delete(o, "client_secret")
				delete(o, "private_key")
				found++
			}
			if vars, ok := x["variables"].(map[string]any); ok {
				delete(vars, "client_secret")
				delete(vars, "private_key")
			}
			for _, e := range x {
				walk(e)
			}
		case []any:
			for _, e := range x {
				walk(e)
			}
		}
	}
	walk(v)
	if found < want {
		t.Fatalf("found %d oauth arguments, want at least %d, in:\n%s", found, want, tail(doc))
	}
	out, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(out)
}

func pemBodyLines(text string) []string {
	var lines []string
	for _, l := range strings.Split(text, "\n") {
		if l != "" && !strings.HasPrefix(l, "-----") {
			lines = append(lines, l)
		}
	}
	return lines
}

// tail is the end of a long output, for a failure message.
func tail(s string) string {
	if len(s) > 4000 {
		return "..." + s[len(s)-4000:]
	}
	return s
}
