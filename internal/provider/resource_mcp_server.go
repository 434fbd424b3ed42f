package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
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
	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/validators"
)

const (
	mcpSpecTypeToolSpec = "TOOL_SPEC"
	mcpSpecTypeNoSpec   = "NO_SPEC"
)

var (
	_ resource.Resource                = (*mcpServerResource)(nil)
	_ resource.ResourceWithConfigure   = (*mcpServerResource)(nil)
	_ resource.ResourceWithImportState = (*mcpServerResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*mcpServerResource)(nil)
)

// NewMcpServerResource returns the agentregistry_mcp_server resource.
func NewMcpServerResource() resource.Resource { return &mcpServerResource{} }

type mcpServerResource struct {
	data *providerData
}

type mcpServerModel struct {
	serviceModel
	Interfaces  types.List     `tfsdk:"interfaces"`
	ToolSpec    jsondoc.Value  `tfsdk:"tool_spec"`
	McpServerID types.String   `tfsdk:"mcp_server_id"`
	Tools       types.List     `tfsdk:"tools"`
	Timeouts    timeouts.Value `tfsdk:"timeouts"`
}

type interfaceModel struct {
	URL             types.String `tfsdk:"url"`
	ProtocolBinding types.String `tfsdk:"protocol_binding"`
}

var interfaceAttrTypes = map[string]attr.Type{
	"url":              types.StringType,
	"protocol_binding": types.StringType,
}

var interfaceObjectType = types.ObjectType{AttrTypes: interfaceAttrTypes}

func (r *mcpServerResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_mcp_server"
}

func (r *mcpServerResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Registers an MCP server in the Agent Registry: a `Service` whose `mcpServerSpec` is " +
			"the server's MCP tool spec (a `tools/list` result, type `TOOL_SPEC`), or carries no spec (`NO_SPEC`) " +
			"when `tool_spec` is not set. The registry derives a read-only `McpServer` record from it, named by " +
			"`registry_resource`.\n\n" +
			"The tool spec is validated at plan time against the newest MCP `Tool` definition; every problem is " +
			"reported in one diagnostic with its JSON pointer and line. The tools, with the MCP defaults for missing " +
			"annotation hints applied, are known at plan time.\n\n" +
			"The registry fixes the spec type at creation, so adding or removing `tool_spec` replaces the service. " +
			"A reformatted `tool_spec` (other key order or spacing) plans an update that makes no API call; use " +
			"`jsonencode(jsondecode(file(\"tools.json\")))` to keep a canonical form.",
		Attributes: serviceCommonAttributes("MCP server", map[string]schema.Attribute{
			"interfaces": schema.ListNestedAttribute{
				Optional:            true,
				MarkdownDescription: "How to reach the MCP server.",
				NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
					"url": schema.StringAttribute{
						Required:            true,
						MarkdownDescription: "The absolute URL of the endpoint, such as `https://mcp.example.com/mcp`.",
						Validators:          []validator.String{validators.AbsoluteURL()},
					},
					"protocol_binding": schema.StringAttribute{
						Required:            true,
						MarkdownDescription: "The protocol binding: `JSONRPC`, `GRPC` or `HTTP_JSON`.",
						Validators:          []validator.String{stringvalidator.OneOf("JSONRPC", "GRPC", "HTTP_JSON")},
					},
				}},
			},
			"tool_spec": schema.StringAttribute{
				CustomType: jsondoc.Type{},
				Optional:   true,
				MarkdownDescription: "The MCP tool spec, as a JSON string: a `tools/list` result such as " +
					"`{\"tools\": [...]}`, at most 10,240 bytes as compact JSON. Validated at plan time; compared by " +
					"value, so key order, spacing and the spelling of numbers never cause drift. Adding or removing " +
					"it forces a new MCP server (the spec type changes between `TOOL_SPEC` and `NO_SPEC`).",
				Validators:    []validator.String{validators.ToolSpec()},
				PlanModifiers: []planmodifier.String{planmodifiers.RequiresReplaceIfPresenceChanges()},
			},
			"mcp_server_id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The `mcpServerId` of the derived `McpServer` record: a stable identifier assigned by the registry.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"tools": schema.ListAttribute{
				Computed:    true,
				ElementType: toolObjectType,
				MarkdownDescription: "The tools of `tool_spec`, in document order, each with `name`, `title` (else " +
					"`annotations.title`), `description` and the four annotation hints with the MCP defaults applied when " +
					"missing (`read_only_hint` false, `destructive_hint` true, `idempotent_hint` false, `open_world_hint` " +
					"true). Empty when `tool_spec` is not set. Known at plan time.",
				// A list of objects rather than a nested attribute, as agentregistry_agent's skills.
			},
		}),
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Update: true, Delete: true}),
		},
	}
}

func (r *mcpServerResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if d := configureResource(req, resp); d != nil {
		r.data = d
	}
}

