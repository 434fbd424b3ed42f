//go:build unix

package provider

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
)

// hclList writes a list of strings as HCL.
func hclList(ss []string) string {
	quoted := make([]string, len(ss))
	for i, s := range ss {
		quoted[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

// The stdio transport through the CLI: the real server-memory published on
// npm (installed by the test), started from command, with env and
// working_dir, and its tools fed to a registered MCP server.
func TestAccMcpToolSpecDataSource_stdio(t *testing.T) {
	dir := t.TempDir()
	memory := livedoctest.NPMBin(t, "@modelcontextprotocol/server-memory", "dist/index.js")
	reg := startRegistry(t)
	config := providerConfig(reg.URL) + toolDS("memory", fmt.Sprintf(`command     = %s
env         = { MEMORY_FILE_PATH = %q }
working_dir = %q
timeout     = "1m"
include_tools = ["create_*", "read_graph"]
drop_output_schemas = true`, hclList(memory), filepath.Join(dir, "memory.jsonl"), dir)) + `
resource "agentregistry_mcp_server" "memory" {
  service_id = "memory-stdio"
  tool_spec  = data.agentregistry_mcp_tool_spec.memory.json
}`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				toolValue("memory", "tool_names", resStrings("create_entities", "create_relations", "read_graph")),
				toolValue("memory", "server_name", knownvalue.StringExact("memory-server")),
				toolValue("memory", "protocol_version", knownvalue.StringExact("2025-11-25")),
				statecheck.ExpectKnownValue("agentregistry_mcp_server.memory", tfjsonpath.New("tool_names"),
					resStrings("create_entities", "create_relations", "read_graph")),
			},
		}},
	})
}

func TestAccMcpToolSpecDataSource_stdioRefusals(t *testing.T) {
	step := func(body string, want ...string) resource.TestStep {
		return resource.TestStep{Config: toolDS("x", body), ExpectError: relWords(want...)}
	}
	exits := `command = ["sh", "-c", "echo 'fatal: MEMORY_API_TOKEN is not set' >&2; exit 3"]`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			step(exits, "Cannot Read MCP Tool List", `the MCP server "sh" (run as a process) exited (exit status 3) before answering`,
				"the end of its stderr:", "fatal: MEMORY_API_TOKEN is not set"),
			step(`command = ["no-such-mcp-server-program"]`, `the program "no-such-mcp-server-program" was not found in PATH`),
			step(`timeout = "5s"`, "Missing Attribute Configuration", "Exactly one of these attributes must be configured: [url,command]"),
			step(`url = "https://mcp.example.com/mcp"
command = ["true"]`, "Invalid Attribute Combination", "url", "command"),
			step(`command = ["true"]
headers = { Authorization = "Bearer x" }`, "Invalid Attribute Combination", "headers"),
			step(`url = "https://mcp.example.com/mcp"
env = { A = "b" }`, "Invalid Attribute Combination", "env"),
			step(`command = []`, "command", "at least 1"),
			step(`command = ["true"]
working_dir = ""`, "Empty Value", "working_dir must not be empty"),
		},
	})
}
