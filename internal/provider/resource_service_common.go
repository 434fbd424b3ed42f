package provider

// Helpers shared by the service resources (agentregistry_agent and
// agentregistry_mcp_server) and agentregistry_agent_properties.

import (
	"context"
	"fmt"
	"maps"
	"reflect"
	"regexp"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsondoc"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

const defaultResourceTimeoutMinutes = 10

// serviceNamePattern matches projects/{project}/locations/{location}/services/{service}.
var serviceNamePattern = regexp.MustCompile(`^projects/([^/]+)/locations/([^/]+)/services/([^/]+)$`)

// serviceName is a parsed service resource name.
type serviceName struct {
	Project, Location, ServiceID string
}

func (n serviceName) String() string {
	return fmt.Sprintf("projects/%s/locations/%s/services/%s", n.Project, n.Location, n.ServiceID)
}

func parseServiceName(name string) (serviceName, bool) {
	m := serviceNamePattern.FindStringSubmatch(name)
	if m == nil {
		return serviceName{}, false
	}
	return serviceName{Project: m[1], Location: m[2], ServiceID: m[3]}, true
}

// configureResource extracts the provider data handed over by Configure.
func configureResource(req resource.ConfigureRequest, resp *resource.ConfigureResponse) *providerData {
	return providerDataFrom(req.ProviderData, &resp.Diagnostics)
}

// missingProviderData reports a CRUD call on an unconfigured provider.
func missingProviderData(diags *diag.Diagnostics) {
	diags.AddError("Provider Not Configured",
		"The agentregistry provider was not configured before this resource was used. Please report this issue to the provider developers.")
}

// importServiceState accepts a full service name or a bare service id (resolved
// with the provider's project and location) and sets what Read needs.
func importServiceState(ctx context.Context, data *providerData, kind string, req resource.ImportStateRequest, resp *resource.ImportStateResponse) {
	id := strings.TrimSpace(req.ID)
	n, ok := parseServiceName(id)
	if !ok {
		if strings.Contains(id, "/") || id == "" {
			resp.Diagnostics.AddError("Invalid Import ID",
				fmt.Sprintf("Cannot import %s %q: expected a full service name projects/{project}/locations/{location}/services/{service_id} "+
					"or a bare service_id such as \"currency-agent\" (resolved with the provider's project and location).", kind, id))
			return
		}
		if data == nil {
			missingProviderData(&resp.Diagnostics)
			return
		}
		n = serviceName{Project: data.Project, Location: data.Location, ServiceID: id}
	}
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("id"), n.String())...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("name"), n.String())...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("service_id"), n.ServiceID)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("project"), n.Project)...)
	resp.Diagnostics.Append(resp.State.SetAttribute(ctx, path.Root("location"), n.Location)...)
}

// refreshString keeps a null (or empty) prior value when the API answers ""
// (it omits empty strings), and otherwise takes the API's value.
func refreshString(prior types.String, api string) types.String {
	if api == "" && (prior.IsNull() || prior.ValueString() == "") {
		return prior
	}
	return types.StringValue(api)
}

// refreshDocument keeps the prior document byte for byte when the registry's
// copy is the same JSON value (it re-orders keys and re-encodes numbers), and
// otherwise takes the registry's copy, so that the next plan shows the drift.
func refreshDocument(prior jsondoc.Value, api []byte) jsondoc.Value {
	if len(api) == 0 || string(api) == "null" {
		return jsondoc.NewNull()
	}
	if !prior.IsNull() && !prior.IsUnknown() && jsondoc.SemanticallyEqual(prior.ValueString(), string(api)) {
		return prior
	}
	if norm, err := spec.Normalize(api); err == nil {
		return jsondoc.NewValue(string(norm))
	}
	return jsondoc.NewValue(string(api))
}

// compactDocument is the normalised, compact form of a document, as sent to the registry.
func compactDocument(doc jsondoc.Value) ([]byte, error) {
	return spec.Normalize([]byte(doc.ValueString()))
}

// sameString compares two planned/state strings as the API sees them (null and "" alike).
func sameString(a, b types.String) bool {
	if a.IsUnknown() || b.IsUnknown() {
		return false
	}
	return a.ValueString() == b.ValueString()
}

