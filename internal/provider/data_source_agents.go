package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"
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
			"page tokens to the end, ordered by agent name. Use `agentregistry_skills` to find individual skills.\n\n" +
			dsSameConfigurationNote("agents") +
			"\n\n" + pageCapsDoc + "\n\n" + resultCapsDoc,
		Attributes: map[string]schema.Attribute{
			"query": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: dsSearchGrammarDescription("agents", "`agentId`, `name`, `displayName`, `description`, `skills`, `skills.id`, `skills.name`, `skills.description`, `skills.tags`, `skills.examples`", "skills.tags=fx AND displayName:currency*") +
					" Omit it (or set it to null) to list every agent of `project` and `location` (`agents.list`).",
			},
			"max_results": dsMaxResultsAttribute("agents"),
			"project":     dsProjectAttribute(),
			"location":    dsLocationAttribute(),
			"agents": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The matching agents, ordered by `name`; an empty list when nothing matches. " + dsIDsNote("agent"),
				NestedObject:        schema.NestedAttributeObject{Attributes: withServiceIDAttributes(agentsResultAttributes(), "agentregistry_agent")},
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
	parent := d.data.parent(m.Project, m.Location)
	var agents []*agentregistry.Agent
	var err error
	if query == "" {
		agents, err = d.data.Client.ListAgents(ctx, parent, "", int(m.MaxResults.ValueInt64()))
	} else {
		agents, err = d.data.Client.SearchAgents(ctx, parent, query, int(m.MaxResults.ValueInt64()))
	}
	if err != nil {
		addSearchError(&resp.Diagnostics, "agents", query, err, "`max_results` or a narrower `query`")
		return
	}
	services := map[string]string{}
	if len(agents) > 0 {
		if services, err = d.serviceIndex(ctx, parent); err != nil {
			addSearchError(&resp.Diagnostics, "agents", query, err, "`max_results` or a narrower `query`")
			return
		}
	}
	dsSortAgents(agents)
	results := make([]agentsResultModel, 0, len(agents))
	for _, a := range agents {
		results = append(results, agentsResultModel{flattenAgent(a), serviceIDsOf(a.Name, services[a.Name])})
	}
	if !withinResultCaps(&resp.Diagnostics, "agents", results, "`max_results` or a narrower `query`") {
		return
	}
	m.Agents = agentsResults.List(results)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// agentsResultModel is one result of agentregistry_agents: an agent, and the
// service that registered it.
type agentsResultModel struct {
	agentResultModel
	serviceIDsModel
}

var agentsResults = modelOf[agentsResultModel]()

// agentsResultAttributes are the attributes of one agent of the search, with
// the record's name described as what it is.
func agentsResultAttributes() map[string]schema.Attribute {
	attrs := agentResultAttributes()
	attrs["name"] = schema.StringAttribute{Computed: true, MarkdownDescription: dsRecordNameDescription("agent", "agents")}
	return attrs
}
