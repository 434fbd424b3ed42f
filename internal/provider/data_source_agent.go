package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ datasource.DataSource                     = (*agentDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*agentDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*agentDataSource)(nil)
)

// NewAgentDataSource is the agentregistry_agent data source.
func NewAgentDataSource() datasource.DataSource { return &agentDataSource{} }

type agentDataSource struct{ dataSourceBase }

type agentDataSourceModel struct {
	Name        types.String `tfsdk:"name"`
	ServiceID   types.String `tfsdk:"service_id"`
	Project     types.String `tfsdk:"project"`
	Location    types.String `tfsdk:"location"`
	AgentID     types.String `tfsdk:"agent_id"`
	DisplayName types.String `tfsdk:"display_name"`
	Description types.String `tfsdk:"description"`
	Version     types.String `tfsdk:"version"`
	URLs        types.List   `tfsdk:"urls"`
	Skills      types.List   `tfsdk:"skills"`
	CardJSON    types.String `tfsdk:"card_json"`
}

var agentLookup = derivedLookup{title: "Agent", noun: "agent", collection: "agents", idAttr: "agent_id", plural: "agentregistry_agents"}

func (d *agentDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_agent"
}

func (d *agentDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := agentLookup.selectorAttributes(agentResultAttributes())
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one agent of the registry, by its resource name or by the id of the service that " +
			"registered it. A missing agent is an error (`Agent Not Found`); use `agentregistry_agents` to test whether " +
			"agents exist.",
		Attributes: attrs,
	}
}

func (d *agentDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return agentLookup.configValidators()
}

func (d *agentDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m agentDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !d.configured(&resp.Diagnostics) {
		return
	}
	sel := lookupSelector{Name: m.Name, ServiceID: m.ServiceID, Project: m.Project, Location: m.Location}
	name := agentLookup.resolve(ctx, d.data, sel, &resp.Diagnostics)
	if name == "" {
		return
	}
	a, err := d.data.Client.GetAgent(ctx, name)
	if err != nil {
		agentLookup.readError(&resp.Diagnostics, name, err)
		return
	}
	obj, diags := agentResultValue(a)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	v := obj.Attributes()
	m.Name = v["name"].(types.String)
	m.AgentID = v["agent_id"].(types.String)
	m.DisplayName = v["display_name"].(types.String)
	m.Description = v["description"].(types.String)
	m.Version = v["version"].(types.String)
	m.URLs = v["urls"].(types.List)
	m.Skills = v["skills"].(types.List)
	m.CardJSON = v["card_json"].(types.String)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
