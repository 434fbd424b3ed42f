// Package planmodifiers holds the attribute plan modifiers shared by the
// provider's resources.
package planmodifiers

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
)

// RequiresReplaceIfPresenceChanges forces replacement when a string attribute
// goes from null to set or from set to null. Changing a set value to another
// set value is an in-place update.
//
// The registry fixes a service's spec type at creation (for an MCP server,
// TOOL_SPEC when a tool spec is given, NO_SPEC otherwise), so adding or
// removing the document cannot be done in place.
//
// A value that is unknown at plan time is taken to become set: the change is
// a replacement when the prior value is null, an update otherwise.
func RequiresReplaceIfPresenceChanges() planmodifier.String {
	return stringplanmodifier.RequiresReplaceIf(
		func(_ context.Context, req planmodifier.StringRequest, resp *stringplanmodifier.RequiresReplaceIfFuncResponse) {
			if req.State.Raw.IsNull() {
				return // create
			}
			wasSet := !req.StateValue.IsNull()
			willBeSet := !req.PlanValue.IsNull()
			resp.RequiresReplace = wasSet != willBeSet
		},
		"Adding or removing this attribute forces replacement: the registry fixes the spec type when the service is created.",
		"Adding or removing this attribute forces replacement: the registry fixes the spec type when the service is created.",
	)
}
