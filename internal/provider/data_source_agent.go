package provider

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
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

var agentNamePattern = regexp.MustCompile(`^projects/[^/]+/locations/[^/]+/agents/[^/]+$`)

func (d *agentDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_agent"
}

func (d *agentDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := agentResultAttributes()
	attrs["name"] = schema.StringAttribute{
		Optional: true,
		Computed: true,
		MarkdownDescription: "Full resource name of the agent, `projects/{project}/locations/{location}/agents/{agent_id}`, " +
			"such as the `registry_resource` of an `agentregistry_agent`. Exactly one of `name` and `service_id` is required.",
		Validators: []validator.String{stringvalidator.RegexMatches(agentNamePattern,
			"must be a full agent name, projects/{project}/locations/{location}/agents/{agent_id}")},
	}
	attrs["service_id"] = schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "Id of the service that registered the agent; the agent is the service's `registryResource`. " +
			"Looked up in `project` and `location`. Exactly one of `name` and `service_id` is required.",
	}
	attrs["project"] = schema.StringAttribute{
		Optional:            true,
		MarkdownDescription: "Project of the service named by `service_id`. Defaults to the provider's `project`.",
	}
	attrs["location"] = schema.StringAttribute{
		Optional:            true,
		MarkdownDescription: "Location of the service named by `service_id`. Defaults to the provider's `location`.",
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one agent of the registry, by its resource name or by the id of the service that " +
			"registered it. A missing agent is an error (`Agent Not Found`); use `agentregistry_agents` to test whether " +
			"agents exist.",
		Attributes: attrs,
	}
}

func (d *agentDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("name"), path.MatchRoot("service_id")),
	}
}

func (d *agentDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m agentDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !d.configured(&resp.Diagnostics) {
		return
	}
	name := m.Name.ValueString()
	if name == "" {
		svcName := d.data.parent(m.Project, m.Location) + "/services/" + m.ServiceID.ValueString()
		svc, err := d.data.Client.GetService(ctx, svcName)
		if registryclient.IsNotFound(err) {
			resp.Diagnostics.AddAttributeError(path.Root("service_id"), "Agent Not Found",
				fmt.Sprintf("No service %q exists, so it registers no agent. Check service_id, project and location.", svcName))
			return
		}
		if err != nil {
			resp.Diagnostics.AddError("Cannot Read Service", apiErrorDetail("read", svcName, err))
			return
		}
		if svc.RegistryResource == "" || !agentNamePattern.MatchString(svc.RegistryResource) {
			resp.Diagnostics.AddAttributeError(path.Root("service_id"), "Agent Not Found",
				fmt.Sprintf("Service %q registers no agent (its registryResource is %q). It may register an MCP server or "+
					"an endpoint instead; use agentregistry_mcp_servers for MCP servers.", svcName, svc.RegistryResource))
			return
		}
		name = svc.RegistryResource
	}
	a, err := d.data.Client.GetAgent(ctx, name)
	if registryclient.IsNotFound(err) {
		resp.Diagnostics.AddError("Agent Not Found",
			fmt.Sprintf("The registry has no agent %q. Check the name, or search with agentregistry_agents.", name))
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot Read Agent", apiErrorDetail("read", name, err))
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
