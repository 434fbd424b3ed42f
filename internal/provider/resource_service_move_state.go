package provider

// `moved { from = google_agent_registry_service.x  to = agentregistry_agent.x }`:
// the Google provider's resource manages the same registry Service, so its
// state maps onto ours with no API call. The source state is read from its raw
// JSON rather than through its schema, so that the move needs no copy of the
// Google provider's schema; only the attributes we map are read. The shared
// attributes are mapped here, each kind's own by its model (fromGoogle, in
// the kind's file).

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

const googleServiceType = "google_agent_registry_service"

// googleService is the part of a google_agent_registry_service state (schema
// version 0) that this provider takes over.
type googleService struct {
	Name             string        `json:"name"`
	ServiceID        string        `json:"service_id"`
	Project          string        `json:"project"`
	Location         string        `json:"location"`
	DisplayName      string        `json:"display_name"`
	Description      string        `json:"description"`
	RegistryResource string        `json:"registry_resource"`
	CreateTime       string        `json:"create_time"`
	UpdateTime       string        `json:"update_time"`
	AgentSpec        []googleSpec  `json:"agent_spec"`
	McpServerSpec    []googleSpec  `json:"mcp_server_spec"`
	EndpointSpec     []googleSpec  `json:"endpoint_spec"`
	Interfaces       []googleIface `json:"interfaces"`
}

type googleSpec struct {
	Type    string `json:"type"`
	Content string `json:"content"`
}

type googleIface struct {
	URL             string `json:"url"`
	ProtocolBinding string `json:"protocol_binding"`
}

func (r *serviceResource[M, P]) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{{StateMover: r.moveFromGoogle}}
}

// moveFromGoogle takes over a google_agent_registry_service of the same kind; a
// move from any other resource type is left to the framework, which reports it
// as unsupported.
func (r *serviceResource[M, P]) moveFromGoogle(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
	if req.SourceTypeName != googleServiceType || !isGoogleProvider(req.SourceProviderAddress) || req.SourceRawState == nil {
		return
	}
	var g googleService
	if err := json.Unmarshal(req.SourceRawState.JSON, &g); err != nil {
		resp.Diagnostics.AddError("Cannot Read the Moved State",
			fmt.Sprintf("The state of %s could not be read: %v. This is a bug in the provider or an unknown "+
				"schema version of %s; please report it, and use `import` meanwhile.", googleServiceType, err, googleServiceType))
		return
	}
	if kind := g.kind(); kind != r.naming.typeSuffix {
		resp.Diagnostics.AddError("Moved Service Is Another Kind",
			fmt.Sprintf("The service %s is %s, not %s: move it to agentregistry_%s instead.",
				g.Name, serviceKindNoun(kind), serviceKindNoun(r.naming.typeSuffix), kind))
		return
	}
	var m M
	p := P(&m)
	base, diags := g.serviceModel(ctx)
	*p.service() = base
	*p.derivedRecordID() = types.StringValue(lastSegment(g.RegistryResource))
	resp.Diagnostics.Append(diags...)
	p.fromGoogle(&g)
	resp.Diagnostics.Append(p.setDerived()...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.TargetState.Set(ctx, &m)...)
	resp.Diagnostics.Append(r.naming.setIdentityOf(ctx, resp.TargetIdentity, g.Name)...)
}

// serviceModel maps the shared attributes. The Google provider stores an
// unset display name or description as "", this provider as null: "" becomes
// null so that a configuration without them plans no change.
func (g *googleService) serviceModel(ctx context.Context) (serviceModel, diag.Diagnostics) {
	interfaces, diags := g.interfaces(ctx)
	return serviceModel{
		ID:               types.StringValue(g.Name),
		Name:             types.StringValue(g.Name),
		ServiceID:        types.StringValue(g.ServiceID),
		Project:          types.StringValue(g.Project),
		Location:         types.StringValue(g.Location),
		DisplayName:      optionalString(g.DisplayName),
		Description:      optionalString(g.Description),
		Interfaces:       interfaces,
		RegistryResource: types.StringValue(g.RegistryResource),
		CreateTime:       types.StringValue(g.CreateTime),
		UpdateTime:       types.StringValue(g.UpdateTime),
		// The Google provider's timeouts are its own; the configuration's apply after the move.
		Timeouts: timeouts.Value{Object: types.ObjectNull(map[string]attr.Type{
			"create": types.StringType, "update": types.StringType, "delete": types.StringType,
		})},
	}, diags
}

// interfaces maps the Google provider's interfaces blocks; none is null.
func (g *googleService) interfaces(ctx context.Context) (types.List, diag.Diagnostics) {
	if len(g.Interfaces) == 0 {
		return types.ListNull(interfaceObjectType), nil
	}
	models := make([]interfaceModel, len(g.Interfaces))
	for i, in := range g.Interfaces {
		models[i] = interfaceModel{URL: types.StringValue(in.URL), ProtocolBinding: types.StringValue(in.ProtocolBinding)}
	}
	return types.ListValueFrom(ctx, interfaceObjectType, models)
}
