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

// Cards that official SDKs serve, through the function: the hybrid card of
// @a2a-js/sdk is valid (its warning is not an error), and the errors of
// a2a-go's union card name the A2A 1.0 forms to write instead.
func TestAccFunction_validateAgentCardOfSDKs(t *testing.T) {
	const hcl = `
variable "hybrid" { type = string }
variable "union" { type = string }
output "hybrid" {
  value = provider::agentregistry::validate_agent_card(var.hybrid)
}
output "union" {
  value = provider::agentregistry::validate_agent_card(var.union)
}
`
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   requires(capFunctions),
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: hcl,
			ConfigVariables: map[string]config.Variable{
				"hybrid": config.StringVariable(realCard(t, "a2a-js-1.3.0_legacy-compat_no-version-header.json")),
				"union":  config.StringVariable(realCard(t, "a2a-go-2.4.0_a2av0-compat-producer.json")),
			},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("hybrid", knownvalue.ListSizeExact(0)),
				statecheck.ExpectKnownOutputValue("union", knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact(`line 46, column 24: /skills/0/securityRequirements/0/schemes/example: expected object, found array; ` +
						`A2A 1.0 writes the scopes of a security requirement as {"list": [...]}, here {"list": []}`),
					knownvalue.StringRegexp(regexp.MustCompile(`^line 51, column 23: /skills/0/securityRequirements/1/schemes/google: .*here \{"list": \["openid","profile","email"\]\}$`)),
					knownvalue.StringExact(`line 105, column 15: /securitySchemes/google: expected exactly one of apiKeySecurityScheme, httpAuthSecurityScheme, ` +
						`mtlsSecurityScheme, oauth2SecurityScheme, openIdConnectSecurityScheme, found none; this is the A2A 0.3 form ("type": "openIdConnect"), ` +
						`and A2A 1.0 writes it as {"openIdConnectSecurityScheme": {...}} holding "openIdConnectUrl"`),
					knownvalue.StringRegexp(regexp.MustCompile(`^line 139, column 19: /securityRequirements/0/schemes/google: expected object, found array; .*\{"list": \[\.\.\.\]\}`)),
				})),
			},
		}},
	})
}

// The function's errors for a card in the recommended one-line form quote
// the value and the skill it belongs to; read as written, the card keeps its
// line and column. A card the registry accepts but the official schema would
// not (no defaultOutputModes) has no error: that is a warning at plan.
func TestAccFunction_validateAgentCardLocatesErrors(t *testing.T) {
	const card = `{
  "protocolVersion": "0.3.0",
  "name": "Invoice Helper",
  "description": "Answers questions about invoices.",
  "url": "https://agents.example.com/invoices/a2a",
  "version": "2.1.0",
  "skills": [
    {"id": "lookup-invoice", "name": "Look up an invoice", "description": "Finds an invoice.", "tags": "billing"}
  ]
}`
	const hcl = `
variable "card" { type = string }
output "one_line" {
  value = provider::agentregistry::validate_agent_card(jsonencode(jsondecode(var.card)))
}
output "as_written" {
  value = provider::agentregistry::validate_agent_card(var.card)
}
`
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   requires(capFunctions),
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config:          hcl,
			ConfigVariables: map[string]config.Variable{"card": config.StringVariable(card)},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("one_line", knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact(`/skills/0/tags: expected array, found string "billing"; look for {"description": "Finds an invoice.", "id": "lookup-invoice", "name": "Look up an invoice", "tags": "billing"}`),
				})),
				statecheck.ExpectKnownOutputValue("as_written", knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringExact(`line 8, column 104: /skills/0/tags: expected array, found string "billing"`),
				})),
			},
		}},
	})
}
