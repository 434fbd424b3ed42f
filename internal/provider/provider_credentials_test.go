package provider

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// withoutCredentials clears the provider's environment and points Google
// Application Default Credentials at a file that does not exist, so that
// looking them up fails at once (no metadata server is ever asked).
func withoutCredentials(t *testing.T) {
	t.Helper()
	for _, v := range []string{"AGENTREGISTRY_ENDPOINT", "AGENTREGISTRY_APPHUB_ENDPOINT", "AGENTREGISTRY_ACCESS_TOKEN",
		"AGENTREGISTRY_PROJECT", "AGENTREGISTRY_LOCATION", "GOOGLE_CLOUD_PROJECT", "CLOUDSDK_CONFIG"} {
		t.Setenv(v, "")
		_ = os.Unsetenv(v) // unset, not empty: an empty AGENTREGISTRY_* still counts as set
	}
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", filepath.Join(t.TempDir(), "no-such-adc.json"))
}

// aFleetOnGoogle is a configuration of several resources and data sources of
// Google's registry (the provider's default endpoint).
const aFleetOnGoogle = `
provider "agentregistry" {
  project = "my-project"
}

resource "agentregistry_agent" "fleet" {
  count      = 5
  service_id = "agent-${count.index}"
  interfaces = [{ url = "https://agent-${count.index}.example.com/a2a", protocol_binding = "JSONRPC" }]
}

resource "agentregistry_mcp_server" "tools" {
  service_id = "tools"
  interfaces = [{ url = "https://tools.example.com/mcp", protocol_binding = "JSONRPC" }]
}

data "agentregistry_agents" "all" {}
data "agentregistry_mcp_servers" "all" {}
data "agentregistry_skills" "fx" {
  tags = ["fx"]
}
`

// With Google's endpoint and no credentials, a configuration of many
// resources and data sources gets the credentials error once, not once
// per resource and data source.
func TestAccProviderCredentialsErrorOnce(t *testing.T) {
	withoutCredentials(t)
	h := newCLIHarness(t)
	h.write(t, "main.tf", exampleProviders+aFleetOnGoogle)
	h.mustRun(t, "init", "-input=false")
	out := h.mustExit(t, 1, "plan", "-input=false")
	if n := strings.Count(out, "Cannot Create Agent Registry Client"); n != 1 {
		t.Fatalf("the credentials error is reported %d times, want once:\n%s", n, out)
	}
	if !strings.Contains(out, "Application Default Credentials") {
		t.Errorf("the error does not say which credentials were looked for:\n%s", out)
	}
	if strings.Contains(out, "Provider Not Configured") {
		t.Errorf("the error's consequences are reported as a bug:\n%s", out)
	}
}

// A module that only calls the provider's functions plans and applies with
// no credentials and no project, on both CLIs (OpenTofu configures the
// provider even then).
func TestAccProviderFunctionsWithoutCredentials(t *testing.T) {
	skipUnlessFunctions(t)
	withoutCredentials(t)
	h := newCLIHarness(t)
	h.write(t, "main.tf", exampleProviders+`
provider "agentregistry" {}

output "problems" {
  value = provider::agentregistry::validate_agent_card(jsonencode({ name = "x" }))
}
output "found" {
  value = keys(provider::agentregistry::search_cards({}, "fx"))
}
`)
	h.mustRun(t, "init", "-input=false")
	h.mustRun(t, "apply", "-auto-approve", "-input=false")
}

// Missing Google credentials are reported by the provider, as the Google
// provider reports them when it is configured, and the same on every run:
// one error, about the provider block rather than whichever resource came
// first, no resource planned as if the registry were reachable, no data
// source read as empty.
func TestAccProviderCredentialsErrorAtTheProvider(t *testing.T) {
	withoutCredentials(t)
	h := newCLIHarness(t)
	h.write(t, "main.tf", exampleProviders+aFleetOnGoogle)
	h.mustRun(t, "init", "-input=false")
	var first string
	for run := range 3 {
		out := h.mustExit(t, 1, "plan", "-input=false", "-json")
		var errs []string
		for _, line := range strings.Split(out, "\n") {
			var msg struct {
				Type       string
				Diagnostic struct{ Severity, Summary, Address string }
				Change     struct{ Resource struct{ Addr string } }
			}
			if json.Unmarshal([]byte(line), &msg) != nil {
				continue
			}
			switch {
			case msg.Diagnostic.Severity == "error":
				about := msg.Diagnostic.Address
				if strings.HasPrefix(about, "provider[") {
					about = "the provider"
				}
				errs = append(errs, fmt.Sprintf("%s (about %s)", msg.Diagnostic.Summary, about))
			case msg.Type == "planned_change":
				t.Errorf("run %d planned %s as if the registry could be reached", run, msg.Change.Resource.Addr)
			}
		}
		if len(errs) != 1 || errs[0] != "Cannot Create Agent Registry Client (about the provider)" {
			t.Fatalf("run %d: errors %q, want one about the provider", run, errs)
		}
		if run == 0 {
			first = errs[0]
		} else if errs[0] != first {
			t.Errorf("run %d reported %s, run 0 %s", run, errs[0], first)
		}
	}
}
