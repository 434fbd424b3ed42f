package provider

// The one implementation behind every service resource (agentregistry_agent,
// agentregistry_mcp_server, and the kinds to come): create, read, update,
// delete, import, plan and state upgrades of one registry Service. Each kind
// gives a serviceKind (names, schema, its derived record) and a model that
// implements kindModel (its own attributes and how they map to the API).

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsondoc"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/validators"
)

// serviceKind describes one kind of Service registration to the core.
type serviceKind struct {
	// typeSuffix is the resource type after "agentregistry_", such as "agent".
	typeSuffix string
	// title names the kind in diagnostic summaries, such as "Agent".
	title string
	// schema is the resource's schema (see serviceSchema).
	schema func(context.Context) schema.Schema
	// documents are the kind's document attributes, by attribute name: their
	// warnings are reported at plan (see validators.Document.Warnings).
	documents map[string]validators.Document
	// fields maps the API fields of the kind's own attributes (as the API
	// names them in field violations) to those attributes.
	fields map[string]string
	// derivedID reads the id of the record the registry derives from the
	// service (an Agent's agentId, an McpServer's mcpServerId).
	derivedID func(ctx context.Context, c *registryclient.Client, registryResource string) (string, error)
	// upgraders are the kind's state upgraders, by prior schema version.
	upgraders func(context.Context) map[int64]resource.StateUpgrader
	// configValidators check combinations of the kind's attributes at plan.
	configValidators []resource.ConfigValidator
}

// kindModel is what a kind's model gives the core; M is the model struct and
// the methods are on *M.
type kindModel[M any] interface {
	*M
	// service returns the attributes every kind shares.
	service() *serviceModel
	// derivedRecordID is the attribute that holds the derived record's id.
	derivedRecordID() *types.String
	// setDerived sets the attributes computed from the kind's own attributes
	// (a card's skill ids, a tool spec's tool names): known when those are, so
	// that plans show them; unknown otherwise.
	setDerived() diag.Diagnostics
	// keepDerived copies those attributes from the prior state, for an update
	// that changes nothing the registry sees.
	keepDerived(prior *M)
	// updateMask lists the API fields of the kind's own attributes that differ
	// from the prior state.
	updateMask(ctx context.Context, prior *M) []string
	// fill writes the kind's own attributes into the Service to send.
	fill(ctx context.Context, svc *agentregistry.Service) diag.Diagnostics
	// refresh takes the kind's own attributes from the registry's copy.
	refresh(ctx context.Context, svc *agentregistry.Service) diag.Diagnostics
}

// serviceResource is a service resource of one kind.
type serviceResource[M any, P kindModel[M]] struct {
	kind serviceKind
	data *providerData
}

var (
	_ resource.ResourceWithConfigure    = (*serviceResource[agentModel, *agentModel])(nil)
	_ resource.ResourceWithImportState  = (*serviceResource[agentModel, *agentModel])(nil)
	_ resource.ResourceWithModifyPlan   = (*serviceResource[agentModel, *agentModel])(nil)
	_ resource.ResourceWithUpgradeState = (*serviceResource[agentModel, *agentModel])(nil)
	_ resource.ResourceWithMoveState    = (*serviceResource[agentModel, *agentModel])(nil)

	_ resource.ResourceWithConfigValidators = (*serviceResource[mcpServerModel, *mcpServerModel])(nil)
)

func (r *serviceResource[M, P]) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + r.kind.typeSuffix
}

func (r *serviceResource[M, P]) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.kind.schema(ctx)
}

func (r *serviceResource[M, P]) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if d := configureResource(req, resp); d != nil {
		r.data = d
	}
}

func (r *serviceResource[M, P]) ConfigValidators(context.Context) []resource.ConfigValidator {
	return r.kind.configValidators
}

func (r *serviceResource[M, P]) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	if r.kind.upgraders == nil {
		return nil
	}
	return r.kind.upgraders(ctx)
}

