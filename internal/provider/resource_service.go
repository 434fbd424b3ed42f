package provider

// The one implementation behind every service resource (agentregistry_agent,
// agentregistry_mcp_server, agentregistry_endpoint): create, read, update,
// delete, import, plan, state upgrades and moves of one registry Service.
// Each kind is a serviceKind (its naming, schema, derived record, state
// upgraders and document policy) and a model that implements kindModel (its
// own attributes, how they map to the API and to a moved Google state),
// both in the kind's file; a new kind is one file and one line in
// Resources(). The engine names no kind: its own tests use a kind of their
// own (widgetModel).

import (
	"context"
	"fmt"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/validators"
)

// serviceKind describes one kind of Service registration to the core.
type serviceKind[M any] struct {
	naming naming
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
	// upgraders are the kind's state upgraders, by prior schema version; nil
	// for a kind whose schema never changed.
	upgraders func(context.Context) map[int64]resource.StateUpgrader
	// configValidators check combinations of the kind's attributes at plan.
	configValidators []resource.ConfigValidator
	// policy is what the kind decides about the document it sends beyond
	// its validators (documentPolicy); nil for a kind that sends its
	// attributes as they are and checks nothing more (noDocumentPolicy).
	policy documentPolicy[M]
}

// documentPolicy is what a kind decides about the document it sends, with
// what the provider's configuration and the plan's write-only values give
// (the agent signs its card with signing_key_wo and checks its signatures
// against the provider's trusted_keys; the MCP server compares its tool spec
// with approved_tools): a validator, which runs before the provider is
// configured, cannot. A kind implements all of it or has none, so that a
// kind that verifies also says whether an unchanged plan needs it.
type documentPolicy[M any] interface {
	// prepare makes the document the kind sends in place of its attribute,
	// with a write-only secret of the configuration: once per plan and once
	// per write, before verify. A write prepares again rather than take the
	// plan's document: the key is in no plan, and the framework gives Create
	// no private state of its plan. The core passes the result to verify,
	// driftNote, the kind's fill and recordSent; the zero outgoing sends the
	// attribute as it is.
	prepare(ctx context.Context, config tfsdk.Config, m *M, diags *diag.Diagnostics) outgoing
	// verify checks the kind's own attributes as they are sent (out). It
	// runs once per plan, once before every write (a value unknown at plan
	// is checked there) and, with onRead, after every read, on what the
	// kind's refresh returned; there it reports nothing and keeps the prior
	// value when the check fails.
	verify(data *providerData, m *M, out outgoing, onRead bool, diags *diag.Diagnostics)
	// verifyUnchanged tells whether an unchanged plan needs prepare and
	// verify; when it does not, such a plan (every unchanged agent of a
	// drift check) is not decoded.
	verifyUnchanged(ctx context.Context, data *providerData, plan tfsdk.Plan, config tfsdk.Config) bool
	// driftNote explains at plan an update of a record changed outside
	// Terraform (state is the refreshed prior state), when the diff alone would
	// mislead (the agent's signed card: out is what apply sends).
	driftNote(state, plan *M, out outgoing, diags *diag.Diagnostics)
}

// noDocumentPolicy is the policy of a kind without one: the attributes are
// sent as they are, and nothing is checked beyond the validators.
type noDocumentPolicy[M any] struct{}

func (noDocumentPolicy[M]) prepare(context.Context, tfsdk.Config, *M, *diag.Diagnostics) outgoing {
	return outgoing{}
}
func (noDocumentPolicy[M]) verify(*providerData, *M, outgoing, bool, *diag.Diagnostics) {}
func (noDocumentPolicy[M]) verifyUnchanged(context.Context, *providerData, tfsdk.Plan, tfsdk.Config) bool {
	return false
}
func (noDocumentPolicy[M]) driftNote(_, _ *M, _ outgoing, _ *diag.Diagnostics) {}

// outgoing is what a kind sends for its document attribute, made once per
// plan and once per write by its document policy's prepare and passed, as a value,
// to whatever checks, sends or records it; on read, the kind's refresh
// returns the registry's copy of it. The zero value: the attribute is sent as
// it is, and its RFC 8785 form is not made yet.
type outgoing struct {
	// doc is the document sent in place of the attribute (the card signed
	// with signing_key_wo); nil when the attribute itself is sent.
	doc []byte
	// canonical is the RFC 8785 form of what is sent (doc, else the
	// attribute) when it is already made, for verify and the digest; always
	// set with doc.
	canonical []byte
	// unknown is set while doc cannot be made: the key or the card is
	// unknown at plan (apply makes it).
	unknown bool
}

