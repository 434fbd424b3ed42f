package provider

// State upgrades of the service resources. Schema version 0 (the first
// release) kept a copy of every skill (agentregistry_agent.skills) or tool
// (agentregistry_mcp_server.tools) beside the document; version 1 keeps the
// document once and derives small values from it (skill_ids, urls, version;
// tool_names). The upgrade derives them from the document in the state: no API
// call, and the next plan is empty. What every kind shares is here; each
// kind's version-0 model and upgraders are in the kind's file.

import (
	"context"
	"maps"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
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
