package provider

import (
	"context"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework/list"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
)

// NewMcpServerListResource returns the agentregistry_mcp_server list resource.
func NewMcpServerListResource() list.ListResource {
	return newServiceList[mcpServerModel, *mcpServerModel](NewMcpServerResource(), serviceListKind{
		plural:      "MCP servers",
		description: mcpServerListDescription,
		derived: func(ctx context.Context, c *registryclient.Client, parent string) iter.Seq2[[]derivedRecord, error] {
			return mapPages(c.McpServerPages(ctx, parent, listPageSize), mcpServerRecord)
		},
		query: searchquery.McpServers,
		search: func(ctx context.Context, c *registryclient.Client, parent, query string) iter.Seq2[[]derivedRecord, error] {
			return mapPages(c.SearchMcpServerPages(ctx, parent, query, listPageSize), mcpServerRecord)
		},
		searchMethod: "mcpServers:search",
	})
}

func mcpServerRecord(s *agentregistry.McpServer) derivedRecord {
	return derivedRecord{s.Name, s.McpServerId}
}

const mcpServerListDescription = "Lists the MCP servers registered in the Agent Registry (services with an " +
	"`mcpServerSpec`) for `terraform query` (Terraform 1.14 and later; OpenTofu has no `query` yet): each result has " +
	"the `agentregistry_mcp_server` identity (`service_id`, `project`, `location`) and the service's display name, " +
	"else its id. With `include_resource = true`, or with `-generate-config-out`, each result is the whole resource " +
	"as a read after an import stores it, so that the generated configuration plans no change; the tool spec is " +
	"written as `jsonencode({...})`.\n\n" +
	"`query` selects servers by their tools, such as `tools.name:forecast`. See the guide *Adopt an existing registry*."