// sameDocument compares two documents semantically; unknown is never the same.
func sameDocument(a, b jsondoc.Value) bool {
	if a.IsUnknown() || b.IsUnknown() {
		return false
	}
	if a.IsNull() || b.IsNull() {
		return a.IsNull() == b.IsNull()
	}
	return jsondoc.SemanticallyEqual(a.ValueString(), b.ValueString())
}

// lastSegment returns what follows the last "/".
func lastSegment(name string) string {
	return name[strings.LastIndex(name, "/")+1:]
}

// apiErrorDetail renders an API error for a diagnostic's detail.
func apiErrorDetail(action, what string, err error) string {
	return fmt.Sprintf("Could not %s %s: %s", action, what, err.Error())
}

// withTimeout bounds one create, update or delete by the resource's `timeouts`
// value (default defaultResourceTimeoutMinutes); the client polls long-running
// operations until this deadline.
func withTimeout(ctx context.Context, timeout func(context.Context, time.Duration) (time.Duration, diag.Diagnostics),
	diags *diag.Diagnostics) (context.Context, context.CancelFunc, bool) {
	d, tdiags := timeout(ctx, defaultResourceTimeoutMinutes*time.Minute)
	diags.Append(tdiags...)
	if tdiags.HasError() {
		return ctx, func() {}, false
	}
	ctx, cancel := context.WithTimeout(ctx, d)
	return ctx, cancel, true
}

// serviceModel holds the attributes that agentregistry_agent and
// agentregistry_mcp_server share: both manage one registry Service.
type serviceModel struct {
	ID               types.String `tfsdk:"id"`
	Name             types.String `tfsdk:"name"`
	ServiceID        types.String `tfsdk:"service_id"`
	Project          types.String `tfsdk:"project"`
	Location         types.String `tfsdk:"location"`
	DisplayName      types.String `tfsdk:"display_name"`
	Description      types.String `tfsdk:"description"`
	RegistryResource types.String `tfsdk:"registry_resource"`
	CreateTime       types.String `tfsdk:"create_time"`
	UpdateTime       types.String `tfsdk:"update_time"`
}

// setComputed copies the registry's computed values after a create.
func (m *serviceModel) setComputed(svc *agentregistry.Service) {
	m.ID = types.StringValue(svc.Name)
	m.Name = types.StringValue(svc.Name)
	if n, ok := parseServiceName(svc.Name); ok {
		m.ServiceID = types.StringValue(n.ServiceID)
		m.Project = types.StringValue(n.Project)
		m.Location = types.StringValue(n.Location)
	}
	m.RegistryResource = types.StringValue(svc.RegistryResource)
	m.CreateTime = types.StringValue(svc.CreateTime)
	m.UpdateTime = types.StringValue(svc.UpdateTime)
}

// applyUpdated takes the registry's values after an update: the new update_time,
// and what the plan could not know yet.
func (m *serviceModel) applyUpdated(svc *agentregistry.Service) {
	m.UpdateTime = types.StringValue(svc.UpdateTime)
	if m.RegistryResource.IsUnknown() {
		m.RegistryResource = types.StringValue(svc.RegistryResource)
	}
	if m.CreateTime.IsUnknown() {
		m.CreateTime = types.StringValue(svc.CreateTime)
	}
}

// refresh takes every shared attribute from the registry's copy on read, so that
// a display name or description changed outside Terraform shows as drift.
func (m *serviceModel) refresh(svc *agentregistry.Service) {
	m.setComputed(svc)
	m.DisplayName = refreshString(m.DisplayName, svc.DisplayName)
	m.Description = refreshString(m.Description, svc.Description)
}

// readService reads a Service for Read. It returns nil after removing the
// resource from state when the registry no longer has it (the next plan then
// re-creates it), or after reporting any other error.
func readService(ctx context.Context, data *providerData, name, kind string, resp *resource.ReadResponse) *agentregistry.Service {
	svc, err := data.Client.GetService(ctx, name)
	if registryclient.IsNotFound(err) {
		resp.State.RemoveResource(ctx)
		return nil
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot Read "+kind, apiErrorDetail("read", name, err))
		return nil
	}
	return svc
}

// storeRefreshed writes what Read refreshed into the state, unless nothing
// changed: the framework starts the response from the prior state, and writing an
// unchanged model back costs a conversion of every value, skills or tools
// included (a tenth of the provider's CPU in a refresh of 500 agents). Models are
// compared field by field; a false difference only costs the write.
func storeRefreshed(ctx context.Context, resp *resource.ReadResponse, prior, refreshed any) {
	if reflect.DeepEqual(prior, refreshed) {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, refreshed)...)
}

