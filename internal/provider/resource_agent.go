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
	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/validators"
)

const agentSpecTypeCard = "A2A_AGENT_CARD"

var (
	_ resource.Resource                = (*agentResource)(nil)
	_ resource.ResourceWithConfigure   = (*agentResource)(nil)
	_ resource.ResourceWithImportState = (*agentResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*agentResource)(nil)
)

// NewAgentResource returns the agentregistry_agent resource.
func NewAgentResource() resource.Resource { return &agentResource{} }

type agentResource struct {
	data *providerData
}

type agentModel struct {
	serviceModel
	AgentCard  jsondoc.Value  `tfsdk:"agent_card"`
	AgentID    types.String   `tfsdk:"agent_id"`
	A2AVersion types.String   `tfsdk:"a2a_version"`
	Skills     types.List     `tfsdk:"skills"`
	Timeouts   timeouts.Value `tfsdk:"timeouts"`
}

func (r *agentResource) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_agent"
}

func (r *agentResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Registers an A2A agent in the Agent Registry: a `Service` whose `agentSpec` is an " +
			"[A2A Agent Card](https://a2a-protocol.org/) (type `A2A_AGENT_CARD`). The registry derives a read-only " +
			"`Agent` record from it, named by `registry_resource`.\n\n" +
			"The card is validated at plan time against the A2A 0.3 or 1.0 schema (detected from the document); " +
			"every problem is reported in one diagnostic with its JSON pointer and line, and nothing is sent to the " +
			"registry until the card is valid. The card's skills and A2A version are known at plan time.\n\n" +
			"Terraform requires the planned value of `agent_card` to equal the configuration, so reformatting the " +
			"document (other key order or spacing) plans an update; that update makes no API call. Use " +
			"`jsonencode(jsondecode(file(\"card.json\")))` to keep a canonical form. What the registry sends back " +
			"(re-ordered keys, numbers re-encoded) never shows as drift.",
		Attributes: serviceCommonAttributes("agent", map[string]schema.Attribute{
			"agent_card": schema.StringAttribute{
				CustomType: jsondoc.Type{},
				Required:   true,
				MarkdownDescription: "The A2A Agent Card, as a JSON string (A2A 0.3 with top-level `url` and " +
					"`protocolVersion`, or 1.0 with `supportedInterfaces`; 1.0 fields may also use their ProtoJSON proto " +
					"names, such as `supported_interfaces`), at most 10,240 bytes as compact JSON. " +
					"Validated at plan time. Sent in a compact, normalised form; compared by value, so key order, " +
					"spacing and the spelling of numbers never cause drift.",
				Validators: []validator.String{validators.AgentCard()},
			},
			"agent_id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The `agentId` of the derived `Agent` record: a stable identifier assigned by the registry.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"a2a_version": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The A2A version of the card, `0.3` or `1.0`, detected from the document. Known at plan time.",
			},
			"skills": schema.ListAttribute{
				Computed:    true,
				ElementType: skillObjectType,
				MarkdownDescription: "The card's skills, in document order, each with `id`, `name`, `description`, " +
					"`tags` and `examples` (empty when the card gives none). Known at plan time when `agent_card` is, so " +
					"other resources and modules can use them in the same plan.",
				// A list of objects rather than a nested attribute: the framework's per-value
				// schema walks cost a fifth less on apply, refresh and destroy of many agents.
			},
		}),
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Update: true, Delete: true}),
		},
	}
}

// serviceCommonAttributes returns the attributes shared by agentregistry_agent and
// agentregistry_mcp_server, merged with the given specific ones.
func serviceCommonAttributes(noun string, specific map[string]schema.Attribute) map[string]schema.Attribute {
	attrs := map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "The service's resource name, the same as `name`.",
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"name": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "The service's resource name: `projects/{project}/locations/{location}/services/{service_id}`.",
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"service_id": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "The id of the service, the last part of its name: 4 to 63 characters of lowercase " +
				"letters, digits and hyphens, starting with a letter. Changing it forces a new " + noun + ".",
			Validators:    []validator.String{validators.ServiceID()},
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"project": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "The project that owns the service. Defaults to the provider's `project`. " +
				"Changing it forces a new " + noun + ".",
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace(), stringplanmodifier.UseStateForUnknown()},
		},
		"location": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "The registry location of the service. Defaults to the provider's `location`. " +
				"Changing it forces a new " + noun + ".",
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace(), stringplanmodifier.UseStateForUnknown()},
		},
		"display_name": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "A display name for the service, at most 63 characters.",
			Validators:          []validator.String{stringvalidator.UTF8LengthAtMost(63)},
		},
		"description": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "A description of the service, at most 2048 characters.",
			Validators:          []validator.String{stringvalidator.UTF8LengthAtMost(2048)},
		},
		"registry_resource": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "The name of the read-only record the registry derives from the service (`.../agents/{id}` or `.../mcpServers/{id}`).",
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"create_time": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "When the service was created (RFC 3339).",
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"update_time": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "When the service was last updated (RFC 3339). Unchanged by an update that only reformats a document.",
		},
	}
	for k, v := range specific {
		attrs[k] = v
	}
	return attrs
}

