package provider

import (
	"context"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"google.golang.org/api/agentregistry/v1"
)

var (
	_ datasource.DataSource                     = (*mcpServerDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*mcpServerDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*mcpServerDataSource)(nil)
)

// NewMcpServerDataSource is the agentregistry_mcp_server data source.
func NewMcpServerDataSource() datasource.DataSource { return &mcpServerDataSource{} }

type mcpServerDataSource struct{ dataSourceBase }

var mcpServerLookup = derivedLookup{title: "MCP Server", noun: "MCP server", collection: "mcpServers", plural: "agentregistry_mcp_servers",
	find: func(ctx context.Context, c *registryclient.Client, parent, filter string, limit int) ([]string, error) {
		return namesBy(func(r *agentregistry.McpServer) string { return r.Name })(c.ListMcpServers(ctx, parent, filter, limit))
	}}

func (d *mcpServerDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_mcp_server"
}

func (d *mcpServerDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one MCP server of the registry (the derived `McpServer` record), by its resource name " +
			"or by the id of the service that registered it: its interfaces and its tools, typed. A missing MCP server is " +
			"an error (`MCP Server Not Found`); use `agentregistry_mcp_servers` to test whether MCP servers exist." +
			"\n\n" + pageCapsDoc + "\n\n" + resultCapsDoc,
		Attributes: mcpServerLookup.selectorAttributes(mcpServerResultAttributes()),
	}
}

func (d *mcpServerDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return mcpServerLookup.configValidators()
}

func (d *mcpServerDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	sel := readSelector(ctx, req.Config, &resp.Diagnostics)
	if resp.Diagnostics.HasError() || !d.configured(&resp.Diagnostics) {
		return
	}
	name := mcpServerLookup.resolve(ctx, d.data, sel, &resp.Diagnostics)
	if name == "" {
		return
	}
	s, err := d.data.Client.GetMcpServer(ctx, name)
	if err != nil {
		mcpServerLookup.readError(&resp.Diagnostics, name, err)
		return
	}
	result := flattenMcpServer(s)
	if !withinResultCaps(&resp.Diagnostics, name, result, "") {
		return
	}
	resp.Diagnostics.Append(setLookupResult(ctx, &resp.State, sel, mcpServerResults.Object(result))...)
}
