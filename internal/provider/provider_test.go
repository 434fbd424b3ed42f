package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// testAccProviderFactories serves the provider in-process to OpenTofu (or
// Terraform), as main serves it.
var testAccProviderFactories = map[string]func() (tfprotov6.ProviderServer, error){
	"agentregistry": providerserver.NewProtocol6WithError(New("test")()),
}

// providerConfig points the provider at a registry server started by the test.
func providerConfig(endpoint string) string {
	return fmt.Sprintf(`
provider "agentregistry" {
  endpoint = %q
  project  = "test-project"
}
`, endpoint)
}

// Functions need Terraform 1.8 or OpenTofu 1.7.
var functionVersionChecks = []tfversion.TerraformVersionCheck{tfversion.SkipBelow(tfversion.Version1_8_0)}

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
		TerraformVersionChecks:   functionVersionChecks,
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
