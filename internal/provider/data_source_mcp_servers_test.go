package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func TestAccMcpServersDataSource(t *testing.T) {
	reg := startRegistry(t)
	seedCatalog(reg)
	reg.mcpServer("tickets-mcp", "Ticket Tools", "Opens and closes tickets.", "https://tickets.example.com/mcp",
		[]map[string]any{{"name": "open_ticket", "description": "Opens a ticket.", "inputSchema": map[string]any{"type": "object"}}})
	files := knownvalue.ObjectExact(map[string]knownvalue.Check{
		"name":          knownvalue.StringExact(testParent + "/mcpServers/files-mcp"),
		"service_id":    knownvalue.StringExact("files-mcp"),
		"project":       knownvalue.StringExact("test-project"),
		"location":      knownvalue.StringExact("global"),
		"mcp_server_id": knownvalue.StringExact(testURN("mcp", "files-mcp")),
		"urn":           knownvalue.StringExact(testURN("mcp", "files-mcp")),
		"attributes":    runtimeReference("files-mcp"),
		"display_name":  knownvalue.StringExact("File Tools"),
		"description":   knownvalue.StringExact("Reads and writes files in a workspace."),
		"urls":          knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("https://files.example.com/mcp")}),
		"create_time":   knownvalue.NotNull(),
		"update_time":   knownvalue.NotNull(),
		// The bundled server's RuntimeReference names the service behind the record.
		"attributes_json": knownvalue.StringExact(`{"agentregistry.googleapis.com/system/RuntimeReference":{"uri":"//agentregistry.googleapis.com/projects/test-project/locations/global/services/files-mcp"}}`),
		"interfaces": knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
			"url":              knownvalue.StringExact("https://files.example.com/mcp"),
			"protocol_binding": knownvalue.StringExact("JSONRPC"),
		})}),
		"tools": knownvalue.ListExact([]knownvalue.Check{
			knownvalue.ObjectExact(map[string]knownvalue.Check{
				"name":             knownvalue.StringExact("read_file"),
				"title":            knownvalue.StringExact("Read file"),
				"description":      knownvalue.StringExact("Reads a file."),
				"read_only_hint":   knownvalue.Bool(true),
				"destructive_hint": knownvalue.Bool(true),
				"idempotent_hint":  knownvalue.Bool(false),
				"open_world_hint":  knownvalue.Bool(false),
			}),
			// No annotations: the MCP defaults.
			knownvalue.ObjectExact(map[string]knownvalue.Check{
				"name":             knownvalue.StringExact("write_file"),
				"title":            knownvalue.StringExact(""),
				"description":      knownvalue.StringExact("Writes a file."),
				"read_only_hint":   knownvalue.Bool(false),
				"destructive_hint": knownvalue.Bool(true),
				"idempotent_hint":  knownvalue.Bool(false),
				"open_world_hint":  knownvalue.Bool(true),
			}),
		}),
	})
	config := reg.config(`
data "agentregistry_mcp_servers" "files" {
  query = "tools.name:read_file"
}
data "agentregistry_mcp_servers" "all" {
  query = "tools:file* OR displayName:ticket"
}
data "agentregistry_mcp_servers" "first" {
  query       = "tools:file* OR displayName:ticket"
  max_results = 1
}
data "agentregistry_mcp_servers" "none" {
  query = "submarine"
}
`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.agentregistry_mcp_servers.files", tfjsonpath.New("mcp_servers"),
					knownvalue.ListExact([]knownvalue.Check{files})),
				statecheck.ExpectKnownValue("data.agentregistry_mcp_servers.all", tfjsonpath.New("mcp_servers"),
					knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"mcp_server_id": knownvalue.StringExact(testURN("mcp", "files-mcp"))}),
						knownvalue.ObjectPartial(map[string]knownvalue.Check{"mcp_server_id": knownvalue.StringExact(testURN("mcp", "tickets-mcp"))}),
					})),
				statecheck.ExpectKnownValue("data.agentregistry_mcp_servers.first", tfjsonpath.New("mcp_servers"), knownvalue.ListSizeExact(1)),
				statecheck.ExpectKnownValue("data.agentregistry_mcp_servers.none", tfjsonpath.New("mcp_servers"), knownvalue.ListSizeExact(0)),
			},
		}, {
			Config:   config,
			PlanOnly: true,
		}},
	})
}

func TestAccMcpServersDataSource_invalidQuery(t *testing.T) {
	reg := startRegistry(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: reg.config(`
data "agentregistry_mcp_servers" "bad" {
  query = "skills.tags=fx"
}
`),
			ExpectError: regexp.MustCompile(`(?s)Invalid Search Query.*unknown field\s+"skills.tags"`),
		}},
	})
}
