package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/config"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// cardVariable is a module input checked with validate_agent_card at plan.
const cardVariable = `
variable "agent_card" {
  type = string
  validation {
    condition     = length(provider::agentregistry::validate_agent_card(var.agent_card)) == 0
    error_message = "agent_card is not a valid A2A Agent Card: run validate_agent_card on it to see why."
  }
}
output "card_name" {
  value = jsondecode(var.agent_card).name
}
`

func TestAccFunction_validateAgentCardInVariableValidation(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   requires(capFunctions),
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			// A 1.0 card without skills: rejected at plan by the variable's validation.
			Config: cardVariable,
			ConfigVariables: map[string]config.Variable{
				"agent_card": config.StringVariable(`{"name":"Currency Agent","description":"Converts currencies","version":"1.0.0","supportedInterfaces":[{"url":"https://agents.example.com/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0"}]}`),
			},
			ExpectError: regexp.MustCompile(`agent_card is not a valid A2A Agent Card`),
		}, {
			Config: cardVariable,
			ConfigVariables: map[string]config.Variable{
				"agent_card": config.StringVariable(`{"name":"Currency Agent","description":"Converts currencies","version":"1.0.0","supportedInterfaces":[{"url":"https://agents.example.com/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"capabilities":{},"skills":[{"id":"convert","name":"Convert","description":"Converts an amount","tags":["fx"]}]}`),
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("card_name", knownvalue.StringExact("Currency Agent")),
			},
		}},
	})
}
