//go:build unix

package e2e

// The official MCP conformance suite (@modelcontextprotocol/conformance, npm)
// in client mode, with the data source as the client: for each client
// scenario the suite starts its MCP server (and, for the auth scenarios, its
// authorization server), and runs a command with the server's URL and, for
// some, credentials (MCP_CONFORMANCE_CONTEXT); the command plans a
// configuration that reads the server's tools with the CLI of the run and the
// provider built from the repository. The suite's own checks decide (its exit
// code: no FAILURE, no WARNING, the client finished in time), scenario by
// scenario, against the list below of what a machine client can pass.

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// expectation is what the test demands of one scenario of the suite.
type expectation struct {
	// fails says why a machine client (no user, so no browser; no tool
	// call) fails the scenario; "" when the data source must pass it, with
	// at least one successful check.
	fails string
	// notApplicable says why the scenario decides nothing for the data
	// source: the suite passes it with every check skipped, which the test
	// demands (a check that starts to decide needs a new look).
	notApplicable string
	// ownClient: the suite gives no credentials (it expects a client that
	// registers itself), but what the scenario checks is a refusal before
	// any credential is sent; the data source discovers a server's
	// authorization only with a client configured, so the test configures
	// one of its own (ownClientContext).
	ownClient bool
}

var (
	passes       = expectation{}
	refusesFirst = expectation{ownClient: true}
	// Why a scenario is expected to fail for the data source.
	browserFlow = expectation{fails: "a browser flow: the authorization code grant (a redirect a user approves, PKCE); " +
		"the data source is a machine client"}
	browserDPoP = expectation{fails: "a browser flow (the authorization code grant) with DPoP-bound tokens (RFC 9449), " +
		"which the data source does not make"}
	toolCall   = expectation{fails: "a tool call: the scenario's checks need tools/call; the data source only lists tools"}
	skillsHost = expectation{notApplicable: "the skills extension (SEP-2640): its checks observe a host that calls " +
		"skills/list and reads skill files, which the data source never does, and are skipped"}
)

// ownClientContext is the client the test configures for the ownClient
// scenarios; its secret is never sent (the scenarios refuse before).
const ownClientContext = `{"client_id":"machine-client","client_secret":"never-sent-secret-5e1c"}`

// conformanceScenarios are every client scenario of the suite, with what the
// test expects of each. The test fails on a scenario the suite has and this
// list has not (a new release needs a decision), on one that must pass and
// fails, on an expected failure that passes (remove its line), and on a
// scenario not applicable that decides a check.
var conformanceScenarios = map[string]expectation{
	// The 11 scenarios of a machine client.
	"initialize":                            passes,
	"request-metadata":                      passes,
	"http-standard-headers":                 passes,
	"json-schema-ref-no-deref":              passes,
	"auth/pre-registration":                 passes,
	"auth/client-credentials-basic":         passes,
	"auth/client-credentials-jwt":           passes,
	"auth/resource-mismatch":                refusesFirst,
	"auth/metadata-issuer-mismatch":         refusesFirst,
	"auth/wif-jwt-bearer":                   passes,
	"auth/enterprise-managed-authorization": passes,

	"tools_call":                          toolCall,
	"elicitation-sep1034-client-defaults": toolCall,
	"sse-retry":                           toolCall,
	"sep-2322-client-request-state":       toolCall,
	"http-custom-headers":                 toolCall,
	"http-invalid-tool-headers":           toolCall, // it must call valid_tool and no invalid one
	"json-schema-2020-12-preservation":    toolCall,

	"auth/metadata-default":                     browserFlow,
	"auth/metadata-var1":                        browserFlow,
	"auth/metadata-var2":                        browserFlow,
	"auth/metadata-var3":                        browserFlow,
	"auth/basic-cimd":                           browserFlow,
	"auth/scope-from-www-authenticate":          browserFlow,
	"auth/scope-from-scopes-supported":          browserFlow,
	"auth/scope-omitted-when-undefined":         browserFlow,
	"auth/scope-step-up":                        browserFlow,
	"auth/scope-retry-limit":                    browserFlow,
	"auth/token-endpoint-auth-basic":            browserFlow,
	"auth/token-endpoint-auth-post":             browserFlow,
	"auth/token-endpoint-auth-none":             browserFlow,
	"auth/2025-03-26-oauth-metadata-backcompat": browserFlow,
	"auth/2025-03-26-oauth-endpoint-fallback":   browserFlow,
	"auth/offline-access-scope":                 browserFlow,
	"auth/offline-access-not-supported":         browserFlow,
	"auth/authorization-server-migration":       browserFlow,
	"auth/iss-supported":                        browserFlow,
	"auth/iss-not-advertised":                   browserFlow,
	"auth/iss-supported-missing":                browserFlow,
	"auth/iss-wrong-issuer":                     browserFlow,
	"auth/iss-unexpected":                       browserFlow,
	"auth/iss-normalized":                       browserFlow,
	"auth/dpop":                                 browserDPoP,
	"auth/dpop-nonce":                           browserDPoP,

	"sep-2640-client-no-prefetch":        skillsHost,
	"sep-2640-client-verify-digest":      skillsHost,
	"sep-2640-client-verify-size":        skillsHost,
	"sep-2640-client-verify-frontmatter": skillsHost,
}

