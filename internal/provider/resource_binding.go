package provider

import (
	"context"
	"regexp"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/validators"
)

var (
	_ resource.ResourceWithConfigure   = (*bindingResource)(nil)
	_ resource.ResourceWithImportState = (*bindingResource)(nil)
	_ resource.ResourceWithModifyPlan  = (*bindingResource)(nil)
	_ resource.ResourceWithIdentity    = (*bindingResource)(nil)
)

var (
	bindingIDRE = regexp.MustCompile(`^[a-z]([a-z0-9-]{0,61}[a-z0-9])?$`)
	// URNs are urn:{kind}:{publisher}:{namespace}:{name}; the namespace may
	// hold colons (Google's agent ids: urn:agent:projects-123:projects:123:locations:...).
	agentURNRE        = regexp.MustCompile(`^urn:agent:[A-Za-z0-9._~-]+(:[A-Za-z0-9._~-]+){2,}$`)
	targetURNRE       = regexp.MustCompile(`^urn:(agent|mcp|endpoint):[A-Za-z0-9._~-]+(:[A-Za-z0-9._~-]+){2,}$`)
	authProviderRE    = regexp.MustCompile(`^projects/[^/]+/locations/[^/]+/authProviders/[^/]+$`)
	scopeRE           = regexp.MustCompile(`^\S+$`)
	agentURNShape     = "an agent URN, urn:agent:{publisher}:{namespace}:{name}"
	targetURNShape    = "urn:agent:..., urn:mcp:... or urn:endpoint:... ({publisher}:{namespace}:{name})"
	authProviderShape = "projects/{project}/locations/{location}/authProviders/{auth_provider}"
)

// bindingNaming: a binding is projects/{project}/locations/{location}/bindings/{binding_id}.
var bindingNaming = naming{typeSuffix: "binding", collection: "bindings", idAttr: "binding_id",
	idPattern: bindingIDRE, idRule: "4 to 63 lower-case letters, digits and hyphens, starting with a letter and not ending with a hyphen",
	example: "planner-flights"}

// NewBindingResource returns the agentregistry_binding resource.
func NewBindingResource() resource.Resource {
	return &bindingResource{resourceBase{naming: bindingNaming}}
}

type bindingResource struct{ resourceBase }

type bindingModel struct {
	ID           types.String   `tfsdk:"id"`
	Name         types.String   `tfsdk:"name"`
	BindingID    types.String   `tfsdk:"binding_id"`
	Project      types.String   `tfsdk:"project"`
	Location     types.String   `tfsdk:"location"`
	DisplayName  types.String   `tfsdk:"display_name"`
	Description  types.String   `tfsdk:"description"`
	Source       types.String   `tfsdk:"source"`
	Target       types.String   `tfsdk:"target"`
	AuthProvider types.String   `tfsdk:"auth_provider"`
	Scopes       types.List     `tfsdk:"scopes"`
	ContinueURI  types.String   `tfsdk:"continue_uri"`
	CreateTime   types.String   `tfsdk:"create_time"`
	UpdateTime   types.String   `tfsdk:"update_time"`
	Timeouts     timeouts.Value `tfsdk:"timeouts"`
}

func (r *bindingResource) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: bindingDescription + "\n\n" + recordCapsDoc,
		Attributes:          bindingAttributes(),
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Update: true, Delete: true}),
		},
	}
}

const bindingDescription = "A binding in the Agent Registry: it links a source agent (optional: without one, the " +
	"binding is available to every agent) to a target agent, MCP server or endpoint, named by their URNs, and says " +
	"which auth provider the source uses to reach the target (`auth_provider`, `scopes`, `continue_uri`).\n\n" +
	"Every identifier is checked at plan time (the binding id, the URNs' shape, the auth provider's name); nothing " +
	"is sent until they are well formed. Every attribute but `binding_id`, `project` and `location` is updated in " +
	"place, with an update mask naming only what changed."

