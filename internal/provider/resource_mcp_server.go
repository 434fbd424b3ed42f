package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsondoc"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/planmodifiers"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/validators"
)

const (
	mcpSpecTypeToolSpec = "TOOL_SPEC"
	mcpSpecTypeNoSpec   = "NO_SPEC"
)

// mcpServerNaming: an MCP server is the Service projects/{project}/locations/{location}/services/{service_id}.
var mcpServerNaming = serviceNaming("mcp_server", "weather-tools")

// NewMcpServerResource returns the agentregistry_mcp_server resource.
func NewMcpServerResource() resource.Resource {
	return newServiceResource[mcpServerModel, *mcpServerModel](serviceKind[mcpServerModel]{
		naming:    mcpServerNaming,
		title:     "MCP Server",
		schema:    mcpServerSchema,
		documents: map[string]validators.Document{"tool_spec": validators.ToolSpecDocument},
		fields:    map[string]string{"mcp_server_spec": "tool_spec"},
		derivedID: func(ctx context.Context, c *registryclient.Client, name string) (string, error) {
			s, err := c.GetMcpServer(ctx, name)
			if err != nil {
				return "", err
			}
			return s.McpServerId, nil
		},
		upgraders: mcpServerStateUpgraders,
		// Without a tool spec (NO_SPEC) the interfaces are all the registry
		// knows of the server: one of the two is required.
		configValidators: []resource.ConfigValidator{
			resourcevalidator.AtLeastOneOf(path.MatchRoot("tool_spec"), path.MatchRoot("interfaces")),
		},
		policy: approvedToolsPolicy{},
	})
}

type mcpServerModel struct {
	serviceModel
	ToolSpec    jsondoc.Value `tfsdk:"tool_spec"`
	McpServerID types.String  `tfsdk:"mcp_server_id"`
	ToolNames   types.List    `tfsdk:"tool_names"`
	ToolDigests types.Map     `tfsdk:"tool_digests"`
	// ApprovedTools and ApprovalPolicy belong to the kind's document policy
	// (approvedToolsPolicy): nothing is sent for them.
	ApprovedTools  jsondoc.Value `tfsdk:"approved_tools"`
	ApprovalPolicy types.String  `tfsdk:"approval_policy"`
	// ToolPolicy is the text gate's (resource_mcp_server_tool_policy.go):
	// nothing is sent for it either.
	ToolPolicy types.String `tfsdk:"tool_policy"`
}

func mcpServerSchema(ctx context.Context) schema.Schema {
	interfaces := interfacesAttribute("How to reach the MCP server. Required when `tool_spec` is not set.")
	return serviceSchema(ctx, "MCP server", mcpServerDescription, 1, interfaces, map[string]schema.Attribute{
		"tool_spec": schema.StringAttribute{
			CustomType: jsondoc.Type{},
			Optional:   true,
			MarkdownDescription: "The MCP tool spec, as a JSON string: a `tools/list` result such as " +
				"`{\"tools\": [...]}`, at most 10,240 bytes as compact JSON. Validated at plan time; compared by " +
				"value, so key order, spacing and the spelling of numbers never cause drift. Adding or removing " +
				"it forces a new MCP server (the spec type changes between `TOOL_SPEC` and `NO_SPEC`). Its full " +
				"detail is one `jsondecode(agentregistry_mcp_server.NAME.tool_spec)` away.",
			Validators:    []validator.String{validators.ToolSpec()},
			PlanModifiers: []planmodifier.String{planmodifiers.RequiresReplaceIfPresenceChanges()},
		},
		"mcp_server_id": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "The `mcpServerId` of the derived `McpServer` record: its stable, globally unique URN, such as `urn:mcp:projects-123:projects:123:locations:global:agentregistry:services:weather-mcp` (the bundled server writes the project id where Google writes the project number). A binding's `target` takes it.",
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"tool_names": schema.ListAttribute{
			Computed:    true,
			ElementType: types.StringType,
			MarkdownDescription: "The names of the tools of `tool_spec`, in document order; empty when `tool_spec` " +
				"is not set. Known at plan time. For a tool's description or annotations use " +
				"`jsondecode(agentregistry_mcp_server.NAME.tool_spec).tools`, or the `agentregistry_mcp_servers` data source.",
		},
		"tool_digests":    toolDigestsAttribute,
		"approved_tools":  approvedToolsAttribute(),
		"approval_policy": approvalPolicyAttribute(),
		"tool_policy":     toolPolicyAttribute(),
	})
}

const mcpServerDescription = "Registers an MCP server in the Agent Registry: a `Service` whose `mcpServerSpec` is " +
	"the server's MCP tool spec (a `tools/list` result, type `TOOL_SPEC`), or carries no spec (`NO_SPEC`) " +
	"when `tool_spec` is not set. The registry derives a read-only `McpServer` record from it, named by " +
	"`registry_resource`.\n\n" +
	"The tool spec is validated at plan time against the newest MCP `Tool` definition; every problem is " +
	"reported in one diagnostic with its JSON pointer, and its line and column or, for a spec on one line " +
	"(`jsonencode`), the value and its neighbours. The tool names are known at plan time.\n\n" +
	"With `approved_tools`, a lock of approved tools made by `provider::agentregistry::tool_lock`, every plan " +
	"compares the tools with their approved definitions and names each tool and field that changed; " +
	"`tool_digests` gives each tool's digest at plan time (see *Approved tools, and the digest of a tool* below).\n\n" +
	"The registry fixes the spec type at creation, so adding or removing `tool_spec` replaces the service. " +
	"A reformatted `tool_spec` (other key order or spacing) plans an update that makes no API call; use " +
	"`jsonencode(jsondecode(file(\"tools.json\")))` to keep a canonical form."

