package provider

// `moved { from = google_agent_registry_binding.x  to = agentregistry_binding.x }`:
// the Google provider's resource manages the same registry Binding, so its
// state maps onto ours with no API call. Its raw JSON is read (no copy of the
// Google provider's schema is needed); only the attributes we map are read.

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"
)

const googleBindingType = "google_agent_registry_binding"

var _ resource.ResourceWithMoveState = (*bindingResource)(nil)

// googleBinding is the part of a google_agent_registry_binding state (schema
// version 0) that this provider takes over.
type googleBinding struct {
	Name        string `json:"name"`
	DisplayName string `json:"display_name"`
	Description string `json:"description"`
	CreateTime  string `json:"create_time"`
	UpdateTime  string `json:"update_time"`
	Source      []struct {
		Identifier string `json:"identifier"`
	} `json:"source"`
	Target []struct {
		Identifier string `json:"identifier"`
	} `json:"target"`
	AuthProviderBinding []struct {
		AuthProvider string   `json:"auth_provider"`
		Scopes       []string `json:"scopes"`
		ContinueURI  string   `json:"continue_uri"`
	} `json:"auth_provider_binding"`
}

func (r *bindingResource) MoveState(context.Context) []resource.StateMover {
	return []resource.StateMover{{StateMover: moveBindingFromGoogle}}
}

// moveBindingFromGoogle takes over a google_agent_registry_binding; a move
// from any other type is left to the framework, which reports it as unsupported.
func moveBindingFromGoogle(ctx context.Context, req resource.MoveStateRequest, resp *resource.MoveStateResponse) {
	if req.SourceTypeName != googleBindingType || !isGoogleProvider(req.SourceProviderAddress) || req.SourceRawState == nil {
		return
	}
	var g googleBinding
	err := json.Unmarshal(req.SourceRawState.JSON, &g)
	if _, named := bindingNaming.parse(g.Name); err != nil || !named {
		resp.Diagnostics.AddError("Cannot Read the Moved State",
			fmt.Sprintf("The state of %s could not be read (%v, name %q). This is a bug in the provider or an unknown schema "+
				"version of %s; please report it, and use `import` meanwhile.", googleBindingType, err, g.Name, googleBindingType))
		return
	}
	m := bindingModel{
		DisplayName: optionalString(g.DisplayName), Description: optionalString(g.Description),
		Source: types.StringNull(), AuthProvider: types.StringNull(), ContinueURI: types.StringNull(),
		Scopes: types.ListNull(types.StringType),
		// The Google provider's timeouts are its own; the configuration's apply after the move.
		Timeouts: timeouts.Value{Object: types.ObjectNull(map[string]attr.Type{
			"create": types.StringType, "update": types.StringType, "delete": types.StringType,
		})},
	}
	b := g.toBinding()
	m.refresh(ctx, b)
	resp.Diagnostics.Append(resp.TargetState.Set(ctx, &m)...)
	resp.Diagnostics.Append(bindingNaming.setIdentityOf(ctx, resp.TargetIdentity, g.Name)...)
}

// toBinding is the Binding the Google state describes.
func (g *googleBinding) toBinding() *agentregistry.Binding {
	b := &agentregistry.Binding{Name: g.Name, DisplayName: g.DisplayName, Description: g.Description,
		CreateTime: g.CreateTime, UpdateTime: g.UpdateTime}
	if len(g.Source) > 0 {
		b.Source = &agentregistry.Source{Identifier: g.Source[0].Identifier}
	}
	if len(g.Target) > 0 {
		b.Target = &agentregistry.Target{Identifier: g.Target[0].Identifier}
	}
	if len(g.AuthProviderBinding) > 0 {
		a := g.AuthProviderBinding[0]
		b.AuthProviderBinding = &agentregistry.AuthProviderBinding{AuthProvider: a.AuthProvider, Scopes: a.Scopes, ContinueUri: a.ContinueURI}
	}
	return b
}
