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

// dsSameConfigurationNote is the part of a search data source's page that
// says when to use it and when provider::agentregistry::search_cards.
func dsSameConfigurationNote(what string) string {
	own := "search its own cards with the function `provider::agentregistry::search_cards` instead: the same " +
		"grammar, evaluated by the same code as the registry's search, with a result known at plan. "
	if what != "agents" {
		own = "filter its own resources instead (a `for` expression over them: their `tool_names`, `display_name` " +
			"and ids are known at plan). "
	}
	return "**For what other configurations registered.** To find among the " + what + " that this configuration " +
		"registers itself, " + own +
		"A data source that reads what the same configuration registers needs `depends_on` on those resources (without " +
		"it, the first apply reads before they exist and finds nothing), and `depends_on` defers the read to apply " +
		"time whenever one of them has a pending change: its result is then unknown at plan, so it **cannot drive " +
		"`for_each` or `count`** (\"Invalid for_each argument\"), and every resource that uses it plans an update that " +
		"does nothing (`(known after apply)`), which a drift job reports as a change. Read " + what + " registered " +
		"by another root module with a data source and no `depends_on`: the read then runs at plan and changes only " +
		"when the registry does."
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

// dsRecordNameDescription describes the name of a derived record.
func dsRecordNameDescription(noun, collection string) string {
	return "The " + noun + "'s resource name, `projects/{project}/locations/{location}/" + collection + "/{id}`: the " +
		"read-only record the registry derives from the service that registered it (that service's " +
		"`registryResource`). Its `{id}` is the registry's: the bundled server uses the service id, Google's registry " +
		"may not; an import or a reference to the registering resource takes `service_id`."
}

// dsIDsNote says how the ids of a search result relate.
func dsIDsNote(kind string) string {
	return "Each result names its record three ways: `service_id` (with `project` and `location`) is the service " +
		"that registered it, the `service_id` of the `agentregistry_" + kind + "` resource and of its import identity; " +
		"`name` is the derived record's resource name (that resource's `registry_resource`); `" + kind + "_id` (also " +
		"`urn`) is the registry's URN, the resource's `" + kind + "_id`, which a binding's `source` and `target` take."
}