func (m *mcpServerModel) service() *serviceModel         { return &m.serviceModel }
func (m *mcpServerModel) derivedRecordID() *types.String { return &m.McpServerID }

// setDerived sets tool_names and tool_digests from the tool spec: empty for
// no spec, unknown while the spec is unknown, null when it does not parse
// (the validator has said why, and such a spec is never sent).
func (m *mcpServerModel) setDerived() diag.Diagnostics { //nolint:unparam // kindModel.setDerived; a tool spec derives nothing that can fail
	m.ToolDigests = toolDigests(m.ToolSpec)
	switch {
	case m.ToolSpec.IsUnknown():
		m.ToolNames = types.ListUnknown(types.StringType)
	case m.ToolSpec.IsNull():
		m.ToolNames = stringList(nil)
	default:
		tools, err := spec.ParseToolSpec([]byte(m.ToolSpec.ValueString()))
		if err != nil {
			m.ToolNames = types.ListNull(types.StringType)
			return nil
		}
		names := make([]string, len(tools))
		for i, t := range tools {
			names[i] = t.Name
		}
		m.ToolNames = stringList(names)
	}
	return nil
}

func (m *mcpServerModel) keepDerived(prior *mcpServerModel) {
	m.ToolNames, m.ToolDigests = prior.ToolNames, prior.ToolDigests
}

func (m *mcpServerModel) updateMask(prior *mcpServerModel) []string {
	if !sameDocument(m.ToolSpec, prior.ToolSpec) {
		return []string{"mcpServerSpec"}
	}
	return nil
}

// fill sends the tool spec as it is (the kind prepares no other document),
// or no spec (NO_SPEC, the interfaces).
func (m *mcpServerModel) fill(svc *agentregistry.Service, _ outgoing) diag.Diagnostics {
	if m.ToolSpec.IsNull() {
		svc.McpServerSpec = &agentregistry.McpServerSpec{Type: mcpSpecTypeNoSpec}
		return nil
	}
	var diags diag.Diagnostics
	content, err := compactDocument(m.ToolSpec)
	if err != nil {
		diags.AddAttributeError(path.Root("tool_spec"), "Invalid MCP Tool Spec", err.Error())
		return diags
	}
	svc.McpServerSpec = &agentregistry.McpServerSpec{Type: mcpSpecTypeToolSpec, Content: content}
	return diags
}

// refresh takes the registry's tool spec; a spec the registry changed
// re-derives tool_names and tool_digests (the interfaces derive nothing), as
// does a state written before tool_digests existed. Nothing is sent in place
// of the spec, and verify checks nothing on read: it returns no document.
func (m *mcpServerModel) refresh(svc *agentregistry.Service, _ bool, _ string) (outgoing, diag.Diagnostics) { //nolint:unparam // kindModel.refresh; the spec is sent as it is
	var held canonicalDocument
	if svc.McpServerSpec != nil && svc.McpServerSpec.Type == mcpSpecTypeToolSpec {
		held = canonicalize(svc.McpServerSpec.Content)
	}
	prior := m.ToolSpec
	m.ToolSpec, _ = refreshDocument(m.ToolSpec, held)
	if !m.ToolSpec.Equal(prior) || m.ToolNames.IsNull() || m.ToolDigests.IsNull() {
		return outgoing{}, m.setDerived()
	}
	return outgoing{}, nil
}

// --- the MCP server's state upgrade and its move from google_agent_registry_service
// (what every kind shares: resource_service_state_upgrade.go, resource_service_move_state.go) ---

// mcpServerModelV0 is agentregistry_mcp_server's state at schema version 0.
type mcpServerModelV0 struct {
	serviceModelV0
	Interfaces  types.List    `tfsdk:"interfaces"`
	ToolSpec    jsondoc.Value `tfsdk:"tool_spec"`
	McpServerID types.String  `tfsdk:"mcp_server_id"`
	Tools       types.List    `tfsdk:"tools"`
}

// mcpServerStateUpgraders derive version 1's values from the tool spec in
// the state.
func mcpServerStateUpgraders(ctx context.Context) map[int64]resource.StateUpgrader {
	v0 := priorSchema(mcpServerSchema(ctx), []string{"tool_names", "tool_digests", "approved_tools", "approval_policy", "tool_policy"}, "tools", toolObjectType)
	return upgradeFromV0(v0, func(old *mcpServerModelV0) mcpServerModel {
		return mcpServerModel{serviceModel: old.current(old.Interfaces), ToolSpec: old.ToolSpec, McpServerID: old.McpServerID}
	})
}

// fromGoogle takes the tool spec; a NO_SPEC server has its interfaces, which
// the shared attributes took.
func (m *mcpServerModel) fromGoogle(g *googleService) {
	m.ToolSpec = jsondoc.NewNull()
	if spec := g.McpServerSpec[0]; spec.Type == mcpSpecTypeToolSpec && spec.Content != "" {
		m.ToolSpec = jsondoc.NewValue(spec.Content)
	}
}