// toolsComputed returns the tools of a planned tool spec: empty for no spec,
// unknown when the spec is unknown or cannot be parsed.
func toolsComputed(doc jsondoc.Value) (types.List, diag.Diagnostics) {
	if doc.IsUnknown() {
		return types.ListUnknown(toolObjectType), nil
	}
	if doc.IsNull() {
		return toolsValue(nil)
	}
	tools, err := spec.ParseToolSpec([]byte(doc.ValueString()))
	if err != nil {
		return types.ListUnknown(toolObjectType), nil
	}
	return toolsValue(tools)
}

// setToolsComputed sets tools after a write or a read; a spec that cannot be
// parsed gives null.
func setToolsComputed(m *mcpServerModel) diag.Diagnostics {
	tools, diags := toolsComputed(m.ToolSpec)
	if tools.IsUnknown() {
		tools = types.ListNull(toolObjectType)
	}
	m.Tools = tools
	return diags
}

func (r *mcpServerResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || req.Plan.Raw.Equal(req.State.Raw) {
		return // destroy, or nothing changes: the plan is the state
	}
	var plan mcpServerModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if req.State.Raw.IsNull() {
		planServiceIdentity(r.data, &plan.Project, &plan.Location, plan.ServiceID, &plan.Name, &plan.ID)
	}
	tools, diags := toolsComputed(plan.ToolSpec)
	resp.Diagnostics.Append(diags...)
	plan.Tools = tools

	if !req.State.Raw.IsNull() {
		var state mcpServerModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
		if len(mcpUpdateMask(ctx, &plan, &state)) == 0 {
			plan.UpdateTime = state.UpdateTime
			plan.Tools = state.Tools
		} else {
			plan.UpdateTime = types.StringUnknown()
		}
	}
	// Changed above: the identity, update_time and tools (see setPlanned).
	resp.Diagnostics.Append(setPlanned(ctx, &resp.Plan, &plan.serviceModel, nil, "tools", plan.Tools)...)
}

// mcpUpdateMask lists the fields that differ semantically between plan and state.
func mcpUpdateMask(ctx context.Context, plan, state *mcpServerModel) []string {
	var mask []string
	if !sameString(plan.DisplayName, state.DisplayName) {
		mask = append(mask, "displayName")
	}
	if !sameString(plan.Description, state.Description) {
		mask = append(mask, "description")
	}
	if !sameInterfaces(ctx, plan.Interfaces, state.Interfaces) {
		mask = append(mask, "interfaces")
	}
	if !sameDocument(plan.ToolSpec, state.ToolSpec) {
		mask = append(mask, "mcpServerSpec")
	}
	return mask
}

// sameInterfaces compares interface lists; null and empty are the same to the API.
func sameInterfaces(ctx context.Context, a, b types.List) bool {
	if a.IsUnknown() || b.IsUnknown() {
		return false
	}
	ia, da := interfacesFromList(ctx, a)
	ib, db := interfacesFromList(ctx, b)
	if da.HasError() || db.HasError() || len(ia) != len(ib) {
		return false
	}
	for i := range ia {
		if ia[i].Url != ib[i].Url || ia[i].ProtocolBinding != ib[i].ProtocolBinding {
			return false
		}
	}
	return true
}

func interfacesFromList(ctx context.Context, l types.List) ([]*agentregistry.Interface, diag.Diagnostics) {
	if l.IsNull() || l.IsUnknown() {
		return nil, nil
	}
	var models []interfaceModel
	diags := l.ElementsAs(ctx, &models, false)
	out := make([]*agentregistry.Interface, 0, len(models))
	for _, m := range models {
		out = append(out, &agentregistry.Interface{Url: m.URL.ValueString(), ProtocolBinding: m.ProtocolBinding.ValueString()})
	}
	return out, diags
}

// refreshInterfaces keeps the prior list when the registry's is the same, and
// a null prior list when the registry has none.
func refreshInterfaces(ctx context.Context, prior types.List, api []*agentregistry.Interface) (types.List, diag.Diagnostics) {
	if len(api) == 0 && (prior.IsNull() || len(prior.Elements()) == 0) {
		return prior, nil
	}
	models := make([]interfaceModel, 0, len(api))
	for _, in := range api {
		if in == nil {
			continue
		}
		models = append(models, interfaceModel{URL: types.StringValue(in.Url), ProtocolBinding: types.StringValue(in.ProtocolBinding)})
	}
	l, diags := types.ListValueFrom(ctx, interfaceObjectType, models)
	if !diags.HasError() && sameInterfaces(ctx, prior, l) {
		return prior, nil
	}
	return l, diags
}

func (r *mcpServerResource) mcpServerSpec(m *mcpServerModel) (*agentregistry.McpServerSpec, error) {
	if m.ToolSpec.IsNull() {
		return &agentregistry.McpServerSpec{Type: mcpSpecTypeNoSpec}, nil
	}
	content, err := compactDocument(m.ToolSpec)
	if err != nil {
		return nil, err
	}
	return &agentregistry.McpServerSpec{Type: mcpSpecTypeToolSpec, Content: content}, nil
}