func (r *agentResource) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if d := configureResource(req, resp); d != nil {
		r.data = d
	}
}

// cardComputed returns a2a_version and skills for a planned card: unknown when the
// card is unknown or cannot be parsed (it is validated separately).
func cardComputed(card jsondoc.Value) (types.String, types.List, diag.Diagnostics) {
	if card.IsNull() || card.IsUnknown() {
		return types.StringUnknown(), types.ListUnknown(skillObjectType), nil
	}
	parsed, err := spec.ParseAgentCard([]byte(card.ValueString()))
	if err != nil {
		return types.StringUnknown(), types.ListUnknown(skillObjectType), nil
	}
	skills, diags := skillsValue(parsed.Skills)
	version := types.StringNull()
	if parsed.A2AVersion != "" {
		version = types.StringValue(parsed.A2AVersion)
	}
	return version, skills, diags
}

func (r *agentResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || req.Plan.Raw.Equal(req.State.Raw) {
		return // destroy, or nothing changes: the plan is the state
	}
	var plan agentModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if req.State.Raw.IsNull() {
		planServiceIdentity(r.data, &plan.Project, &plan.Location, plan.ServiceID, &plan.Name, &plan.ID)
	}

	version, skills, diags := cardComputed(plan.AgentCard)
	resp.Diagnostics.Append(diags...)
	plan.A2AVersion, plan.Skills = version, skills

	if !req.State.Raw.IsNull() {
		var state agentModel
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
		if len(agentUpdateMask(&plan, &state)) == 0 {
			// Only reformatted (or nothing at all): the update makes no API call,
			// so every computed value stays as it is.
			plan.UpdateTime = state.UpdateTime
			plan.A2AVersion = state.A2AVersion
			plan.Skills = state.Skills
		} else {
			plan.UpdateTime = types.StringUnknown()
		}
	}
	// Changed above: the identity, update_time, a2a_version and skills (see setPlanned).
	resp.Diagnostics.Append(setPlanned(ctx, &resp.Plan, &plan.serviceModel,
		map[string]attr.Value{"a2a_version": plan.A2AVersion}, "skills", plan.Skills)...)
}

// planServiceIdentity fills in project, location, name and id at plan time for
// a new service, from the configuration or the provider's defaults.
func planServiceIdentity(data *providerData, project, location *types.String, serviceID types.String, name, id *types.String) {
	if data == nil {
		return
	}
	if project.IsUnknown() && data.Project != "" {
		*project = types.StringValue(data.Project)
	}
	if location.IsUnknown() && data.Location != "" {
		*location = types.StringValue(data.Location)
	}
	if project.IsUnknown() || location.IsUnknown() || serviceID.IsUnknown() {
		return
	}
	n := data.parent(*project, *location) + "/services/" + serviceID.ValueString()
	*name = types.StringValue(n)
	*id = types.StringValue(n)
}

// setCardComputed sets a2a_version and skills from the model's card after a
// write or a read; a card that cannot be parsed gives null values.
func setCardComputed(m *agentModel) diag.Diagnostics {
	version, skills, diags := cardComputed(m.AgentCard)
	if version.IsUnknown() || skills.IsUnknown() {
		version, skills = types.StringNull(), types.ListNull(skillObjectType)
	}
	m.A2AVersion, m.Skills = version, skills
	return diags
}

// agentUpdateMask lists the fields that differ semantically between plan and state.
func agentUpdateMask(plan, state *agentModel) []string {
	var mask []string
	if !sameString(plan.DisplayName, state.DisplayName) {
		mask = append(mask, "displayName")
	}
	if !sameString(plan.Description, state.Description) {
		mask = append(mask, "description")
	}
	if !sameDocument(plan.AgentCard, state.AgentCard) {
		mask = append(mask, "agentSpec.content")
	}
	return mask
}

