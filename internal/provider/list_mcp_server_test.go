package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// `query` selects MCP servers by their tools; a server without a tool spec
// has none to match.
func TestMcpServerListResource_query(t *testing.T) {
	r := startRegistry(t)
	seedAdoptable(t, r)
	l := newListRPC(t, r.URL)
	l.expectListed(t, "agentregistry_mcp_server", map[string]string{"query": "tools.name:read_file"}, true, "files-mcp")
	l.expectListed(t, "agentregistry_mcp_server", map[string]string{"query": "tools.name:nothing"}, true)
	l.expectListed(t, "agentregistry_mcp_server", map[string]string{"query": ""}, true, "bare-mcp", "files-mcp")
}

func TestAccMcpServerListResource_query(t *testing.T) {
	r := startRegistry(t)
	seedAdoptable(t, r)
	files := queryfilter.ByResourceIdentity(serviceIdentity("files-mcp"))
	queryTest(t, r, `
list "agentregistry_mcp_server" "all" {
  provider         = agentregistry
  include_resource = true
}
list "agentregistry_mcp_server" "readers" {
  provider = agentregistry
  config {
    query = "tools.name:read_file"
  }
}
`,
		querycheck.ExpectLength("agentregistry_mcp_server.all", 2),
		querycheck.ExpectIdentity("agentregistry_mcp_server.all", serviceIdentity("bare-mcp")),
		querycheck.ExpectIdentity("agentregistry_mcp_server.all", serviceIdentity("files-mcp")),
		querycheck.ExpectResourceDisplayName("agentregistry_mcp_server.all", files, knownvalue.StringExact("File Tools")),
		querycheck.ExpectResourceKnownValues("agentregistry_mcp_server.all", files, []querycheck.KnownValueCheck{
			{Path: tfjsonpath.New("tool_spec"), KnownValue: knownvalue.StringExact(
				`{"tools":[{"description":"Reads a file.","inputSchema":{"type":"object"},"name":"read_file"}]}`)},
			{Path: tfjsonpath.New("tool_names"), KnownValue: knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("read_file")})},
			{Path: tfjsonpath.New("description"), KnownValue: knownvalue.StringExact("Reads files.")},
		}),
		querycheck.ExpectResourceKnownValues("agentregistry_mcp_server.all", queryfilter.ByResourceIdentity(serviceIdentity("bare-mcp")),
			[]querycheck.KnownValueCheck{
				{Path: tfjsonpath.New("tool_spec"), KnownValue: knownvalue.Null()},
				{Path: tfjsonpath.New("interfaces").AtSliceIndex(0).AtMapKey("url"), KnownValue: knownvalue.StringExact("https://bare.example.com/mcp")},
			}),
		querycheck.ExpectLength("agentregistry_mcp_server.readers", 1),
		querycheck.ExpectIdentity("agentregistry_mcp_server.readers", serviceIdentity("files-mcp")),
	)
}