// replaces tells whether something else than the attribute is sent.
func (o outgoing) replaces() bool { return o.doc != nil || o.unknown }

// checked is the document verify checks: doc, else the attribute's value,
// with its RFC 8785 form when made.
func (o outgoing) checked(attribute string) canonicalDocument {
	if o.doc != nil {
		return canonicalDocument{raw: o.doc, canonical: o.canonical}
	}
	return canonicalDocument{raw: []byte(attribute), canonical: o.canonical}
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
	// updateMask lists the API fields of the kind's document that differ
	// from the prior state (the shared fields are the core's).
	updateMask(prior *M) []string
	// fill writes the kind's spec into the Service to send: out.doc in place
	// of the attribute when prepare made one.
	fill(svc *agentregistry.Service, out outgoing) diag.Diagnostics
	// refresh takes the kind's spec from the registry's copy and re-derives
	// what depends on it, or on the interfaces when interfacesChanged.
	// sentDigest is the digest recordSent kept of the document the last write
	// sent in place of the attribute ("" for none): the registry holding it
	// is no change. It returns what verify checks on read: as out.doc, the
	// registry's copy when it is that document; as out.canonical, the RFC
	// 8785 form the refresh made of the registry's copy, when it is also the
	// form of what the state now holds (else nil), so that each document is
	// canonicalised once per read.
	refresh(svc *agentregistry.Service, interfacesChanged bool, sentDigest string) (outgoing, diag.Diagnostics)
	// fromGoogle takes the kind's own attributes from a
	// google_agent_registry_service state (moves, see resource_service_move_state.go).
	fromGoogle(g *googleService)
}

// serviceResource is a service resource of one kind.
type serviceResource[M any, P kindModel[M]] struct {
	resourceBase
	kind serviceKind[M]
}

func newServiceResource[M any, P kindModel[M]](kind serviceKind[M]) *serviceResource[M, P] {
	if kind.policy == nil {
		kind.policy = noDocumentPolicy[M]{}
	}
	if kind.upgraders == nil {
		kind.upgraders = func(context.Context) map[int64]resource.StateUpgrader { return nil }
	}
	r := &serviceResource[M, P]{resourceBase: resourceBase{naming: kind.naming}, kind: kind}
	// The framework's interfaces a service resource implements, whatever its
	// kind: go build checks them here for every M and P.
	var _ interface {
		resource.ResourceWithConfigure
		resource.ResourceWithImportState
		resource.ResourceWithModifyPlan
		resource.ResourceWithUpgradeState
		resource.ResourceWithMoveState
		resource.ResourceWithIdentity
		resource.ResourceWithConfigValidators
	} = r
	return r
}

func (r *serviceResource[M, P]) Schema(ctx context.Context, _ resource.SchemaRequest, resp *resource.SchemaResponse) {
	resp.Schema = r.kind.schema(ctx)
}

func (r *serviceResource[M, P]) ConfigValidators(context.Context) []resource.ConfigValidator {
	return r.kind.configValidators
}

func (r *serviceResource[M, P]) UpgradeState(ctx context.Context) map[int64]resource.StateUpgrader {
	return r.kind.upgraders(ctx)
}

