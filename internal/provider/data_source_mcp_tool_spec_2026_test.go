//go:build unix

package provider

import (
	"fmt"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// MCP 2026-07-28 through the CLI: servers that speak only 2026-07-28 (no
// initialize), built with the official Go SDK and TypeScript SDK v2 (npm,
// over HTTP and over stdio), read with protocol_version 2026-07-28, their
// tools registered as sent; and a 2026-07-28 tools/list result with its
// resultType, ttlMs, cacheScope and _meta passes validate_tool_spec and
// agentregistry_mcp_server as sent.
func TestAccMcpToolSpecDataSource_mcp20260728(t *testing.T) {
	goSDK := livedoctest.ServeMCPStateless(t, livedoctest.NewMCPServerSpeaking([]string{"2026-07-28"}, 2,
		livedoctest.NamedTools("a", "b", "c")...), nil)
	ts2 := livedoctest.ServeTS2HTTP(t)
	ts2Stdio := livedoctest.NodeScript(t, "ts2-server.mjs", "stdio")
	reg := startRegistry(t)
	asSent := `jsonencode({
    resultType = "complete", ttlMs = 300000, cacheScope = "private"
    _meta      = { "io.modelcontextprotocol/protocolVersion" = "2026-07-28" }
    tools = [{
      name  = "lookup"
      icons = [{ src = "https://example.com/l.png", theme = "light" }, { src = "https://example.com/d.png", theme = "dark" }]
      inputSchema = {
        "$schema" = "https://json-schema.org/draft/2020-12/schema", type = "object"
        "$defs"   = { id = { type = "string" } }, properties = { id = { "$ref" = "#/$defs/id" } }
        unevaluatedProperties = false
      }
    }]
  })`
	config := testkit.ProviderConfig(reg.URL) +
		toolDS("go_sdk", fmt.Sprintf("url = %q", goSDK.URL)) +
		toolDS("ts2", fmt.Sprintf("url = %q\ntimeout = \"1m\"", ts2)) +
		toolDS("ts2_stdio", fmt.Sprintf("command = %s\ntimeout = \"1m\"", hclList(ts2Stdio))) + `
resource "agentregistry_mcp_server" "ts2" {
  service_id = "ts2-weather"
  tool_spec  = data.agentregistry_mcp_tool_spec.ts2.json
}
resource "agentregistry_mcp_server" "as_sent" {
  service_id = "as-sent-2026"
  tool_spec  = ` + asSent + `
}
output "as_sent_problems" {
  value = provider::agentregistry::validate_tool_spec(` + asSent + `)
}`
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   requires(capFunctions),
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				toolValue("go_sdk", "protocol_version", knownvalue.StringExact("2026-07-28")),
				toolValue("go_sdk", "tool_names", resStrings("a", "b", "c")),
				toolValue("ts2", "protocol_version", knownvalue.StringExact("2026-07-28")),
				toolValue("ts2", "server_name", knownvalue.StringExact("ts2-test-server")),
				toolValue("ts2", "tool_names", resStrings("get_weather", "echo")),
				toolValue("ts2_stdio", "protocol_version", knownvalue.StringExact("2026-07-28")),
				toolValue("ts2_stdio", "tool_names", resStrings("get_weather", "echo")),
				statecheck.ExpectKnownValue("agentregistry_mcp_server.ts2", tfjsonpath.New("tool_names"), resStrings("get_weather", "echo")),
				statecheck.ExpectKnownValue("agentregistry_mcp_server.as_sent", tfjsonpath.New("tool_names"), resStrings("lookup")),
				statecheck.ExpectKnownOutputValue("as_sent_problems", knownvalue.ListSizeExact(0)),
			},
		}},
	})
}