// ModifyPlan fills in what is known before apply: a new service's name and
// project, the attributes derived from the documents, and, for an update that
// changes nothing the registry sees (a reformatted document), every computed
// value as it is, since that update makes no API call.
func (r *serviceResource[M, P]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() || req.Plan.Raw.Equal(req.State.Raw) {
		return // destroy, or nothing changes: the plan is the state
	}
	var plan M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	p := P(&plan)
	base := p.service()
	if req.State.Raw.IsNull() {
		planServiceIdentity(r.data, base)
	}
	resp.Diagnostics.Append(p.setDerived()...)
	resp.Diagnostics.Append(documentWarnings(ctx, req.Plan, r.kind.documents)...)
	if !req.State.Raw.IsNull() {
		var state M
		resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
		if resp.Diagnostics.HasError() {
			return
		}
		if len(r.updateMask(ctx, p, &state)) == 0 {
			base.UpdateTime = P(&state).service().UpdateTime
			p.keepDerived(&state)
		}
	}
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// documentWarnings reports the warnings of the planned documents that are known.
func documentWarnings(ctx context.Context, plan tfsdk.Plan, documents map[string]validators.Document) diag.Diagnostics {
	var diags diag.Diagnostics
	for name, d := range documents {
		var doc jsondoc.Value
		diags.Append(plan.GetAttribute(ctx, path.Root(name), &doc)...)
		if !doc.IsNull() && !doc.IsUnknown() {
			diags.Append(d.Warnings(path.Root(name), doc.ValueString())...)
		}
	}
	return diags
}

// planServiceIdentity fills in project, location, name and id at plan time for
// a new service, from the configuration or the provider's defaults.
func planServiceIdentity(data *providerData, m *serviceModel) {
	if data == nil {
		return
	}
	if m.Project.IsUnknown() && data.Project != "" {
		m.Project = types.StringValue(data.Project)
	}
	if m.Location.IsUnknown() && data.Location != "" {
		m.Location = types.StringValue(data.Location)
	}
	if m.Project.IsUnknown() || m.Location.IsUnknown() || m.ServiceID.IsUnknown() {
		return
	}
	n := data.parent(m.Project, m.Location) + "/services/" + m.ServiceID.ValueString()
	m.Name = types.StringValue(n)
	m.ID = types.StringValue(n)
}

// updateMask lists every API field that differs semantically between plan and state.
func (r *serviceResource[M, P]) updateMask(ctx context.Context, plan P, state *M) []string {
	return append(plan.service().updateMask(P(state).service()), plan.updateMask(ctx, state)...)
}

func (r *serviceResource[M, P]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	if r.data == nil {
		missingProviderData(&resp.Diagnostics)
		return
	}
	var plan M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	p := P(&plan)
	base := p.service()
	ctx, cancel, ok := withTimeout(ctx, base.Timeouts.Create, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	svc := base.toService()
	resp.Diagnostics.Append(p.fill(ctx, svc)...)
	if resp.Diagnostics.HasError() {
		return
	}
	parent := r.data.parent(base.Project, base.Location)
	created, err := r.data.Client.CreateService(ctx, parent, base.ServiceID.ValueString(), svc)
	if err != nil {
		r.kind.addAPIError(&resp.Diagnostics, "Cannot Create "+r.kind.title, apiErrorDetail("create", parent+"/services/"+base.ServiceID.ValueString(), err), err)
		return
	}
	base.setComputed(created)
	*p.derivedRecordID() = types.StringValue(r.derivedID(ctx, created.RegistryResource))
	resp.Diagnostics.Append(p.setDerived()...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

// derivedID reads the id of the derived record, falling back to the last
// segment of its name when the record cannot be read.
func (r *serviceResource[M, P]) derivedID(ctx context.Context, registryResource string) string {
	if registryResource == "" {
		return ""
	}
	if id, err := r.kind.derivedID(ctx, r.data.Client, registryResource); err == nil && id != "" {
		return id
	}
	return lastSegment(registryResource)
}

func (r *serviceResource[M, P]) Read(ctx context.Context, req resource.ReadRequest, resp *resource.ReadResponse) {
	if r.data == nil {
		missingProviderData(&resp.Diagnostics)
		return
	}
	var state M
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	p := P(&state)
	base := p.service()
	svc := readService(ctx, r.data, base.Name.ValueString(), r.kind.title, resp)
	if svc == nil {
		return
	}
	if kind := serviceKindOf(svc); kind != "" && kind != r.kind.typeSuffix {
		resp.Diagnostics.AddError("Service Is Another Kind",
			fmt.Sprintf("The service %s is registered as %s, not as %s: manage it with the agentregistry_%s resource "+
				"(import it there), and take it out of this one with `terraform state rm`.",
				svc.Name, serviceKindNoun(kind), serviceKindNoun(r.kind.typeSuffix), kind))
		return
	}
	if id := p.derivedRecordID(); svc.RegistryResource != base.RegistryResource.ValueString() || id.ValueString() == "" {
		*id = types.StringValue(r.derivedID(ctx, svc.RegistryResource))
	}
	base.refresh(svc)
	resp.Diagnostics.Append(p.refresh(ctx, svc)...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &state)...)
}

// commonFields maps the API fields every kind shares to their attributes.
var commonFields = map[string]string{"display_name": "display_name", "description": "description", "service_id": "service_id"}

// addAPIError reports a write the registry refused. When the registry names
// the field at fault, the error is attached to its attribute, so that the CLI
// points at that line of the configuration rather than at the resource block.
func (k serviceKind) addAPIError(diags *diag.Diagnostics, summary, detail string, err error) {
	var ae *registryclient.APIError
	if errors.As(err, &ae) {
		for _, v := range ae.FieldViolations {
			if p, ok := k.attributeOf(v.Field); ok {
				diags.AddAttributeError(p, summary, detail)
				return
			}
		}
	}
	diags.AddError(summary, detail)
}

// attributeOf returns the attribute an API field concerns: "agent_spec.content"
// is agent_card, "interfaces[1].url" is interfaces[1].url.
func (k serviceKind) attributeOf(field string) (path.Path, bool) {
	field = strings.TrimPrefix(field, "service.")
	head, rest, _ := strings.Cut(field, ".")
	name, index, indexed := strings.Cut(head, "[")
	attr, ok := commonFields[name]
	if !ok {
		attr, ok = k.fields[name]
	}
	if !ok {
		return path.Empty(), false
	}
	p := path.Root(attr)
	if i, err := strconv.Atoi(strings.TrimSuffix(index, "]")); indexed && err == nil {
		p = p.AtListIndex(i)
		if rest == "url" || rest == "protocol_binding" {
			p = p.AtName(rest)
		}
	}
	return p, true
}

// serviceKindOf names the kind of a Service by its spec, as the resource type
// suffix that manages it; "" when it carries no spec.
func serviceKindOf(svc *agentregistry.Service) string {
	switch {
	case svc.AgentSpec != nil:
		return "agent"
	case svc.McpServerSpec != nil:
		return "mcp_server"
	case svc.EndpointSpec != nil:
		return "endpoint"
	}
	return ""
}

// serviceKindNoun is a resource type suffix in words, for messages.
func serviceKindNoun(kind string) string {
	switch kind {
	case "agent":
		return "an agent (agentSpec)"
	case "mcp_server":
		return "an MCP server (mcpServerSpec)"
	case "endpoint":
		return "an endpoint (endpointSpec)"
	}
	return kind
}

func (r *serviceResource[M, P]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	if r.data == nil {
		missingProviderData(&resp.Diagnostics)
		return
	}
	var plan, state M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	p := P(&plan)
	base := p.service()
	mask := r.updateMask(ctx, p, &state)
	if len(mask) == 0 {
		// Only a document's formatting changed: nothing to send (ModifyPlan kept
		// every computed value).
		resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
		return
	}
	ctx, cancel, ok := withTimeout(ctx, base.Timeouts.Update, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()

	svc := base.toService()
	resp.Diagnostics.Append(p.fill(ctx, svc)...)
	if resp.Diagnostics.HasError() {
		return
	}
	updated, err := r.data.Client.UpdateService(ctx, svc, mask)
	if err != nil {
		r.kind.addAPIError(&resp.Diagnostics, "Cannot Update "+r.kind.title, apiErrorDetail("update", svc.Name, err), err)
		return
	}
	base.applyUpdated(updated)
	if id := p.derivedRecordID(); id.IsUnknown() {
		*id = types.StringValue(r.derivedID(ctx, updated.RegistryResource))
	}
	resp.Diagnostics.Append(p.setDerived()...)
	resp.Diagnostics.Append(resp.State.Set(ctx, &plan)...)
}

func (r *serviceResource[M, P]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	if r.data == nil {
		missingProviderData(&resp.Diagnostics)
		return
	}
	var state M
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return
	}
	base := P(&state).service()
	ctx, cancel, ok := withTimeout(ctx, base.Timeouts.Delete, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()
	err := r.data.Client.DeleteService(ctx, base.Name.ValueString())
	if err != nil && !registryclient.IsNotFound(err) {
		resp.Diagnostics.AddError("Cannot Delete "+r.kind.title, apiErrorDetail("delete", base.Name.ValueString(), err))
	}
}

func (r *serviceResource[M, P]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	importServiceState(ctx, r.data, "agentregistry_"+r.kind.typeSuffix, req, resp)
}
