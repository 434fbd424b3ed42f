package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

func TestAccFunction_validateToolSpec(t *testing.T) {
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   requires(capFunctions),
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
output "good" {
  value = provider::agentregistry::validate_tool_spec(jsonencode({
    tools = [{
      name        = "get_invoice"
      title       = "Get invoice"
      description = "Fetches an invoice by number."
      inputSchema = {
        type       = "object"
        properties = { number = { type = "string" } }
        required   = ["number"]
      }
      annotations = { readOnlyHint = true, openWorldHint = false }
    }]
    nextCursor = "page-2"
  }))
}
output "bad" {
  value = provider::agentregistry::validate_tool_spec(jsonencode({
    tools = [
      { name = "no_schema" },
      { name = "array_schema", inputSchema = { type = "array" } },
    ]
  }))
}
output "not_json" {
  value = provider::agentregistry::validate_tool_spec("{\"tools\": [")
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("good", knownvalue.ListSizeExact(0)),
				// Every problem of the document, not only the first.
				statecheck.ExpectKnownOutputValue("bad", knownvalue.ListExact([]knownvalue.Check{
					knownvalue.StringRegexp(regexp.MustCompile(`/tools/0`)),
					knownvalue.StringRegexp(regexp.MustCompile(`/tools/1/inputSchema`)),
				})),
				statecheck.ExpectKnownOutputValue("not_json", knownvalue.ListPartial(map[int]knownvalue.Check{
					0: knownvalue.StringRegexp(regexp.MustCompile(`.+`)),
				})),
			},
		}},
	})
}