func (r *agentResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if r.data == nil {
		missingProviderData(&resp.Diagnostics)
		return
	}
	var plan agentModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel, ok := withTimeout(ctx, plan.Timeouts.Create, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	content, err := compactDocument(plan.AgentCard)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("agent_card"), "Invalid A2A Agent Card", err.Error())
		return
	}
	parent := r.data.parent(plan.Project, plan.Location)
	svc, err := r.data.Client.CreateService(ctx, parent, plan.ServiceID.ValueString(), &agentregistry.Service{
		DisplayName: plan.DisplayName.ValueString(),
		Description: plan.Description.ValueString(),
		AgentSpec:   &agentregistry.AgentSpec{Type: agentSpecTypeCard, Content: content},
	})
	if err != nil {
		resp.Diagnostics.AddError("Cannot Create Agent", apiErrorDetail("create", parent+"/services/"+plan.ServiceID.ValueString(), err))
		return
	}
	r.applyCreated(ctx, &plan, svc)
	if plan.Skills.IsUnknown() || plan.A2AVersion.IsUnknown() {
		resp.Diagnostics.Append(setCardComputed(&plan)...)
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		return
	}
	// The plan holds the card's skills already (ModifyPlan).
	resp.Diagnostics.Append(setCreated(ctx, &resp.State, req.Plan.Raw, &plan.serviceModel,
		map[string]attr.Value{"agent_id": plan.AgentID})...)
}

// applyCreated copies the registry's computed values into the model.
func (r *agentResource) applyCreated(ctx context.Context, m *agentModel, svc *agentregistry.Service) {
	m.setComputed(svc)
	m.AgentID = types.StringValue(r.agentID(ctx, svc.RegistryResource))
}

// agentID reads the derived Agent's agentId, falling back to the last segment of
// its name when the record cannot be read.
func (r *agentResource) agentID(ctx context.Context, registryResource string) string {
	if registryResource == "" {
		return ""
	}
	if a, err := r.data.Client.GetAgent(ctx, registryResource); err == nil && a.AgentId != "" {
		return a.AgentId
	}
	return lastSegment(registryResource)
}

func (r *agentResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if r.data == nil {
		missingProviderData(&resp.Diagnostics)
		return
	}
	var state agentModel
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	svc := readService(ctx, r.data, state.Name.ValueString(), "Agent", resp)
	if svc == nil {
		return
	}
	prior := state
	if svc.RegistryResource != state.RegistryResource.ValueString() || state.AgentID.ValueString() == "" {
		state.AgentID = types.StringValue(r.agentID(ctx, svc.RegistryResource))
	}
	state.refresh(svc)

	var content []byte
	if svc.AgentSpec != nil {
		content = svc.AgentSpec.Content
	}
	// A card removed outside Terraform (a NO_SPEC agent) reads as null, so the
	// next plan shows the configured card as an update.
	state.AgentCard = refreshDocument(state.AgentCard, content)
	if !state.AgentCard.Equal(prior.AgentCard) || state.Skills.IsNull() {
		resp.Diagnostics.Append(setCardComputed(&state)...) // else they are the card's already
	}
	storeRefreshed(ctx, resp, &prior, &state)
}

func (r *agentResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if r.data == nil {
		missingProviderData(&resp.Diagnostics)
		return
	}
	var plan, state agentModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	mask := agentUpdateMask(&plan, &state)
	if len(mask) == 0 {
		// Only the document's formatting changed: nothing to send.
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		return
	}
	ctx, cancel, ok := withTimeout(ctx, plan.Timeouts.Update, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	svc := &agentregistry.Service{
		Name:            state.Name.ValueString(),
		DisplayName:     plan.DisplayName.ValueString(),
		Description:     plan.Description.ValueString(),
		ForceSendFields: []string{"DisplayName", "Description"},
	}
	for _, f := range mask {
		if f == "agentSpec.content" {
			content, err := compactDocument(plan.AgentCard)
			if err != nil {
				resp.Diagnostics.AddAttributeError(path.Root("agent_card"), "Invalid A2A Agent Card", err.Error())
				return
			}
			svc.AgentSpec = &agentregistry.AgentSpec{Type: agentSpecTypeCard, Content: content}
		}
	}
	updated, err := r.data.Client.UpdateService(ctx, svc, mask)
	if err != nil {
		resp.Diagnostics.AddError("Cannot Update Agent", apiErrorDetail("update", svc.Name, err))
		return
	}
	plan.applyUpdated(updated)
	if plan.AgentID.IsUnknown() {
		plan.AgentID = types.StringValue(r.agentID(ctx, updated.RegistryResource))
	}
	resp.Diagnostics.Append(setCardComputed(&plan)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *agentResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	deleteService(ctx, r.data, "Agent", req, resp)
}

func (r *agentResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importServiceState(ctx, r.data, "agentregistry_agent", req, resp)
}
