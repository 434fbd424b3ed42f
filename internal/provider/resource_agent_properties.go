package provider

import (
	"context"
	"encoding/json"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringdefault"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/apphub/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsondoc"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/validators"
)

var (
	_ resource.Resource                = (*agentPropertiesResource)(nil)
	_ resource.ResourceWithConfigure   = (*agentPropertiesResource)(nil)
	_ resource.ResourceWithImportState = (*agentPropertiesResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*agentPropertiesResource)(nil)
	_ resource.ResourceWithIdentity    = (*agentPropertiesResource)(nil)
)

// workloadNamePattern matches an App Hub workload name; the workload id follows
// App Hub's rule (at most 63 lowercase letters, digits or hyphens, starting
// with a letter and ending with a letter or digit), which the registry enforces.
var workloadNamePattern = regexp.MustCompile(`^projects/[^/]+/locations/[^/]+/applications/[^/]+/workloads/[a-z]([a-z0-9-]{0,61}[a-z0-9])?$`)

const workloadShape = "projects/{project}/locations/{location}/applications/{application}/workloads/{workload}"

// agentPropertiesNaming: agent properties are named by their workload's full name alone.
var agentPropertiesNaming = naming{typeSuffix: "agent_properties", idAttr: "workload", wholeName: true, shape: workloadShape,
	idPattern: workloadNamePattern, idRule: "an App Hub workload name, " + workloadShape,
	example: "projects/my-project/locations/global/applications/billing/workloads/invoice-helper"}

// NewAgentPropertiesResource returns the agentregistry_agent_properties resource.
func NewAgentPropertiesResource() resource.Resource {
	return &agentPropertiesResource{resourceBase{naming: agentPropertiesNaming}}
}

type agentPropertiesResource struct{ resourceBase }

type agentPropertiesModel struct {
	ID         types.String   `tfsdk:"id"`
	Workload   types.String   `tfsdk:"workload"`
	Properties jsondoc.Value  `tfsdk:"properties"`
	Mode       types.String   `tfsdk:"mode"`
	Timeouts   timeouts.Value `tfsdk:"timeouts"`
}

func (r *agentPropertiesResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Declares the `apphub.googleapis.com/AgentProperties` entry of an App Hub workload's " +
			"`workloadProperties.extendedMetadata`: the agent's display name, description, version, framework, card " +
			"URI and skills.\n\n" +
			"**Google's App Hub derives this entry itself** from the deployed agent and serves it read-only (the field " +
			"is *output only*). So by default (`mode = \"verify\"`) the resource writes nothing: create and update " +
			"read the workload's entry and succeed when it equals the declared document, or fail with one error that " +
			"lists each differing field, which the plan already shows as a warning (App Hub's entry is read at plan when " +
			"the plan creates the resource or changes its document); refresh stores what App Hub holds, so a change in App Hub shows as drift in " +
			"the next plan; destroy only forgets the entry. `mode = \"write\"` writes the entry, for a registry that " +
			"accepts the write (the bundled server started with `-apphub-writable`, which creates the workload when " +
			"it does not exist); it is refused at plan while the App Hub endpoint is Google's. In write mode only " +
			"that entry is managed, and destroy removes only that entry.\n\n" +
			"The document is validated at plan time against the AgentProperties schema (misspelt keys are errors). " +
			"Use the `agent_properties_from_card` function to derive it from an agent card. A reformatted document " +
			"(other key order or spacing) plans an update that makes no API call.\n\n" + recordCapsDoc,
		Attributes: map[string]schema.Attribute{
			"id": schema.StringAttribute{
				Computed:            true,
				MarkdownDescription: "The workload's name, the same as `workload`.",
				PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
			},
			"workload": schema.StringAttribute{
				Required: true,
				MarkdownDescription: "The full name of the App Hub workload: " +
					"`projects/{project}/locations/{location}/applications/{application}/workloads/{workload}`. " +
					"Changing it forces a new resource.",
				Validators: []validator.String{stringvalidator.RegexMatches(workloadNamePattern,
					"must be a full App Hub workload name: "+workloadShape+", "+
						"where {workload} is at most 63 lowercase letters, digits or hyphens, starting with a letter and ending with a letter or digit")},
				PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
			},
			"properties": schema.StringAttribute{
				CustomType: jsondoc.Type{},
				Required:   true,
				MarkdownDescription: "The AgentProperties document, as a JSON string, at most 10,240 bytes as compact " +
					"JSON. Validated at plan time; compared by value, so key order, spacing and the spelling of numbers " +
					"never cause drift.",
				Validators: []validator.String{validators.AgentProperties()},
			},
			"mode": schema.StringAttribute{
				Optional: true,
				Computed: true,
				Default:  stringdefault.StaticString(modeVerify),
				MarkdownDescription: "`verify` (the default) checks that App Hub holds the declared document and writes " +
					"nothing, as Google's App Hub requires: it derives AgentProperties from the deployed agent's card. " +
					"`write` writes the entry, for a registry that accepts the write, such as the bundled server " +
					"started with `-apphub-writable`; it is an error at plan while the App Hub endpoint is Google's.",
				Validators: []validator.String{stringvalidator.OneOf(modeVerify, modeWrite)},
			},
		},
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Update: true, Delete: true}),
		},
	}
}