// setPlanned writes what a service resource's ModifyPlan computed into the plan:
// the identity (project, location, name, id), update_time and the given other
// attributes one by one, then the list derived from the document (skills or
// tools), last and as a raw value.
//
// Why not Plan.Set: given the model, terraform-plugin-framework (v1.19) reflects
// over it and converts every value twice, the hundreds in the list included,
// whereas writing one attribute rebuilds a plan that stays small while its list
// is unknown. The plan of a new agent with a 10 KB card took 9.0 ms and 30,081
// allocations with Plan.Set, 6.9 ms and 21,568 this way
// (BenchmarkAgentPlanCreate10KB, medians of 4).
func setPlanned(ctx context.Context, plan *tfsdk.Plan, m *serviceModel, other map[string]attr.Value, listName string, list types.List) diag.Diagnostics {
	var diags diag.Diagnostics
	scalars := map[string]attr.Value{"project": m.Project, "location": m.Location, "name": m.Name, "id": m.ID, "update_time": m.UpdateTime}
	maps.Copy(scalars, other)
	for name, v := range scalars {
		diags.Append(plan.SetAttribute(ctx, path.Root(name), v)...)
	}
	raw, err := list.ToTerraformValue(ctx)
	if err != nil {
		diags.AddAttributeError(path.Root(listName), "Internal Error",
			"Cannot convert the planned "+listName+": "+err.Error()+". This is a bug in the provider; please report it.")
		return diags
	}
	return append(diags, plan.SetAttribute(ctx, path.Root(listName), raw)...)
}

// setCreated stores the state of a service just created: the plan, which holds
// what the configuration and ModifyPlan gave (the skills or tools included), with
// the values the registry computed put in: those setComputed sets and the given
// other ones. Only these are converted; State.Set of the model would convert
// every value twice (see setPlanned).
func setCreated(ctx context.Context, state *tfsdk.State, planned tftypes.Value, m *serviceModel, other map[string]attr.Value) diag.Diagnostics {
	var diags diag.Diagnostics
	var attrs map[string]tftypes.Value
	if err := planned.As(&attrs); err != nil {
		diags.AddError("Internal Error", "Cannot read the plan: "+err.Error()+". This is a bug in the provider; please report it.")
		return diags
	}
	attrs = maps.Clone(attrs) // As shares the plan's own map
	computed := map[string]attr.Value{"id": m.ID, "name": m.Name, "service_id": m.ServiceID, "project": m.Project,
		"location": m.Location, "registry_resource": m.RegistryResource, "create_time": m.CreateTime, "update_time": m.UpdateTime}
	maps.Copy(computed, other)
	for name, v := range computed {
		tv, err := v.ToTerraformValue(ctx)
		if err != nil {
			diags.AddAttributeError(path.Root(name), "Internal Error", "Cannot convert "+name+": "+err.Error()+". This is a bug in the provider; please report it.")
			return diags
		}
		attrs[name] = tv
	}
	return state.Set(ctx, tftypes.NewValue(planned.Type(), attrs))
}

// deleteService deletes the Service of an agent or MCP server resource; one
// already gone counts as deleted. It reads only name and timeouts from the state:
// decoding the whole model would convert every skill or tool for nothing.
func deleteService(ctx context.Context, data *providerData, kind string, req resource.DeleteRequest, resp *resource.DeleteResponse) {
	if data == nil {
		missingProviderData(&resp.Diagnostics)
		return
	}
	var name types.String
	var t timeouts.Value
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("name"), &name)...)
	resp.Diagnostics.Append(req.State.GetAttribute(ctx, path.Root("timeouts"), &t)...)
	if resp.Diagnostics.HasError() {
		return
	}
	ctx, cancel, ok := withTimeout(ctx, t.Delete, &resp.Diagnostics)
	if !ok {
		return
	}
	defer cancel()
	err := data.Client.DeleteService(ctx, name.ValueString())
	if err != nil && !registryclient.IsNotFound(err) {
		resp.Diagnostics.AddError("Cannot Delete "+kind, apiErrorDetail("delete", name.ValueString(), err))
	}
}
