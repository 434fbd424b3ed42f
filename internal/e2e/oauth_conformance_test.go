//go:build unix

package e2e

// The official MCP conformance suite (@modelcontextprotocol/conformance, npm)
// in client mode, with the data source as the client: for each client
// credentials scenario the suite starts a protected MCP server and its
// authorization server, and runs a command with the server's URL and the
// credentials (MCP_CONFORMANCE_CONTEXT); the command plans a configuration
// that reads the server's tools with the CLI of the run and the provider built
// from the repository. The suite's own checks decide.

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// conformanceConfig reads the scenario's server with the credentials the
// suite gives, as a CI job reads them from its environment (TF_VAR_).
const conformanceConfig = `terraform {
  required_providers {
    agentregistry = {
      source = "agentregistry/agentregistry"
    }
  }
}

variable "server_url" {
  type = string
}

variable "conformance_context" {
  type      = string
  sensitive = true
}

locals {
  credentials = jsondecode(var.conformance_context)
}

data "agentregistry_mcp_tool_spec" "scenario" {
  url     = var.server_url
  timeout = "1m"
  oauth = {
    client_id     = local.credentials.client_id
    client_secret = try(local.credentials.client_secret, null)
    private_key   = try(local.credentials.private_key_pem, null)
  }
}

output "tool_names" {
  value = data.agentregistry_mcp_tool_spec.scenario.tool_names
}
`

// conformanceCheck is one entry of the suite's checks.json.
type conformanceCheck struct {
	ID, Name, Description, Status string
}

func TestAccMcpToolSpecOAuth_conformanceSuite(t *testing.T) {
	cli := testkit.CLIFromEnv(t)
	node, suite := livedoctest.Conformance(t)
	h := devOverridesRun(t, cli)
	h.Dir = t.TempDir()
	h.Write(t, "main.tf", conformanceConfig)
	// The suite appends the server's URL to the command and runs it with a
	// shell; the command must hold no space.
	client := filepath.Join(t.TempDir(), "plan.sh")
	script := fmt.Sprintf("#!/bin/sh\ncd %q || exit 1\nTF_VAR_server_url=\"$1\" TF_VAR_conformance_context=\"$MCP_CONFORMANCE_CONTEXT\" exec %q plan -input=false -no-color\n",
		h.Dir, cli.Path)
	if err := os.WriteFile(client, []byte(script), 0o700); err != nil { //nolint:gosec // a script the test runs
		t.Fatal(err)
	}
	for scenario, passed := range map[string]string{
		"auth/client-credentials-basic": "client-credentials-basic-auth",
		"auth/client-credentials-jwt":   "client-credentials-jwt-verified",
	} {
		t.Run(scenario, func(t *testing.T) {
			results := t.TempDir()
			cmd := exec.Command(node, suite, "client", "--command", client, "--scenario", scenario, "--timeout", "120000", "-o", results)
			cmd.Dir, cmd.Env = results, h.Env
			out, err := cmd.CombinedOutput()
			checks, stdout := readConformanceResults(t, results)
			succeeded := false
			for _, c := range checks {
				if c.Status == "FAILURE" {
					t.Errorf("the suite's check %s (%s) failed: %s", c.ID, c.Name, c.Description)
				}
				succeeded = succeeded || (c.ID == passed && c.Status == "SUCCESS")
			}
			if !succeeded {
				t.Errorf("no successful %s check among %d", passed, len(checks))
			}
			if !strings.Contains(stdout, `"test-tool"`) {
				t.Errorf("the plan did not read the scenario's tool test-tool; its output:\n%s", stdout)
			}
			if err != nil || t.Failed() {
				t.Errorf("the suite: %v\n%s", err, out)
			}
		})
	}
}

// readConformanceResults reads checks.json and the client's stdout.txt of
// the one result folder the suite wrote under dir.
func readConformanceResults(t *testing.T, dir string) ([]conformanceCheck, string) {
	t.Helper()
	var checksFile string
	_ = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "checks.json" {
			checksFile = p
		}
		return err
	})
	if checksFile == "" {
		t.Fatalf("the suite wrote no checks.json under %s", dir)
	}
	raw, err := os.ReadFile(checksFile)
	if err != nil {
		t.Fatal(err)
	}
	var checks []conformanceCheck
	if err := json.Unmarshal(raw, &checks); err != nil {
		t.Fatalf("checks.json: %v", err)
	}
	stdout, _ := os.ReadFile(filepath.Join(filepath.Dir(checksFile), "stdout.txt")) // absent: nothing was printed
	return checks, string(stdout)
}