func (r *agentPropertiesResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return
	}
	var plan agentPropertiesModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	if !plan.Workload.IsUnknown() {
		plan.ID = plan.Workload
	}
	if r.data != nil && plan.Mode.ValueString() == modeWrite && isGoogleEndpoint(r.data.AppHubEndpoint) {
		resp.Diagnostics.AddAttributeError(path.Root("mode"), "AgentProperties Cannot Be Written to Google's App Hub",
			writeRefusedDetail(r.data.AppHubEndpoint))
		return
	}
	if !req.Plan.Raw.Equal(req.State.Raw) { // the document is about to be sent
		resp.Diagnostics.Append(documentWarnings(ctx, req.Plan, map[string]validators.Document{"properties": validators.AgentPropertiesDocument})...)
		r.verifyAtPlan(ctx, &plan, priorModel(ctx, req.State, &resp.Diagnostics), &resp.Diagnostics)
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// priorModel decodes the prior state, or returns nil when there is none (a
// create).
func priorModel(ctx context.Context, state tfsdk.State, diags *diag.Diagnostics) *agentPropertiesModel {
	if state.Raw.IsNull() {
		return nil
	}
	var m agentPropertiesModel
	diags.Append(state.Get(ctx, &m)...)
	return &m
}

// write sets the AgentProperties entry to the planned document and returns
// the entry the registry then holds.
func (r *agentPropertiesResource) write(ctx context.Context, plan *agentPropertiesModel) ([]byte, error) {
	content, err := compactDocument(plan.Properties)
	if err != nil {
		return nil, err
	}
	w, err := r.data.Client.SetWorkloadMetadata(ctx, plan.Workload.ValueString(), registryclient.AgentPropertiesKey,
		json.RawMessage(content), true)
	return agentPropertiesEntry(w), err
}

func (r *agentPropertiesResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := load[agentPropertiesModel](ctx, &r.resourceBase, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	ctx, cancel := withDeadline(ctx, plan.Timeouts.Create, &resp.Diagnostics)
	defer cancel()
	if !r.apply(ctx, plan, "Cannot Set Agent Properties", "set the AgentProperties of", &resp.Diagnostics) {
		return
	}
	plan.ID = plan.Workload
	r.save(ctx, &resp.State, resp.Identity, plan, plan.Workload.ValueString(), &resp.Diagnostics)
}

// readOnlyHint explains a refused write: Google's App Hub serves AgentProperties read-only.
func readOnlyHint(err error) string {
	if registryclient.IsNotFound(err) || strings.Contains(err.Error(), "PERMISSION_DENIED") ||
		strings.Contains(err.Error(), "INVALID_ARGUMENT") || strings.Contains(err.Error(), "FAILED_PRECONDITION") {
		return "\n\n" + outputOnlyHint
	}
	return ""
}

// agentPropertiesEntry returns the entry's document, or nil when the workload has none.
func agentPropertiesEntry(w *apphub.Workload) []byte {
	if w == nil || w.WorkloadProperties == nil {
		return nil
	}
	e, ok := w.WorkloadProperties.ExtendedMetadata[registryclient.AgentPropertiesKey]
	if !ok || len(e.MetadataStruct) == 0 || string(e.MetadataStruct) == "null" {
		return nil
	}
	return e.MetadataStruct
}

func (r *agentPropertiesResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	state, ok := load[agentPropertiesModel](ctx, &r.resourceBase, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	w, ok := readOrForget(ctx, &r.resourceBase, resp, "Agent Properties", state.Workload.ValueString(), r.data.Client.GetWorkload)
	if !ok {
		return
	}
	entry := agentPropertiesEntry(w)
	if entry == nil {
		// The entry was removed outside Terraform: plan to set it again.
		resp.State.RemoveResource(ctx)
		return
	}
	state.ID = state.Workload
	if state.Mode.IsNull() { // imported
		state.Mode = types.StringValue(modeVerify)
	}
	state.Properties, _ = refreshDocument(state.Properties, canonicalize(entry))
	resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
}

func (r *agentPropertiesResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, state, ok := loadPair[agentPropertiesModel](ctx, &r.resourceBase, req.Plan, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	plan.ID = plan.Workload
	if sameDocument(plan.Properties, state.Properties) {
		// Only reformatted, or only the mode changed: the state holds what
		// the registry held at refresh, so there is nothing to send or check.
		r.save(ctx, &resp.State, resp.Identity, plan, plan.Workload.ValueString(), &resp.Diagnostics)
		return
	}
	ctx, cancel := withDeadline(ctx, plan.Timeouts.Update, &resp.Diagnostics)
	defer cancel()
	if !r.apply(ctx, plan, "Cannot Update Agent Properties", "update the AgentProperties of", &resp.Diagnostics) {
		return
	}
	r.save(ctx, &resp.State, resp.Identity, plan, plan.Workload.ValueString(), &resp.Diagnostics)
}

func (r *agentPropertiesResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := load[agentPropertiesModel](ctx, &r.resourceBase, req.State, &resp.Diagnostics)
	if !ok || state.Mode.ValueString() != modeWrite {
		return // verify: App Hub's entry is not Terraform's to remove; forget it
	}
	ctx, cancel := withDeadline(ctx, state.Timeouts.Delete, &resp.Diagnostics)
	defer cancel()
	_, err := r.data.Client.SetWorkloadMetadata(ctx, state.Workload.ValueString(), registryclient.AgentPropertiesKey, nil, false)
	if err != nil && !registryclient.IsNotFound(err) {
		resp.Diagnostics.AddError("Cannot Delete Agent Properties",
			apiErrorDetail("remove the AgentProperties entry of", state.Workload.ValueString(), err))
	}
}

// ImportState takes the workload's full name, or an identity.
func (r *agentPropertiesResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	n, diags := r.naming.importName(ctx, r.data, req)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("workload"), n.ID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), n.ID)...)
	resp.Diagnostics.Append(r.naming.setIdentity(ctx, resp.Identity, n)...)
}