func (r *mcpServerResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if r.data == nil {
		missingProviderData(&resp.Diagnostics)
		return
	}
	var plan mcpServerModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel, ok := withTimeout(ctx, plan.Timeouts.Create, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	mcpSpec, err := r.mcpServerSpec(&plan)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("tool_spec"), "Invalid MCP Tool Spec", err.Error())
		return
	}
	interfaces, diags := interfacesFromList(ctx, plan.Interfaces)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	parent := r.data.parent(plan.Project, plan.Location)
	svc, err := r.data.Client.CreateService(ctx, parent, plan.ServiceID.ValueString(), &agentregistry.Service{
		DisplayName:   plan.DisplayName.ValueString(),
		Description:   plan.Description.ValueString(),
		Interfaces:    interfaces,
		McpServerSpec: mcpSpec,
	})
	if err != nil {
		resp.Diagnostics.AddError("Cannot Create MCP Server", apiErrorDetail("create", parent+"/services/"+plan.ServiceID.ValueString(), err))
		return
	}
	plan.setComputed(svc)
	plan.McpServerID = types.StringValue(r.mcpServerID(ctx, svc.RegistryResource))
	if plan.Tools.IsUnknown() {
		resp.Diagnostics.Append(setToolsComputed(&plan)...)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		return
	}
	// The plan holds the spec's tools already (ModifyPlan).
	resp.Diagnostics.Append(setCreated(ctx, &resp.State, req.Plan.Raw, &plan.serviceModel,
		map[string]attr.Value{"mcp_server_id": plan.McpServerID})...)
}

// mcpServerID reads the derived McpServer's mcpServerId, falling back to the
// last segment of its name when the record cannot be read.
func (r *mcpServerResource) mcpServerID(ctx context.Context, registryResource string) string {
	if registryResource == "" {
		return ""
	}
	if m, err := r.data.Client.GetMcpServer(ctx, registryResource); err == nil && m.McpServerId != "" {
		return m.McpServerId
	}
	return lastSegment(registryResource)
}

func (r *mcpServerResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if r.data == nil {
		missingProviderData(&resp.Diagnostics)
		return
	}
	var state mcpServerModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	svc := readService(ctx, r.data, state.Name.ValueString(), "MCP Server", resp)
	if svc == nil {
		return
	}
	prior := state
	interfaces, diags := refreshInterfaces(ctx, state.Interfaces, svc.Interfaces)
	resp.Diagnostics.Append(diags...)
	state.Interfaces = interfaces
	if svc.RegistryResource != state.RegistryResource.ValueString() || state.McpServerID.ValueString() == "" {
		state.McpServerID = types.StringValue(r.mcpServerID(ctx, svc.RegistryResource))
	}
	state.refresh(svc)

	var content []byte
	if svc.McpServerSpec != nil && svc.McpServerSpec.Type == mcpSpecTypeToolSpec {
		content = svc.McpServerSpec.Content
	}
	state.ToolSpec = refreshDocument(state.ToolSpec, content)
	if !state.ToolSpec.Equal(prior.ToolSpec) || state.Tools.IsNull() {
		resp.Diagnostics.Append(setToolsComputed(&state)...) // else they are the spec's already
	}
	storeRefreshed(ctx, resp, &prior, &state)
}

func (r *mcpServerResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if r.data == nil {
		missingProviderData(&resp.Diagnostics)
		return
	}
	var plan, state mcpServerModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	mask := mcpUpdateMask(ctx, &plan, &state)
	if len(mask) == 0 {
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		return
	}
	ctx, cancel, ok := withTimeout(ctx, plan.Timeouts.Update, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	interfaces, diags := interfacesFromList(ctx, plan.Interfaces)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	svc := &agentregistry.Service{
		Name:            state.Name.ValueString(),
		DisplayName:     plan.DisplayName.ValueString(),
		Description:     plan.Description.ValueString(),
		Interfaces:      interfaces,
		ForceSendFields: []string{"DisplayName", "Description"},
	}
	for _, f := range mask {
		if f == "mcpServerSpec" {
			mcpSpec, err := r.mcpServerSpec(&plan)
			if err != nil {
				resp.Diagnostics.AddAttributeError(path.Root("tool_spec"), "Invalid MCP Tool Spec", err.Error())
				return
			}
			svc.McpServerSpec = mcpSpec
		}
	}
	updated, err := r.data.Client.UpdateService(ctx, svc, mask)
	if err != nil {
		resp.Diagnostics.AddError("Cannot Update MCP Server", apiErrorDetail("update", svc.Name, err))
		return
	}
	plan.applyUpdated(updated)
	if plan.McpServerID.IsUnknown() {
		plan.McpServerID = types.StringValue(r.mcpServerID(ctx, updated.RegistryResource))
	}
	resp.Diagnostics.Append(setToolsComputed(&plan)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *mcpServerResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	deleteService(ctx, r.data, "MCP Server", req, resp)
}

func (r *mcpServerResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importServiceState(ctx, r.data, "agentregistry_mcp_server", req, resp)
}
