package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// The fleet module reads the servers of live_tool_specs at plan, passing
// oauth_client and oauth to the data source as they are: a server of the Go
// SDK behind OAuth, through a client of the root module's provider block (its
// secret from an ephemeral variable, as the module's README shows), and
// another through the CI's workload token in a file, inline (oauth's every
// attribute passes through the module's type). Each is registered with the
// tools include_tools keeps and its URL as interface, and the next plan is
// empty.
func TestAccModules_fleetLiveToolSpecsWithOAuth(t *testing.T) {
	cli := testkit.CLIFromEnv(t)
	cli.SkipUnless(t, "ephemeral variables", "1.10.0", "1.11.0")
	const secret = "fleet-ci-client-secret-77e1"
	as := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: "fleet-ci", Secret: secret,
		Methods: []string{livedoctest.SecretPost}})
	weather := livedoctest.ServeProtectedMCP(t, livedoctest.NewMCPServer(0, livedoctest.NamedTools("forecast", "debug_dump")...), as,
		livedoctest.ProtectedOptions{})
	ci := livedoctest.NewIssuer(t, "https://token.actions.example")
	byWorkload := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{Grants: []string{livedoctest.GrantJWTBearer},
		Methods: []string{livedoctest.MethodNone}, CheckAssertion: ci.TrustWorkloads})
	build := livedoctest.ServeProtectedMCP(t, livedoctest.NewMCPServer(0, livedoctest.NamedTools("compile")...), byWorkload,
		livedoctest.ProtectedOptions{})
	tokenFile := filepath.Join(t.TempDir(), "mcp.jwt")
	if err := os.WriteFile(tokenFile, []byte(ci.WorkloadToken(t, byWorkload.Issuer, time.Hour)), 0o600); err != nil {
		t.Fatal(err)
	}
	registry := testkit.StartRegistry(t, registryserver.Options{})

	root := testkit.Root(t)
	tree := t.TempDir()
	copyTree(t, root, tree, "modules/registry-fleet")
	h := devOverridesRun(t, cli)
	h.Dir = filepath.Join(tree, "root")
	h.Env = append(h.Env, "AGENTREGISTRY_ENDPOINT="+registry.URL, "AGENTREGISTRY_PROJECT=fleet-live",
		"TF_VAR_weather_client_secret="+secret)
	h.Write(t, "main.tf", fmt.Sprintf(`terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry" }
  }
}

variable "weather_client_secret" {
  type      = string
  ephemeral = true
}

provider "agentregistry" {
  mcp_oauth_clients = {
    weather = { client_id = "fleet-ci", client_secret = var.weather_client_secret }
  }
}

module "fleet" {
  source = "../modules/registry-fleet"
  live_tool_specs = {
    weather-tools = {
      url           = %q
      oauth_client  = "weather"
      include_tools = ["forecast"]
    }
    build-tools = {
      url   = %q
      oauth = { assertion_file = %q, issuer = %q }
    }
  }
}

output "weather" {
  value = module.fleet.mcp_servers["weather-tools"].tool_names
}

output "build" {
  value = module.fleet.mcp_servers["build-tools"].tool_names
}
`, weather.URL, build.URL, tokenFile, byWorkload.Issuer))
	h.MustRun(t, "get")
	out := h.MustRun(t, "apply", "-auto-approve", "-input=false")
	if !strings.Contains(out, `"forecast"`) || strings.Contains(out, "debug_dump") || !strings.Contains(out, `"compile"`) {
		t.Fatalf("the apply should register weather-tools with forecast only, and build-tools:\n%s", tail(out))
	}
	if strings.Contains(out, secret) || strings.Contains(h.ReadFile(t, "terraform.tfstate"), secret) {
		t.Error("the apply's output or the state holds the client secret")
	}
	h.MustExit(t, 0, "plan", "-input=false", "-detailed-exitcode")
	if n, m := len(as.Requests()), len(byWorkload.Requests()); n < 2 || m < 2 {
		t.Errorf("%d and %d token requests, want one per read (apply, plan) of each server", n, m)
	}
}