func bindingAttributes() map[string]schema.Attribute {
	computed := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: desc,
			PlanModifiers: []planmodifier.String{stringplanmodifier.UseStateForUnknown()}}
	}
	replacing := func(desc string) schema.StringAttribute {
		return schema.StringAttribute{Optional: true, Computed: true, MarkdownDescription: desc,
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace(), stringplanmodifier.UseStateForUnknown()}}
	}
	return map[string]schema.Attribute{
		"id":   computed("The binding's resource name, the same as `name`."),
		"name": computed("The binding's resource name: `projects/{project}/locations/{location}/bindings/{binding_id}`."),
		"binding_id": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "The id of the binding, the last part of its name: 4 to 63 lower-case letters, digits " +
				"and hyphens, starting with a letter and not ending with a hyphen. Changing it forces a new binding.",
			Validators: []validator.String{stringvalidator.LengthBetween(4, 63),
				stringvalidator.RegexMatches(bindingIDRE, "must start with a lower-case letter, hold only lower-case letters, digits and hyphens, and not end with a hyphen")},
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"project":  replacing("The project that owns the binding. Defaults to the provider's `project`. Changing it forces a new binding."),
		"location": replacing("The registry location of the binding. Defaults to the provider's `location`. Changing it forces a new binding."),
		"display_name": schema.StringAttribute{Optional: true, MarkdownDescription: "A display name, at most 63 characters.",
			Validators: []validator.String{stringvalidator.UTF8LengthAtMost(63)}},
		"description": schema.StringAttribute{Optional: true, MarkdownDescription: "A description, at most 2048 characters.",
			Validators: []validator.String{stringvalidator.UTF8LengthAtMost(2048)}},
		"source": schema.StringAttribute{Optional: true,
			MarkdownDescription: "The source agent, " + agentURNShape + ". Without it the binding is available to every agent.",
			Validators:          []validator.String{stringvalidator.RegexMatches(agentURNRE, "must be "+agentURNShape)}},
		"target": schema.StringAttribute{Required: true,
			MarkdownDescription: "The target agent, MCP server or endpoint: " + targetURNShape + ".",
			Validators:          []validator.String{stringvalidator.RegexMatches(targetURNRE, "must be "+targetURNShape)}},
		"auth_provider": schema.StringAttribute{Optional: true,
			MarkdownDescription: "The auth provider the source uses to reach the target, `" + authProviderShape + "`.",
			Validators:          []validator.String{stringvalidator.RegexMatches(authProviderRE, "must be "+authProviderShape)}},
		"scopes": schema.ListAttribute{Optional: true, ElementType: types.StringType,
			MarkdownDescription: "The OAuth 2.0 scopes to request from `auth_provider`, in order. Requires `auth_provider`.",
			Validators: []validator.List{listvalidator.AlsoRequires(path.MatchRoot("auth_provider")),
				listvalidator.ValueStringsAre(stringvalidator.RegexMatches(scopeRE, "must be a scope without spaces"))}},
		"continue_uri": schema.StringAttribute{Optional: true,
			MarkdownDescription: "The URI the auth provider returns to, to finish a managed OAuth flow. Requires `auth_provider`.",
			Validators:          []validator.String{validators.AbsoluteURL(), stringvalidator.AlsoRequires(path.MatchRoot("auth_provider"))}},
		"create_time": computed("When the binding was created (RFC 3339)."),
		"update_time": schema.StringAttribute{Computed: true, MarkdownDescription: "When the binding was last updated (RFC 3339)."},
	}
}

// ModifyPlan names a new binding at plan, from the configuration or the
// provider's project and location, so that other resources can use it.
func (r *bindingResource) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || !req.State.Raw.IsNull() || r.data == nil {
		return
	}
	var m bindingModel
	resp.Diagnostics.Append(req.Plan.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	m.Name = r.planName(&m.Project, &m.Location, m.BindingID)
	m.ID = m.Name
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &m)...)
}

// toBinding is the Binding to send. Display name and description are always
// sent, so that clearing one reaches the registry.
func (m *bindingModel) toBinding(ctx context.Context) *agentregistry.Binding {
	b := &agentregistry.Binding{
		Name: m.Name.ValueString(), DisplayName: m.DisplayName.ValueString(), Description: m.Description.ValueString(),
		Target:          &agentregistry.Target{Identifier: m.Target.ValueString()},
		ForceSendFields: []string{"DisplayName", "Description"},
	}
	if !m.Source.IsNull() {
		b.Source = &agentregistry.Source{Identifier: m.Source.ValueString()}
	}
	if !m.AuthProvider.IsNull() {
		var scopes []string
		m.Scopes.ElementsAs(ctx, &scopes, false)
		b.AuthProviderBinding = &agentregistry.AuthProviderBinding{
			AuthProvider: m.AuthProvider.ValueString(), Scopes: scopes, ContinueUri: m.ContinueURI.ValueString(),
		}
	}
	return b
}

