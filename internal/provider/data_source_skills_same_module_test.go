package provider

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// The skills page's last example, applied as it is through the CLI: with
// depends_on, the first apply finds the agent that the same configuration
// registers and the next plan is empty; without it (what the page warns
// about), the first apply searches before the agent exists and finds
// nothing, and the next plan is not empty.
func TestAccSkillsDataSource_sameModuleExample(t *testing.T) {
	b, err := os.ReadFile("../../examples/data-sources/agentregistry_skills/data-source.tf")
	if err != nil {
		t.Fatal(err)
	}
	const from = "# Searching in the configuration that registers the agents"
	i := strings.Index(string(b), from)
	if i < 0 {
		t.Fatalf("the example has no section starting %q", from)
	}
	example := string(b[i:])
	const dependsOn = "  depends_on = [agentregistry_agent.fx]\n"
	if !strings.Contains(example, dependsOn) {
		t.Fatalf("the example has no %q", dependsOn)
	}
	rest := exampleProviders + `
output "found" {
  value = length(data.agentregistry_skills.own_fx.skills)
}
`
	for _, tc := range []struct {
		name      string
		config    string
		found     float64
		planAfter int
	}{
		{"with depends_on", example, 1, 0},
		{"without depends_on", strings.Replace(example, dependsOn, "", 1), 0, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := startRegistry(t)
			h := newCLIHarness(t)
			h.write(t, "main.tf", tc.config)
			h.write(t, "test.tf", r.config(rest))
			h.mustRun(t, "init", "-input=false")
			h.mustRun(t, "apply", "-auto-approve", "-input=false")
			var outputs map[string]struct{ Value float64 }
			if err := json.Unmarshal([]byte(h.mustRun(t, "output", "-json")), &outputs); err != nil {
				t.Fatal(err)
			}
			if outputs["found"].Value != tc.found {
				t.Errorf("the first apply's search found %v skills, want %v", outputs["found"].Value, tc.found)
			}
			h.mustExit(t, tc.planAfter, "plan", "-detailed-exitcode", "-input=false")
		})
	}
}