// ModifyPlan fills in what is known before apply: a new service's name and
// project, the attributes derived from the documents, and, for an update that
// changes nothing the registry sees (a reformatted document), every computed
// value as it is, since that update makes no API call. The kind's document
// policy runs on every plan, an unchanged one included when it asks to.
func (r *serviceResource[M, P]) ModifyPlan(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse) {
	if req.Plan.Raw.IsNull() {
		return // destroy
	}
	unchanged := req.Plan.Raw.Equal(req.State.Raw)
	if unchanged && !r.kind.policy.verifyUnchanged(ctx, r.data, req.Plan, req.Config) {
		return // the plan is the state
	}
	var plan M
	resp.Diagnostics.Append(req.Plan.Get(ctx, &plan)...)
	if resp.Diagnostics.HasError() {
		return
	}
	var prior *M
	if !unchanged {
		prior = r.planChange(ctx, req, resp, &plan)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	out := r.kind.policy.prepare(ctx, req.Config, &plan, &resp.Diagnostics)
	if prior != nil && !resp.Diagnostics.HasError() {
		r.kind.policy.driftNote(prior, &plan, out, &resp.Diagnostics)
	}
	r.kind.policy.verify(r.data, &plan, out, false, &resp.Diagnostics)
	resp.Diagnostics.Append(resp.Plan.Set(ctx, &plan)...)
}

// planChange is ModifyPlan's part for a create or an update; it returns the
// prior state of an update.
func (r *serviceResource[M, P]) planChange(ctx context.Context, req resource.ModifyPlanRequest, resp *resource.ModifyPlanResponse, plan *M) (prior *M) {
	p := P(plan)
	base := p.service()
	if req.State.Raw.IsNull() {
		base.Name = r.planName(&base.Project, &base.Location, base.ServiceID)
		base.ID = base.Name
	}
	resp.Diagnostics.Append(p.setDerived()...)
	resp.Diagnostics.Append(documentWarnings(ctx, req.Plan, r.kind.documents)...)
	if req.State.Raw.IsNull() {
		return nil
	}
	var state M
	resp.Diagnostics.Append(req.State.Get(ctx, &state)...)
	if resp.Diagnostics.HasError() {
		return nil
	}
	if len(r.updateMask(ctx, p, &state)) == 0 {
		base.UpdateTime = P(&state).service().UpdateTime
		p.keepDerived(&state)
	}
	return &state
}

// updateMask lists every API field that differs semantically between plan and state.
func (r *serviceResource[M, P]) updateMask(ctx context.Context, plan P, state *M) []string {
	return append(plan.service().updateMask(ctx, P(state).service()), plan.updateMask(state)...)
}

// toService is the Service to send for the model, once the document the kind
// prepared passed verify: the shared fields and the kind's spec, and that
// document, for recordSent.
func (r *serviceResource[M, P]) toService(ctx context.Context, config tfsdk.Config, m *M, diags *diag.Diagnostics) (*agentregistry.Service, outgoing) {
	out := r.kind.policy.prepare(ctx, config, m, diags)
	r.kind.policy.verify(r.data, m, out, false, diags)
	svc, d := P(m).service().toService(ctx)
	diags.Append(d...)
	diags.Append(P(m).fill(svc, out)...)
	if diags.HasError() {
		return nil, out
	}
	return svc, out
}

func (r *serviceResource[M, P]) Create(ctx context.Context, req resource.CreateRequest, resp *resource.CreateResponse) {
	plan, ok := load[M](ctx, &r.resourceBase, req.Plan, &resp.Diagnostics)
	if !ok {
		return
	}
	base := P(plan).service()
	svc, out := r.toService(ctx, req.Config, plan, &resp.Diagnostics)
	if svc == nil {
		return
	}
	ctx, cancel := withDeadline(ctx, base.Timeouts.Create, &resp.Diagnostics)
	defer cancel()
	name := r.data.resolve(base.Project, base.Location, base.ServiceID.ValueString())
	created, err := r.data.Client.CreateService(ctx, name.parent(), name.ID, svc)
	if err != nil {
		r.kind.addAPIError(&resp.Diagnostics, "Cannot Create "+r.kind.title, apiErrorDetail("create", r.naming.format(name), err), err)
		return
	}
	base.setComputed(created)
	resp.Diagnostics.Append(recordSent(ctx, resp.Private, out)...)
	*P(plan).derivedRecordID() = types.StringValue(r.derivedID(ctx, created.RegistryResource))
	resp.Diagnostics.Append(P(plan).setDerived()...)
	r.save(ctx, &resp.State, resp.Identity, plan, created.Name, &resp.Diagnostics)
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
	state, ok := load[M](ctx, &r.resourceBase, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	svc, ok := readOrForget(ctx, &r.resourceBase, resp, r.kind.title, P(state).service().Name.ValueString(), r.data.Client.GetService)
	if !ok {
		return
	}
	resp.Diagnostics.Append(r.fromService(ctx, state, svc, sentDigestOf(ctx, req.Private))...)
	if !resp.Diagnostics.HasError() {
		resp.Diagnostics.Append(resp.State.Set(ctx, state)...)
	}
}

// fromService takes the registry's copy of the service into m, as Read
// stores it: m holds the prior state (at least the name, after an import),
// whose values stand where the registry's are the same; sentDigest is the
// private state's (see recordSent), "" where there is none. A service of
// another kind is an error.
func (r *serviceResource[M, P]) fromService(ctx context.Context, m *M, svc *agentregistry.Service, sentDigest string) diag.Diagnostics {
	var diags diag.Diagnostics
	if kind := serviceKindOf(svc); kind != "" && kind != r.naming.typeSuffix {
		diags.AddError("Service Is Another Kind",
			fmt.Sprintf("The service %s is registered as %s, not as %s: manage it with the agentregistry_%s resource "+
				"(import it there), and take it out of this one with `terraform state rm`.",
				svc.Name, serviceKindNoun(kind), serviceKindNoun(r.naming.typeSuffix), kind))
		return diags
	}
	p := P(m)
	base := p.service()
	if id := p.derivedRecordID(); svc.RegistryResource != base.RegistryResource.ValueString() || id.ValueString() == "" {
		*id = types.StringValue(r.derivedID(ctx, svc.RegistryResource))
	}
	interfacesChanged, d := base.refresh(ctx, svc)
	diags.Append(d...)
	held, d := p.refresh(svc, interfacesChanged, sentDigest)
	diags.Append(d...)
	r.kind.policy.verify(r.data, m, held, true, &diags)
	return diags
}

func (r *serviceResource[M, P]) Update(ctx context.Context, req resource.UpdateRequest, resp *resource.UpdateResponse) {
	plan, state, ok := loadPair[M](ctx, &r.resourceBase, req.Plan, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	p := P(plan)
	base := p.service()
	mask := r.updateMask(ctx, p, state)
	if len(mask) == 0 {
		// Only a document's formatting changed, or a setting of the provider's
		// side (timeouts, signature_policy): nothing to send (ModifyPlan kept
		// every computed value).
		r.save(ctx, &resp.State, resp.Identity, plan, base.Name.ValueString(), &resp.Diagnostics)
		return
	}
	svc, out := r.toService(ctx, req.Config, plan, &resp.Diagnostics)
	if svc == nil {
		return
	}
	ctx, cancel := withDeadline(ctx, base.Timeouts.Update, &resp.Diagnostics)
	defer cancel()
	updated, err := r.data.Client.UpdateService(ctx, svc, mask)
	if err != nil {
		r.kind.addAPIError(&resp.Diagnostics, "Cannot Update "+r.kind.title, apiErrorDetail("update", svc.Name, err), err)
		return
	}
	base.applyUpdated(updated)
	resp.Diagnostics.Append(recordSent(ctx, resp.Private, out)...)
	if id := p.derivedRecordID(); id.IsUnknown() {
		*id = types.StringValue(r.derivedID(ctx, updated.RegistryResource))
	}
	resp.Diagnostics.Append(p.setDerived()...)
	r.save(ctx, &resp.State, resp.Identity, plan, updated.Name, &resp.Diagnostics)
}

func (r *serviceResource[M, P]) Delete(ctx context.Context, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	state, ok := load[M](ctx, &r.resourceBase, req.State, &resp.Diagnostics)
	if !ok {
		return
	}
	base := P(state).service()
	ctx, cancel := withDeadline(ctx, base.Timeouts.Delete, &resp.Diagnostics)
	defer cancel()
	name := base.Name.ValueString()
	reportDelete(&resp.Diagnostics, r.kind.title, name, r.data.Client.DeleteService(ctx, name))
}

// ImportState takes a full service name, a bare service_id or an identity;
// Read fills in the rest.
func (r *serviceResource[M, P]) ImportState(ctx context.Context, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	n, diags := r.naming.importName(ctx, r.data, req)
	resp.Diagnostics.Append(diags...)
	if resp.Diagnostics.HasError() {
		return
	}
	name := r.naming.format(n)
	for attr, v := range map[string]string{"id": name, "name": name, "service_id": n.ID, "project": n.Project, "location": n.Location} {
		resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root(attr), v)...)
	}
	resp.Diagnostics.Append(r.naming.setIdentity(ctx, resp.Identity, n)...)
}

// sentKey is the private state key of the digest of a document a kind sent
// in place of its attribute (a signed card): the state keeps the attribute
// as written, and a refresh that finds the registry holding what was sent
// takes it as no change.
const sentKey = "sent_document_sha256"

// recordSent keeps the digest of the document sent in place of the
// attribute, or forgets it when the attribute itself was sent.
func recordSent(ctx context.Context, private privateState, out outgoing) diag.Diagnostics {
	if out.doc == nil {
		return private.SetKey(ctx, sentKey, nil)
	}
	digest := canonicalDocument{raw: out.doc, canonical: out.canonical}.digest()
	return private.SetKey(ctx, sentKey, []byte(strconv.Quote(digest)))
}

// sentDigestOf is the digest recordSent kept in the private state, or "".
func sentDigestOf(ctx context.Context, private privateState) string {
	raw, _ := private.GetKey(ctx, sentKey)
	digest, err := strconv.Unquote(string(raw))
	if err != nil {
		return ""
	}
	return digest
}

// privateState is a resource's private state (the framework's
// privatestate.ProviderData, which is internal).
type privateState interface {
	GetKey(ctx context.Context, key string) ([]byte, diag.Diagnostics)
	SetKey(ctx context.Context, key string, value []byte) diag.Diagnostics
}