// refresh takes every configurable attribute from the registry's copy, so
// that a change made outside Terraform shows as drift.
func (m *bindingModel) refresh(ctx context.Context, b *agentregistry.Binding) {
	m.ID, m.Name = types.StringValue(b.Name), types.StringValue(b.Name)
	if n, ok := bindingNaming.parse(b.Name); ok {
		m.Project, m.Location, m.BindingID = types.StringValue(n.Project), types.StringValue(n.Location), types.StringValue(n.ID)
	}
	m.DisplayName = refreshString(m.DisplayName, b.DisplayName)
	m.Description = refreshString(m.Description, b.Description)
	var source, target string
	if b.Source != nil {
		source = b.Source.Identifier
	}
	if b.Target != nil {
		target = b.Target.Identifier
	}
	m.Source, m.Target = refreshString(m.Source, source), types.StringValue(target)
	a := b.AuthProviderBinding
	if a == nil {
		a = &agentregistry.AuthProviderBinding{}
	}
	m.AuthProvider = refreshString(m.AuthProvider, a.AuthProvider)
	m.ContinueURI = refreshString(m.ContinueURI, a.ContinueUri)
	if len(a.Scopes) > 0 || (!m.Scopes.IsNull() && len(m.Scopes.Elements()) > 0) {
		m.Scopes, _ = types.ListValueFrom(ctx, types.StringType, a.Scopes)
	} else if m.Scopes.ElementType(ctx) == nil {
		m.Scopes = types.ListNull(types.StringType)
	}
	m.CreateTime, m.UpdateTime = types.StringValue(b.CreateTime), types.StringValue(b.UpdateTime)
}

// updateMask lists the API fields that differ between plan (m) and state.
func (m *bindingModel) updateMask(prior *bindingModel) []string {
	var mask []string
	for field, same := range map[string]bool{
		"displayName": sameString(m.DisplayName, prior.DisplayName),
		"description": sameString(m.Description, prior.Description),
		"source":      sameString(m.Source, prior.Source),
		"target":      m.Target.Equal(prior.Target),
		"authProviderBinding": sameString(m.AuthProvider, prior.AuthProvider) && sameString(m.ContinueURI, prior.ContinueURI) &&
			sameStringList(m.Scopes, prior.Scopes),
	} {
		if !same {
			mask = append(mask, field)
		}
	}
	slices.Sort(mask) // map order is random; the mask is not
	return mask
}

func (r *bindingResource) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	m, ok := load[bindingModel](ctx, &r.resourceBase, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	ctx, cancel := withDeadline(ctx, m.Timeouts.Create, &resp.Diagnostics)
	defer cancel()
	name := r.data.resolve(m.Project, m.Location, m.BindingID.ValueString())
	b, err := r.data.Client.CreateBinding(ctx, name.parent(), name.ID, m.toBinding(ctx))
	if err != nil {
		resp.Diagnostics.AddError("Cannot Create Binding", apiErrorDetail("create", r.naming.format(name), err))
		return
	}
	m.refresh(ctx, b)
	r.save(ctx, &resp.State, resp.Identity, m, b.Name, &resp.Diagnostics)
}

func (r *bindingResource) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	m, ok := load[bindingModel](ctx, &r.resourceBase, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	b, ok := readOrForget(ctx, &r.resourceBase, resp, "Binding", m.Name.ValueString(), r.data.Client.GetBinding)
	if !ok {
		return
	}
	m.refresh(ctx, b)
	resp.Diagnostics.Append(resp.State.Set(ctx, m)...)
}

func (r *bindingResource) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, state, ok := loadPair[bindingModel](ctx, &r.resourceBase, req.Plan, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	mask := plan.updateMask(state)
	if len(mask) == 0 {
		// Only timeouts changed: nothing to send.
		plan.UpdateTime = state.UpdateTime
		r.save(ctx, &resp.State, resp.Identity, plan, plan.Name.ValueString(), &resp.Diagnostics)
		return
	}
	ctx, cancel := withDeadline(ctx, plan.Timeouts.Update, &resp.Diagnostics)
	defer cancel()
	b, err := r.data.Client.UpdateBinding(ctx, plan.toBinding(ctx), mask)
	if err != nil {
		resp.Diagnostics.AddError("Cannot Update Binding", apiErrorDetail("update", plan.Name.ValueString(), err))
		return
	}
	plan.refresh(ctx, b)
	r.save(ctx, &resp.State, resp.Identity, plan, b.Name, &resp.Diagnostics)
}

func (r *bindingResource) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	m, ok := load[bindingModel](ctx, &r.resourceBase, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	ctx, cancel := withDeadline(ctx, m.Timeouts.Delete, &resp.Diagnostics)
	defer cancel()
	name := m.Name.ValueString()
	reportDelete(&resp.Diagnostics, "Binding", name, r.data.Client.DeleteBinding(ctx, name))
}

// ImportState takes a full binding name, a bare binding_id or an identity;
// Read fills in the rest.
func (r *bindingResource) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	n, diags := r.naming.importName(ctx, r.data, req)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	name := r.naming.format(n)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), name)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), name)...)
	resp.Diagnostics.Append(r.naming.setIdentity(ctx, resp.Identity, n)...)
}

// sameStringList compares lists of strings; null and empty are the same to the API.
func sameStringList(a, b types.List) bool {
	if a.IsUnknown() || b.IsUnknown() {
		return false
	}
	if len(a.Elements()) == 0 && len(b.Elements()) == 0 {
		return true
	}
	return a.Equal(b)
}
