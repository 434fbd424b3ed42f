package provider

import (
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// The binding page's example triage_tickets, applied as it is through the
// CLI: a binding built from the agent_id and mcp_server_id of what the same apply
// registers carries their URNs, and the next plan is empty. As the page says,
// a service id in their place (not a URN) fails at apply, before the binding
// is sent.
func TestAccBindingResource_fromRegistrationsExample(t *testing.T) {
	example, err := os.ReadFile("../../examples/resources/agentregistry_binding/resource-from-registrations.tf")
	if err != nil {
		t.Fatal(err)
	}
	t.Run("ids", func(t *testing.T) {
		r := startRegistry(t)
		h := newCLIHarness(t)
		h.write(t, "main.tf", string(example))
		h.write(t, "test.tf", r.config(exampleProviders))
		h.mustRun(t, "init", "-input=false")
		h.mustRun(t, "apply", "-auto-approve", "-input=false")
		h.mustRun(t, "plan", "-detailed-exitcode", "-input=false")
		var outputs map[string]struct{ Value map[string]string }
		if err := json.Unmarshal([]byte(h.mustRun(t, "output", "-json")), &outputs); err != nil {
			t.Fatal(err)
		}
		got := outputs["triage_binding"].Value
		if got["source"] != testURN("agent", "ticket-triage") || got["target"] != testURN("mcp", "tickets-mcp") {
			t.Errorf("binding %v, want the agent's and the MCP server's URNs", got)
		}
	})

	t.Run("service id", func(t *testing.T) {
		r := startRegistry(t)
		h := newCLIHarness(t)
		h.write(t, "main.tf", strings.Replace(string(example), "agentregistry_agent.triage.agent_id", "agentregistry_agent.triage.service_id", 1))
		h.write(t, "test.tf", r.config(exampleProviders))
		h.mustRun(t, "init", "-input=false")
		out := h.mustExit(t, 1, "apply", "-auto-approve", "-input=false")
		if !strings.Contains(strings.Join(strings.Fields(out), " "), "must be an agent URN") {
			t.Errorf("the apply failed without saying that source must be an agent URN:\n%s", out)
		}
		if w := r.writesOf("POST"); strings.Contains(strings.Join(w, " "), "/bindings") {
			t.Errorf("the binding was sent: %v", w)
		}
	})
}
