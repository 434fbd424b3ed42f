package provider

import (
	"context"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"google.golang.org/api/agentregistry/v1"
)

var (
	_ datasource.DataSource                     = (*agentDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*agentDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*agentDataSource)(nil)
)

// NewAgentDataSource is the agentregistry_agent data source.
func NewAgentDataSource() datasource.DataSource { return &agentDataSource{} }

type agentDataSource struct{ dataSourceBase }

var agentLookup = derivedLookup{title: "Agent", noun: "agent", collection: "agents", plural: "agentregistry_agents",
	find: func(ctx context.Context, c *registryclient.Client, parent, filter string, limit int) ([]string, error) {
		return namesBy(func(r *agentregistry.Agent) string { return r.Name })(c.ListAgents(ctx, parent, filter, limit))
	}}

func (d *agentDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_agent"
}

func (d *agentDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := agentLookup.selectorAttributes(agentResultAttributes())
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one agent of the registry, by its resource name, by the id of the service that " +
			"registered it, or by a filter that matches it alone (as the Google provider's `google_agent_registry_agent` " +
			"does). A missing agent is an error (`Agent Not Found`); use `agentregistry_agents` to test whether " +
			"agents exist." +
			"\n\n" + pageCapsDoc + "\n\n" + resultCapsDoc,
		Attributes: attrs,
	}
}

func (d *agentDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return agentLookup.configValidators()
}

func (d *agentDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	sel := readSelector(ctx, req.Config, &resp.Diagnostics)
	if resp.Diagnostics.HasError() || !d.configured(&resp.Diagnostics) {
		return
	}
	name := agentLookup.resolve(ctx, d.data, sel, &resp.Diagnostics)
	if name == "" {
		return
	}
	a, err := d.data.Client.GetAgent(ctx, name)
	if err != nil {
		agentLookup.readError(&resp.Diagnostics, name, err)
		return
	}
	result := flattenAgent(a)
	if !withinResultCaps(&resp.Diagnostics, name, result, "") {
		return
	}
	resp.Diagnostics.Append(setLookupResult(ctx, &resp.State, sel, agentResults.Object(result))...)
}
