package planmodifiers

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

func TestRequiresReplaceIfPresenceChanges(t *testing.T) {
	obj := tftypes.Object{AttributeTypes: map[string]tftypes.Type{"doc": tftypes.String}}
	existing := tftypes.NewValue(obj, map[string]tftypes.Value{"doc": tftypes.NewValue(tftypes.String, nil)})
	absent := tftypes.NewValue(obj, nil)
	set, unset, unknown := types.StringValue(`{"tools":[]}`), types.StringNull(), types.StringUnknown()
	cases := []struct {
		name        string
		stateRaw    tftypes.Value
		state, plan types.String
		want        bool
	}{
		{"create", absent, unset, set, false},
		{"added", existing, unset, set, true},
		{"removed", existing, set, unset, true},
		{"changed", existing, set, types.StringValue(`{"tools":[{}]}`), false},
		{"unchanged", existing, set, set, false},
		{"unknown after null", existing, unset, unknown, true},
		{"unknown after set", existing, set, unknown, false},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			req := planmodifier.StringRequest{
				State:      tfsdk.State{Raw: tc.stateRaw},
				Plan:       tfsdk.Plan{Raw: existing},
				StateValue: tc.state,
				PlanValue:  tc.plan,
			}
			resp := &planmodifier.StringResponse{PlanValue: tc.plan}
			RequiresReplaceIfPresenceChanges().PlanModifyString(context.Background(), req, resp)
			if resp.RequiresReplace != tc.want {
				t.Errorf("RequiresReplace = %v, want %v", resp.RequiresReplace, tc.want)
			}
		})
	}
}
