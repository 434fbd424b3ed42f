package provider

import (
	"context"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"
)

var (
	_ datasource.DataSource              = (*mcpServersDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*mcpServersDataSource)(nil)
)

// NewMcpServersDataSource is the agentregistry_mcp_servers data source.
func NewMcpServersDataSource() datasource.DataSource { return &mcpServersDataSource{} }

type mcpServersDataSource struct{ dataSourceBase }

type mcpServersDataSourceModel struct {
	Query      types.String `tfsdk:"query"`
	MaxResults types.Int64  `tfsdk:"max_results"`
	Project    types.String `tfsdk:"project"`
	Location   types.String `tfsdk:"location"`
	McpServers types.List   `tfsdk:"mcp_servers"`
}

// mcpServersResultModel is one result of agentregistry_mcp_servers: an MCP
// server, and the service that registered it.
type mcpServersResultModel struct {
	mcpServerResultModel
	serviceIDsModel
}

var mcpServersResults = modelOf[mcpServersResultModel]()

func (d *mcpServersDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_mcp_servers"
}

func (d *mcpServersDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Searches the registry's MCP servers (`mcpServers:search`) and returns every match, " +
			"following page tokens to the end, ordered by name.\n\n" + dsSameConfigurationNote("MCP servers") +
			"\n\n" + pageCapsDoc + "\n\n" + resultCapsDoc,
		Attributes: map[string]schema.Attribute{
			"query": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: dsSearchGrammarDescription("MCP servers",
					"`mcpServerId`, `name`, `displayName`, `description`, `tools`, `tools.name`, `tools.description`", "tools.name:file* AND displayName:storage*") +
					" Omit it (or set it to null) to list every MCP server of `project` and `location` (`mcpServers.list`).",
			},
			"max_results": dsMaxResultsAttribute("MCP servers"),
			"project":     dsProjectAttribute(),
			"location":    dsLocationAttribute(),
			"mcp_servers": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The matching MCP servers, ordered by `name`; an empty list when nothing matches. " + dsIDsNote("mcp_server"),
				NestedObject:        schema.NestedAttributeObject{Attributes: withServiceIDAttributes(mcpServersResultAttributes(), "agentregistry_mcp_server")},
			},
		},
	}
}

func (d *mcpServersDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m mcpServersDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !d.configured(&resp.Diagnostics) {
		return
	}
	query := m.Query.ValueString()
	parent := d.data.parent(m.Project, m.Location)
	var servers []*agentregistry.McpServer
	var err error
	if query == "" {
		servers, err = d.data.Client.ListMcpServers(ctx, parent, "", int(m.MaxResults.ValueInt64()))
	} else {
		servers, err = d.data.Client.SearchMcpServers(ctx, parent, query, int(m.MaxResults.ValueInt64()))
	}
	if err != nil {
		addSearchError(&resp.Diagnostics, "MCP servers", query, err, "`max_results` or a narrower `query`")
		return
	}
	services := map[string]string{}
	if len(servers) > 0 {
		if services, err = d.serviceIndex(ctx, parent); err != nil {
			addSearchError(&resp.Diagnostics, "MCP servers", query, err, "`max_results` or a narrower `query`")
			return
		}
	}
	sort.SliceStable(servers, func(i, j int) bool { return servers[i].Name < servers[j].Name })
	results := make([]mcpServersResultModel, 0, len(servers))
	for _, s := range servers {
		results = append(results, mcpServersResultModel{flattenMcpServer(s), serviceIDsOf(s.Name, services[s.Name])})
	}
	if !withinResultCaps(&resp.Diagnostics, "MCP servers", results, "`max_results` or a narrower `query`") {
		return
	}
	m.McpServers = mcpServersResults.List(results)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// mcpServersResultAttributes are the attributes of one MCP server of the
// search, with the record's name described as what it is.
func mcpServersResultAttributes() map[string]schema.Attribute {
	attrs := mcpServerResultAttributes()
	attrs["name"] = schema.StringAttribute{Computed: true, MarkdownDescription: dsRecordNameDescription("MCP server", "mcpServers")}
	return attrs
}