// conformanceConfig reads the scenario's server, through a client of the
// provider block when the suite gives credentials, as a CI job does. The
// test's script sets oauth_client when there is a context, and the context
// itself as a sensitive variable. The client is what the context holds: a
// client secret or key (client credentials), a workload's token (the member
// assertion_from names: workload identity), an identity provider's ID token
// beside the client's secret (enterprise-managed authorization).
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

variable "oauth_client" {
  type    = string
  default = ""
}

variable "conformance_context" {
  type      = string
  sensitive = true
  default   = "{}"
}

variable "assertion_from" {
  type    = string
  default = "valid_jwt"
}

locals {
  credentials = jsondecode(var.conformance_context)
}

provider "agentregistry" {
  mcp_oauth_clients = {
    for name in compact([var.oauth_client]) : name => {
      client_id     = try(local.credentials.client_id, null)
      client_secret = try(local.credentials.client_secret, null)
      private_key   = try(local.credentials.private_key_pem, null)
      assertion     = try(local.credentials[var.assertion_from], null)
      identity_provider = try({
        issuer         = local.credentials.idp_issuer
        token_endpoint = local.credentials.idp_token_endpoint
        client_id      = local.credentials.idp_client_id
        id_token       = local.credentials.idp_id_token
      }, null)
    }
  }
}

data "agentregistry_mcp_tool_spec" "scenario" {
  url          = var.server_url
  timeout      = "1m"
  oauth_client = var.oauth_client == "" ? null : var.oauth_client
}

output "tool_names" {
  value = data.agentregistry_mcp_tool_spec.scenario.tool_names
}
`

// conformanceCheck is one entry of the suite's checks.json.
type conformanceCheck struct {
	ID, Name, Description, Status, ErrorMessage string
}

func TestAccMcpToolSpecOAuth_conformanceSuite(t *testing.T) {
	r := newConformanceRun(t)
	checkScenarioList(t, r.node, r.suite)
	for _, scenario := range slices.Sorted(maps.Keys(conformanceScenarios)) {
		t.Run(scenario, func(t *testing.T) {
			t.Parallel() // each scenario has its servers, its folder and its plan
			want := conformanceScenarios[scenario]
			var env []string
			if want.ownClient {
				env = append(env, "MCP_CONFORMANCE_CONTEXT="+ownClientContext) // the suite passes its environment on
			}
			res := r.scenario(t, scenario, env...)
			judgeScenario(t, scenario, want, res.passed, res.checks, res.output)
		})
	}
}

// The workload identity scenario with the workload tokens its authorization
// server must refuse, an expired one and one for another audience: the
// suite fails the scenario (the assertion check fails, as it must), the
// plan's error names invalid_grant, and the suite saw one token request
// only: no second one with the same grant (wif-no-retry) or another
// (wif-grant-fallback).
func TestAccMcpToolSpecOAuth_conformanceWorkloadTokensRefused(t *testing.T) {
	r := newConformanceRun(t)
	for token, failure := range map[string]string{"expired_jwt": "wif-assertion-expired", "wrong_audience_jwt": "wif-assertion-audience"} {
		t.Run(token, func(t *testing.T) {
			t.Parallel()
			res := r.scenario(t, "auth/wif-jwt-bearer", "TF_VAR_assertion_from="+token)
			if res.passed {
				t.Fatalf("the suite passed auth/wif-jwt-bearer with the %s\n%s", token, res.output())
			}
			var failed []string
			for _, c := range res.checks {
				if c.Status == "FAILURE" {
					failed = append(failed, c.ID)
				}
				if c.ID == "wif-no-retry" || c.ID == "wif-grant-fallback" {
					t.Errorf("the suite reports %s %s: %s %s", c.Status, c.ID, c.Description, c.ErrorMessage)
				}
			}
			if !slices.Equal(failed, []string{failure}) {
				t.Errorf("failed checks %v, want [%s]\n%s", failed, failure, res.output())
			}
			if !strings.Contains(res.stdout, `OAuth error "invalid_grant"`) {
				t.Errorf("the plan does not name invalid_grant:\n%s", res.output())
			}
		})
	}
}

// conformanceRun runs scenarios of the suite with the data source as the
// client, through the CLI of the run.
type conformanceRun struct {
	node, suite string
	client      string // the command the suite runs: a plan of conformanceConfig
	env         []string
}

func newConformanceRun(t *testing.T) *conformanceRun {
	t.Helper()
	cli := testkit.CLIFromEnv(t)
	r := &conformanceRun{}
	r.node, r.suite = livedoctest.Conformance(t)
	r.env = devOverridesRun(t, cli).Env
	// The suite appends the server's URL to the command and runs it with a
	// shell, in its environment: the command holds no space, and finds the
	// scenario's folder in CONFORMANCE_DIR.
	r.client = filepath.Join(t.TempDir(), "plan.sh")
	script := fmt.Sprintf(`#!/bin/sh
