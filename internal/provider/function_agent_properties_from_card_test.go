package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

const functionTestCard = `
locals {
  card = jsonencode({
    protocolVersion    = "0.3.0"
    name               = "Currency Agent"
    description        = "Converts currencies"
    version            = "1.4.0"
    url                = "https://agents.example.com/currency"
    capabilities       = {}
    defaultInputModes  = ["text/plain"]
    defaultOutputModes = ["text/plain"]
    skills = [{
      id          = "convert"
      name        = "Convert"
      description = "Converts an amount between currencies"
      tags        = ["currency", "fx"]
      examples    = ["Convert 100 USD to EUR"]
    }]
  })
}
`

func TestAccFunction_agentPropertiesFromCard(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   requires(capFunctions),
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: functionTestCard + `
locals {
  props         = provider::agentregistry::agent_properties_from_card(local.card, "google-adk", "https://agents.example.com/.well-known/agent-card.json")
  props_no_uri  = provider::agentregistry::agent_properties_from_card(local.card, "custom")
}
output "problems" {
  value = provider::agentregistry::validate_agent_properties(local.props)
}
output "problems_no_uri" {
  value = provider::agentregistry::validate_agent_properties(local.props_no_uri)
}
output "props" {
  value = jsondecode(local.props)
}
output "has_uri" {
  value = can(jsondecode(local.props_no_uri).agentCardUri)
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("problems", knownvalue.ListSizeExact(0)),
				statecheck.ExpectKnownOutputValue("problems_no_uri", knownvalue.ListSizeExact(0)),
				statecheck.ExpectKnownOutputValue("has_uri", knownvalue.Bool(false)),
				statecheck.ExpectKnownOutputValue("props", knownvalue.ObjectExact(map[string]knownvalue.Check{
					"displayName":  knownvalue.StringExact("Currency Agent"),
					"description":  knownvalue.StringExact("Converts currencies"),
					"version":      knownvalue.StringExact("1.4.0"),
					"framework":    knownvalue.StringExact("google-adk"),
					"agentCardUri": knownvalue.StringExact("https://agents.example.com/.well-known/agent-card.json"),
					"skills": knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
						"id":          knownvalue.StringExact("convert"),
						"name":        knownvalue.StringExact("Convert"),
						"description": knownvalue.StringExact("Converts an amount between currencies"),
						"tags":        knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("currency"), knownvalue.StringExact("fx")}),
						"examples":    knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("Convert 100 USD to EUR")}),
					})}),
				})),
			},
		}},
	})
}

func TestAccFunction_agentPropertiesFromInvalidCard(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   requires(capFunctions),
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
output "props" {
  value = provider::agentregistry::agent_properties_from_card(jsonencode({ name = "x" }), "custom")
}
`,
			ExpectError: regexp.MustCompile(`A2A Agent Card`),
		}},
	})
}
