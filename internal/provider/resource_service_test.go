package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
)

// A write the registry refuses with a field violation is reported at the
// attribute the field maps to; other errors at the resource.
func TestServiceKind_addAPIErrorAttachesTheFieldsAttribute(t *testing.T) {
	type kind struct {
		name   string
		report func(*diag.Diagnostics, string, string, error)
	}
	agent := kind{"agent", NewAgentResource().(*serviceResource[agentModel, *agentModel]).kind.addAPIError}
	mcp := kind{"mcp_server", NewMcpServerResource().(*serviceResource[mcpServerModel, *mcpServerModel]).kind.addAPIError}
	endpoint := kind{"endpoint", NewEndpointResource().(*serviceResource[endpointModel, *endpointModel]).kind.addAPIError}
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
