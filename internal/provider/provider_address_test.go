package provider

import (
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
)

// The provider's address moved from hashicorp/agentregistry (HashiCorp's
// namespace, never ours) to agentregistry/agentregistry. A state written under
// the old address moves with `state replace-provider`, as the CHANGELOG's
// upgrade note says, through the real CLI: apply under the old address, switch
// required_providers, replace the provider in the state, and the next plan is
// empty (nothing re-created, nothing re-registered).
func TestAccProviderAddress_moveFromHashicorpNamespace(t *testing.T) {
	old := servedProvider{address: "hashicorp/agentregistry", server: providerserver.NewProtocol6(New("test")())}
	h := newCLIHarness(t, old)
	r := startRegistry(t)
	body := `
provider "agentregistry" {
  endpoint = "` + r.URL + `"
  project  = "demo-project"
}
resource "agentregistry_agent" "currency" {
  service_id = "currency-agent"
  agent_card = jsonencode(` + resJSON(resCard("Converts currencies", resCardSkill("convert", "Converts amounts", "fx"))) + `)
}
`
	required := func(source string) string {
		return "terraform {\n  required_providers {\n    agentregistry = { source = \"" + source + "\" }\n  }\n}\n"
	}
	h.write(t, "main.tf", required("hashicorp/agentregistry")+body)
	h.mustRun(t, "init", "-input=false")
	h.mustRun(t, "apply", "-input=false", "-auto-approve")
	r.srv.ResetRequests()

	// From here on only the new address is served, as after an upgrade.
	moved := newCLIHarness(t)
	moved.dir = h.dir
	h = moved
	h.write(t, "main.tf", required("agentregistry/agentregistry")+body)
	out := h.mustRun(t, "state", "replace-provider", "-auto-approve",
		h.host+"/hashicorp/agentregistry", h.host+"/agentregistry/agentregistry")
	if !strings.Contains(out, "Successfully replaced provider") {
		t.Fatalf("replace-provider did not say it replaced the provider:\n%s", out)
	}
	h.mustRun(t, "init", "-input=false")
	out = h.mustExit(t, 0, "plan", "-input=false", "-detailed-exitcode")
	if !strings.Contains(out, "No changes") {
		t.Errorf("the plan after the move is not empty:\n%s", out)
	}
	r.expectNoWrites(t)
	state := h.readFile(t, "terraform.tfstate")
	if strings.Contains(state, "hashicorp/agentregistry") || !strings.Contains(state, h.host+"/agentregistry/agentregistry") {
		t.Errorf("the state does not name the provider by its new address only:\n%s", state)
	}
}
