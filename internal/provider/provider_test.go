package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

func TestAccProvider_malformedEndpointIsAConfigError(t *testing.T) {
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
provider "agentregistry" {
  endpoint = "ftp//registry"
  project  = "p"
}
data "agentregistry_agents" "all" {
  query = "anything"
}
`,
			ExpectError: regexp.MustCompile(`Invalid Endpoint URL`),
		}},
	})
}

func TestAccProvider_missingProjectIsAConfigError(t *testing.T) {
	t.Setenv("AGENTREGISTRY_PROJECT", "")
	t.Setenv("GOOGLE_CLOUD_PROJECT", "")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
provider "agentregistry" {
  endpoint = "http://127.0.0.1:1"
}
data "agentregistry_agents" "all" {
  query = "anything"
}
`,
			ExpectError: regexp.MustCompile(`(?s)Missing Project.*AGENTREGISTRY_PROJECT`),
		}},
	})
}

func TestAccFunction_validateAgentCard(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   requires(capFunctions),
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
output "bad" {
  value = provider::agentregistry::validate_agent_card(jsonencode({ name = "x" }))
}
output "good" {
  value = provider::agentregistry::validate_agent_card(jsonencode({
    name               = "Currency Agent"
    description        = "Converts currencies"
    version            = "1.0.0"
    url                = "https://agents.example.com/currency"
    protocolVersion    = "0.3.0"
    capabilities       = {}
    defaultInputModes  = ["text/plain"]
    defaultOutputModes = ["text/plain"]
    skills = [{
      id          = "convert"
      name        = "Convert"
      description = "Converts an amount between currencies"
      tags        = ["currency", "fx"]
    }]
  }))
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("good", knownvalue.ListSizeExact(0)),
				statecheck.ExpectKnownOutputValue("bad", knownvalue.ListPartial(map[int]knownvalue.Check{
					0: knownvalue.StringRegexp(regexp.MustCompile(`.+`)),
				})),
			},
		}},
	})
}
