package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ datasource.DataSource              = (*agentsDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*agentsDataSource)(nil)
)

// NewAgentsDataSource is the agentregistry_agents data source.
func NewAgentsDataSource() datasource.DataSource { return &agentsDataSource{} }

type agentsDataSource struct{ dataSourceBase }

type agentsDataSourceModel struct {
	Query      types.String `tfsdk:"query"`
	MaxResults types.Int64  `tfsdk:"max_results"`
	Project    types.String `tfsdk:"project"`
	Location   types.String `tfsdk:"location"`
	Agents     types.List   `tfsdk:"agents"`
}

func (d *agentsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_agents"
}

func (d *agentsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Searches the registry's agents (`agents:search`) and returns every match, following " +
			"page tokens to the end, ordered by agent name. Use `agentregistry_skills` to find individual skills." +
			"\n\n" + pageCapsDoc,
		Attributes: map[string]schema.Attribute{
			"query": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: dsSearchGrammarDescription("agents", "`agentId`, `name`, `displayName`, `description`, `skills`, `skills.id`, `skills.name`, `skills.description`, `skills.tags`, `skills.examples`", "skills.tags=fx AND displayName:currency*"),
			},
			"max_results": dsMaxResultsAttribute("agents"),
			"project":     dsProjectAttribute(),
			"location":    dsLocationAttribute(),
			"agents": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The matching agents, ordered by `name`; an empty list when nothing matches.",
				NestedObject:        schema.NestedAttributeObject{Attributes: agentResultAttributes()},
			},
		},
	}
}

func (d *agentsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m agentsDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !d.configured(&resp.Diagnostics) {
		return
	}
	query := m.Query.ValueString()
	agents, err := d.data.Client.SearchAgents(ctx, d.data.parent(m.Project, m.Location), query, int(m.MaxResults.ValueInt64()))
	if err != nil {
		addSearchError(&resp.Diagnostics, "agents", query, err, "`max_results` or a narrower `query`")
		return
	}
	dsSortAgents(agents)
	elems := make([]attr.Value, 0, len(agents))
	for _, a := range agents {
		obj, diags := agentResultValue(a)
		resp.Diagnostics.Append(diags...)
		elems = append(elems, obj)
	}
	list, diags := types.ListValue(agentResultObjectType, elems)
	resp.Diagnostics.Append(diags...)
	m.Agents = list
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
