package provider

// State upgrades of the service resources. Schema version 0 (the first
// release) kept a copy of every skill (agentregistry_agent.skills) or tool
// (agentregistry_mcp_server.tools) beside the document; version 1 keeps the
// document once and derives small values from it (skill_ids, urls, version;
// tool_names). The upgrade derives them from the document in the state: no API
// call, and the next plan is empty.

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsondoc"
)

// serviceModelV0 is the shared attributes at schema version 0, where only
// the MCP server had interfaces.
type serviceModelV0 struct {
	ID               types.String   `tfsdk:"id"`
	Name             types.String   `tfsdk:"name"`
	ServiceID        types.String   `tfsdk:"service_id"`
	Project          types.String   `tfsdk:"project"`
	Location         types.String   `tfsdk:"location"`
	DisplayName      types.String   `tfsdk:"display_name"`
	Description      types.String   `tfsdk:"description"`
	RegistryResource types.String   `tfsdk:"registry_resource"`
	CreateTime       types.String   `tfsdk:"create_time"`
	UpdateTime       types.String   `tfsdk:"update_time"`
	Timeouts         timeouts.Value `tfsdk:"timeouts"`
}

// current is the shared attributes of today's schema, with these interfaces.
func (v serviceModelV0) current(interfaces types.List) serviceModel {
	return serviceModel{ID: v.ID, Name: v.Name, ServiceID: v.ServiceID, Project: v.Project, Location: v.Location,
		DisplayName: v.DisplayName, Description: v.Description, Interfaces: interfaces,
		RegistryResource: v.RegistryResource, CreateTime: v.CreateTime, UpdateTime: v.UpdateTime, Timeouts: v.Timeouts}
}

// agentModelV0 is agentregistry_agent's state at schema version 0.
type agentModelV0 struct {
	serviceModelV0
	AgentCard  jsondoc.Value `tfsdk:"agent_card"`
	AgentID    types.String  `tfsdk:"agent_id"`
	A2AVersion types.String  `tfsdk:"a2a_version"`
	Skills     types.List    `tfsdk:"skills"`
}

// mcpServerModelV0 is agentregistry_mcp_server's state at schema version 0.
type mcpServerModelV0 struct {
	serviceModelV0
	Interfaces  types.List    `tfsdk:"interfaces"`
	ToolSpec    jsondoc.Value `tfsdk:"tool_spec"`
	McpServerID types.String  `tfsdk:"mcp_server_id"`
	Tools       types.List    `tfsdk:"tools"`
}

func agentStateUpgraders(ctx context.Context) map[int64]resource.StateUpgrader {
	v0 := priorSchema(agentSchema(ctx), []string{"version", "urls", "skill_ids", "signature_policy", "verified_key_ids", "interfaces",
		"signing_key_wo", "signing_key_wo_version"}, "skills", skillObjectType)
	return upgradeFromV0(v0, func(old *agentModelV0) agentModel {
		return agentModel{serviceModel: old.current(types.ListNull(interfaceObjectType)), AgentCard: old.AgentCard, AgentID: old.AgentID}
	})
}

func mcpServerStateUpgraders(ctx context.Context) map[int64]resource.StateUpgrader {
	v0 := priorSchema(mcpServerSchema(ctx), []string{"tool_names", "tool_digests", "approved_tools", "approval_policy"}, "tools", toolObjectType)
	return upgradeFromV0(v0, func(old *mcpServerModelV0) mcpServerModel {
		return mcpServerModel{serviceModel: old.current(old.Interfaces), ToolSpec: old.ToolSpec, McpServerID: old.McpServerID}
	})
}

// upgradeFromV0 is the upgrader from schema version 0: it reads the prior
// state (V0), keeps what convert carries over, and derives the rest from the
// documents.
func upgradeFromV0[V0, M any, P kindModel[M]](prior schema.Schema, convert func(*V0) M) map[int64]resource.StateUpgrader {
	return map[int64]resource.StateUpgrader{0: {
		PriorSchema: &prior,
		StateUpgrader: func(ctx context.Context, req resource.UpgradeStateRequest, resp *resource.UpgradeStateResponse) {
			var old V0
			resp.Diagnostics.Append(req.State.Get(ctx, &old)...)
			if resp.Diagnostics.HasError() {
				return
			}
			m := convert(&old)
			resp.Diagnostics.Append(P(&m).setDerived()...)
			resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
		},
	}}
}

// priorSchema is the version-0 schema: the current one without the derived
// attributes of version 1, and with the computed list they replaced.
func priorSchema(current schema.Schema, added []string, list string, elem types.ObjectType) schema.Schema {
	prior := current
	prior.Version = 0
	prior.Attributes = maps.Clone(current.Attributes)
	for _, name := range added {
		delete(prior.Attributes, name)
	}
	prior.Attributes[list] = schema.ListAttribute{Computed: true, ElementType: elem}
	return prior
}
