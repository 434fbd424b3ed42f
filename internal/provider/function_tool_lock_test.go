package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/toollock"
)

// lockedSpec is a tool spec; lockedSpecReordered the same tools with other
// key order, spacing and number spelling.
const (
	lockedSpec          = `{"tools":[{"name":"get_invoice","description":"Fetches an invoice.","inputSchema":{"type":"object","properties":{"n":{"type":"integer","maximum":10}}}}]}`
	lockedSpecReordered = `{ "tools": [ { "inputSchema": { "properties": { "n": { "maximum": 1e1, "type": "integer" } }, "type": "object" }, "description": "Fetches an invoice.", "name": "get_invoice" } ] }`
)

// tool_lock through the CLI: the lock of the package (byte for byte), the
// same for the same tools written another way, and an invalid spec refused
// with its problems.
func TestAccFunction_toolLock(t *testing.T) {
	want, err := toollock.Make([]byte(lockedSpec))
	if err != nil {
		t.Fatal(err)
	}
	resource.UnitTest(t, resource.TestCase{
		TerraformVersionChecks:   requires(capFunctions),
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: `
output "lock" {
  value = provider::agentregistry::tool_lock(` + hclString(lockedSpec) + `)
}
output "reordered" {
  value = provider::agentregistry::tool_lock(` + hclString(lockedSpecReordered) + `)
}
output "digest" {
  value = jsondecode(provider::agentregistry::tool_lock(` + hclString(lockedSpec) + `)).tools.get_invoice.sha256
}
`,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("lock", knownvalue.StringExact(string(want))),
				statecheck.ExpectKnownOutputValue("reordered", knownvalue.StringExact(string(want))),
				statecheck.ExpectKnownOutputValue("digest", knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f]{64}$`))),
			},
		}, {
			Config: `
output "bad" {
  value = provider::agentregistry::tool_lock(jsonencode({ tools = [{ name = "x", inputSchema = { type = "array" } }] }))
}
`,
			ExpectError: regexp.MustCompile(`(?s)MCP Tool Spec has 1 problem.*/tools/0/inputSchema/type.*A lock is made of a valid tool spec`),
		}},
	})
}
