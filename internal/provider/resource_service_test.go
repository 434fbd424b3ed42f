package provider

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
)

// A write the registry refuses with a field violation is reported at the
// attribute the field maps to; other errors at the resource.
func TestServiceKind_addAPIErrorAttachesTheFieldsAttribute(t *testing.T) {
	type kind struct {
		name   string
		report func(*diag.Diagnostics, string, string, error)
	}
	agent := kind{"agent", as[*serviceResource[agentModel, *agentModel]](t, NewAgentResource()).kind.addAPIError}
	mcp := kind{"mcp_server", as[*serviceResource[mcpServerModel, *mcpServerModel]](t, NewMcpServerResource()).kind.addAPIError}
	endpoint := kind{"endpoint", as[*serviceResource[endpointModel, *endpointModel]](t, NewEndpointResource()).kind.addAPIError}
	for _, c := range []struct {
		kind  kind
		field string
		want  path.Path
	}{
		{agent, "agent_spec.content", path.Root("agent_card")},
		{agent, "service.agent_spec", path.Root("agent_card")},
		{agent, "display_name", path.Root("display_name")},
		{agent, "description", path.Root("description")},
		{agent, "interfaces", path.Root("interfaces")}, // a card-less agent's
		{agent, "interfaces[2].url", path.Root("interfaces").AtListIndex(2).AtName("url")},
		{endpoint, "interfaces[0].protocol_binding", path.Root("interfaces").AtListIndex(0).AtName("protocol_binding")},
		{endpoint, "endpoint_spec.type", path.Root("interfaces")},
		{mcp, "mcp_server_spec.content", path.Root("tool_spec")},
		{mcp, "interfaces", path.Root("interfaces")},
		{mcp, "interfaces[1].url", path.Root("interfaces").AtListIndex(1).AtName("url")},
		{mcp, "interfaces[0]", path.Root("interfaces").AtListIndex(0)},
		{mcp, "request_id", path.Empty()},
	} {
		var diags diag.Diagnostics
		err := &registryclient.APIError{Code: 400, Status: "INVALID_ARGUMENT",
			FieldViolations: []registryclient.FieldViolation{{Field: c.field, Description: "is wrong"}}}
		c.kind.report(&diags, "Cannot Create", "detail", err)
		if len(diags) != 1 {
			t.Fatalf("%s: %d diagnostics", c.field, len(diags))
		}
		got := path.Empty()
		if d, ok := diags[0].(diag.DiagnosticWithPath); ok {
			got = d.Path()
		}
		if !got.Equal(c.want) {
			t.Errorf("%s %q: reported at %q, want %q", c.kind.name, c.field, got, c.want)
		}
	}
}

// widgetModel is a kind that exists in the tests alone: the engine's own
// tests use it, so that the engine names no kind of the provider.
type widgetModel struct {
	serviceModel
	WidgetID types.String `tfsdk:"widget_id"`
}

func (m *widgetModel) service() *serviceModel         { return &m.serviceModel }
func (m *widgetModel) derivedRecordID() *types.String { return &m.WidgetID }
func (m *widgetModel) setDerived() diag.Diagnostics   { return nil }
func (m *widgetModel) keepDerived(*widgetModel)       {}
func (m *widgetModel) updateMask(*widgetModel) []string {
	return nil
}
func (m *widgetModel) fill(svc *agentregistry.Service, _ outgoing) diag.Diagnostics { //nolint:unparam // kindModel.fill
	svc.EndpointSpec = &agentregistry.EndpointSpec{Type: "NO_SPEC"}
	return nil
}
func (m *widgetModel) refresh(*agentregistry.Service, bool, string) (outgoing, diag.Diagnostics) {
	return outgoing{}, nil
}
func (m *widgetModel) fromGoogle(*googleService) {}

func widgetKind(policy documentPolicy[widgetModel]) serviceKind[widgetModel] {
	return serviceKind[widgetModel]{
		naming: serviceNaming("widget", "some-widget"),
		title:  "Widget",
		schema: func(ctx context.Context) schema.Schema {
			return serviceSchema(ctx, "widget", "A widget.", 0, interfacesAttribute("Interfaces."),
				map[string]schema.Attribute{"widget_id": schema.StringAttribute{Computed: true}})
		},
		policy: policy,
	}
}

// recordingPolicy records the calls the engine makes to a kind's policy.
type recordingPolicy struct {
	unchangedNeedsIt bool
	calls            *[]string
}

