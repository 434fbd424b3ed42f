package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

func TestAccFunction_validateAgentProperties(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   requires(capFunctions),
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
output "good" {
  value = provider::agentregistry::validate_agent_properties(jsonencode({
    displayName  = "Invoice Helper"
    description  = "Answers questions about invoices."
    version      = "2.1.0"
    framework    = "google-adk"
    agentCardUri = "https://invoices.example.com/.well-known/agent-card.json"
    skills = [{
      id          = "lookup-invoice"
      name        = "Look up an invoice"
      description = "Finds an invoice by number or customer."
      tags        = ["billing"]
      examples    = ["Where is invoice 2024-117?"]
    }]
  }))
}
output "misspelt" {
  # "displayname" is not a property of AgentProperties: an error, not dropped.
  value = provider::agentregistry::validate_agent_properties(jsonencode({
    displayname = "Invoice Helper"
  }))
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("good", knownvalue.ListSizeExact(0)),
				statecheck.ExpectKnownOutputValue("misspelt", knownvalue.ListPartial(map[int]knownvalue.Check{
					0: knownvalue.StringRegexp(regexp.MustCompile(`displayname`)),
				})),
			},
		}},
	})
}