cd "$CONFORMANCE_DIR" || exit 1
if [ -n "$MCP_CONFORMANCE_CONTEXT" ]; then
  export TF_VAR_oauth_client=scenario TF_VAR_conformance_context="$MCP_CONFORMANCE_CONTEXT"
fi
TF_VAR_server_url="$1" exec %q plan -input=false -no-color
`, cli.Path)
	if err := os.WriteFile(r.client, []byte(script), 0o700); err != nil { //nolint:gosec // a script the test runs
		t.Fatal(err)
	}
	return r
}

// scenarioResult is what the suite said of one scenario.
type scenarioResult struct {
	passed bool // the suite's exit code was 0
	checks []conformanceCheck
	stdout string // what the plan printed, its errors last
	output func() string
}

// scenario runs one scenario in a folder of its own, with env added to the
// suite's environment (which it passes on to the plan).
func (r *conformanceRun) scenario(t *testing.T, scenario string, env ...string) scenarioResult {
	t.Helper()
	dir, results := t.TempDir(), t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "main.tf"), []byte(conformanceConfig), 0o600); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(r.node, r.suite, "client", "--command", r.client, "--scenario", scenario, "--timeout", "120000", "-o", results)
	cmd.Dir, cmd.Env = results, slices.Concat(r.env, []string{"CONFORMANCE_DIR=" + dir}, env)
	out, err := cmd.CombinedOutput()
	checks, stdout := readConformanceResults(t, results)
	return scenarioResult{passed: err == nil, checks: checks, stdout: stdout, output: func() string {
		return fmt.Sprintf("the plan printed:\n%s\nthe suite:\n%s", tail(stdout), tail(string(out)))
	}}
}

// judgeScenario holds the suite's verdict (passed: its exit code was 0) and
// checks to what the test expects of the scenario.
func judgeScenario(t *testing.T, scenario string, want expectation, passed bool, checks []conformanceCheck, output func() string) {
	t.Helper()
	decided := slices.ContainsFunc(checks, func(c conformanceCheck) bool {
		return c.Status == "SUCCESS" || c.Status == "FAILURE" || c.Status == "WARNING"
	})
	switch {
	case want.notApplicable != "" && (!passed || decided):
		t.Errorf("%s decides checks now (passed: %v), where it was not applicable (%s): %s\n%s", scenario, passed,
			want.notApplicable, failedChecks(checks), output())
	case want.notApplicable != "":
	case want.fails == "" && (!passed || !decided):
		t.Errorf("the suite fails %s (passed: %v, a check decided: %v): %s\n%s", scenario, passed, decided,
			failedChecks(checks), output())
	case want.fails != "" && passed:
		t.Errorf("%s passes now: remove it from the expected failures (%s)", scenario, want.fails)
	case want.fails != "":
		t.Logf("fails as expected (%s): %s", want.fails, failedChecks(checks))
	}
}

// checkScenarioList fails the test unless conformanceScenarios lists exactly
// the client scenarios of the installed suite (`list --client`).
func checkScenarioList(t *testing.T, node, suite string) {
	t.Helper()
	out, err := exec.Command(node, suite, "list", "--client").CombinedOutput()
	if err != nil {
		t.Fatalf("conformance list --client: %v\n%s", err, out)
	}
	var listed []string
	for _, m := range regexp.MustCompile(`(?m)^\s+- (\S+)`).FindAllStringSubmatch(string(out), -1) {
		listed = append(listed, m[1])
	}
	for _, s := range listed {
		if _, ok := conformanceScenarios[s]; !ok {
			t.Errorf("the suite has the client scenario %s, which conformanceScenarios does not list: decide whether the data source must pass it", s)
		}
	}
	for s := range conformanceScenarios {
		if !slices.Contains(listed, s) {
			t.Errorf("conformanceScenarios lists %s, which the suite no longer has", s)
		}
	}
	if t.Failed() {
		t.FailNow()
	}
}

// failedChecks lists the checks that failed or warned, one per line.
func failedChecks(checks []conformanceCheck) string {
	var lines []string
	for _, c := range checks {
		if c.Status == "FAILURE" || c.Status == "WARNING" {
			lines = append(lines, fmt.Sprintf("%s %s (%s): %s %s", c.Status, c.ID, c.Name, c.Description, c.ErrorMessage))
		}
	}
	if len(lines) == 0 {
		return "no check failed"
	}
	return strings.Join(lines, "\n")
}

// readConformanceResults reads checks.json and what the client printed
// (stdout.txt, then stderr.txt, where the plan's errors are) of the one
// result folder the suite wrote under dir.
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
	stderr, _ := os.ReadFile(filepath.Join(filepath.Dir(checksFile), "stderr.txt"))
	return checks, string(stdout) + string(stderr)
}