func (p recordingPolicy) prepare(context.Context, tfsdk.Config, *widgetModel, *diag.Diagnostics) outgoing {
	*p.calls = append(*p.calls, "prepare")
	return outgoing{}
}

func (p recordingPolicy) verify(_ *providerData, _ *widgetModel, _ outgoing, onRead bool, _ *diag.Diagnostics) {
	*p.calls = append(*p.calls, fmt.Sprintf("verify(onRead=%t)", onRead))
}

func (p recordingPolicy) verifyUnchanged(context.Context, *providerData, tfsdk.Plan, tfsdk.Config) bool {
	*p.calls = append(*p.calls, "verifyUnchanged")
	return p.unchangedNeedsIt
}

func (p recordingPolicy) driftNote(state, plan *widgetModel, _ outgoing, _ *diag.Diagnostics) {
	*p.calls = append(*p.calls, "driftNote("+state.DisplayName.ValueString()+" -> "+plan.DisplayName.ValueString()+")")
}

// A plan runs the kind's document policy as its kind asks: never on a
// destroy, on an unchanged plan only when verifyUnchanged says so, the
// drift note only on an update (with the prior state), and prepare before
// verify.
func TestServiceResource_planRunsTheKindsDocumentPolicy(t *testing.T) {
	ctx := context.Background()
	s := widgetKind(nil).schema(ctx)
	typ := s.Type().TerraformType(ctx)
	widget := func(displayName string) tftypes.Value {
		return protoObject(t, typ, map[string]tftypes.Value{
			"service_id":   tftypes.NewValue(tftypes.String, "some-widget"),
			"display_name": tftypes.NewValue(tftypes.String, displayName),
		})
	}
	none := tftypes.NewValue(typ, nil)
	for _, c := range []struct {
		name             string
		state, plan      tftypes.Value
		unchangedNeedsIt bool
		want             []string
	}{
		{"destroy", widget("old"), none, true, nil},
		{"unchanged", widget("old"), widget("old"), false, []string{"verifyUnchanged"}},
		{"unchanged, checked", widget("old"), widget("old"), true, []string{"verifyUnchanged", "prepare", "verify(onRead=false)"}},
		{"create", none, widget("new"), false, []string{"prepare", "verify(onRead=false)"}},
		{"update", widget("old"), widget("new"), false, []string{"prepare", "driftNote(old -> new)", "verify(onRead=false)"}},
	} {
		var calls []string
		r := newServiceResource[widgetModel, *widgetModel](widgetKind(recordingPolicy{c.unchangedNeedsIt, &calls}))
		req := resource.ModifyPlanRequest{Config: tfsdk.Config{Schema: s, Raw: c.plan},
			Plan: tfsdk.Plan{Schema: s, Raw: c.plan}, State: tfsdk.State{Schema: s, Raw: c.state}}
		resp := resource.ModifyPlanResponse{Plan: req.Plan}
		r.ModifyPlan(ctx, req, &resp)
		if resp.Diagnostics.HasError() {
			t.Fatalf("%s: %v", c.name, resp.Diagnostics)
		}
		if !slices.Equal(calls, c.want) {
			t.Errorf("%s: the policy was called %q, want %q", c.name, calls, c.want)
		}
	}
}

// A kind without a document policy or state upgraders plans an update and
// answers UpgradeState with none, rather than call a missing hook.
func TestServiceResource_kindWithoutPolicyOrUpgraders(t *testing.T) {
	ctx := context.Background()
	r := newServiceResource[widgetModel, *widgetModel](widgetKind(nil))
	if got := r.UpgradeState(ctx); len(got) != 0 {
		t.Errorf("UpgradeState: %d upgraders, want none", len(got))
	}
	s := r.kind.schema(ctx)
	typ := s.Type().TerraformType(ctx)
	widget := func(displayName string) tftypes.Value {
		return protoObject(t, typ, map[string]tftypes.Value{
			"service_id": tftypes.NewValue(tftypes.String, "some-widget"), "display_name": tftypes.NewValue(tftypes.String, displayName)})
	}
	req := resource.ModifyPlanRequest{Config: tfsdk.Config{Schema: s, Raw: widget("new")},
		Plan: tfsdk.Plan{Schema: s, Raw: widget("new")}, State: tfsdk.State{Schema: s, Raw: widget("old")}}
	resp := resource.ModifyPlanResponse{Plan: req.Plan}
	r.ModifyPlan(ctx, req, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
}
