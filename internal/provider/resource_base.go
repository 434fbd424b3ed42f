package provider

// resourceBase is embedded by every resource: Configure, the identity schema,
// loading a CRUD call's model, write deadlines, read-or-forget and deletes that
// count NOT_FOUND as done, so that each CRUD body starts at its API call. How a
// resource names its records (full names, bare ids, identity) is its naming
// (resource_naming.go).

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
)

const defaultResourceTimeout = 10 * time.Minute

type resourceBase struct {
	data   *providerData
	naming naming
}

func (b *resourceBase) Metadata(_ context.Context, req resource.MetadataRequest, resp *resource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_" + b.naming.typeSuffix
}

// Configure keeps the provider data; it is nil while the provider is not
// configured yet (validate), and every CRUD call then reports it.
func (b *resourceBase) Configure(_ context.Context, req resource.ConfigureRequest, resp *resource.ConfigureResponse) {
	if d := providerDataFrom(req.ProviderData, &resp.Diagnostics); d != nil {
		b.data = d
	}
}

func (b *resourceBase) IdentitySchema(_ context.Context, _ resource.IdentitySchemaRequest, resp *resource.IdentitySchemaResponse) {
	resp.IdentitySchema = b.naming.identitySchema()
}

// configured reports an unconfigured provider, which the framework never lets
// a CRUD call see; the check keeps a bug from being a nil dereference.
func (b *resourceBase) configured(diags *diag.Diagnostics) bool {
	if b.data == nil {
		addNotConfigured(diags, "this resource")
		return false
	}
	return true
}

// getter is a plan, a state or a configuration.
type getter interface {
	Get(ctx context.Context, target any) diag.Diagnostics
}

// load decodes a CRUD call's plan or state into a model of type M, once the
// provider is configured; ok is false after an error was reported.
func load[M any](ctx context.Context, b *resourceBase, from getter, diags *diag.Diagnostics) (m *M, ok bool) {
	if !b.configured(diags) {
		return nil, false
	}
	m = new(M)
	diags.Append(from.Get(ctx, m)...)
	return m, !diags.HasError()
}

// loadPair decodes an update's plan and prior state.
func loadPair[M any](ctx context.Context, b *resourceBase, plan, state getter, diags *diag.Diagnostics) (p, s *M, ok bool) {
	if p, ok = load[M](ctx, b, plan, diags); !ok {
		return nil, nil, false
	}
	s = new(M)
	diags.Append(state.Get(ctx, s)...)
	return p, s, !diags.HasError()
}

// withDeadline bounds one create, update or delete by the resource's
// `timeouts` value; the client polls long-running operations until then. The
// block's own validator has already refused a malformed duration, so a value
// that still cannot be read falls back to the default with a warning.
func withDeadline(ctx context.Context, timeout func(context.Context, time.Duration) (time.Duration, diag.Diagnostics),
	diags *diag.Diagnostics) (context.Context, context.CancelFunc) {
	d, tdiags := timeout(ctx, defaultResourceTimeout)
	if tdiags.HasError() {
		diags.AddWarning("Timeout Not Read",
			fmt.Sprintf("The resource's timeouts could not be read (%s); the default of %s applies.",
				tdiags.Errors()[0].Detail(), defaultResourceTimeout))
		d = defaultResourceTimeout
	}
	return context.WithTimeout(ctx, d)
}

// readOrForget reads a record for Read. The identity is set first, from the
// name in state: the framework wants one after every read, a read that
// removes the resource included. When the registry no longer has the record,
// the resource leaves the state (the next plan creates it again) and ok is
// false; any other error is reported as "Cannot Read <title>", and a record
// past the caps of what a read keeps (record_caps.go) as well.
func readOrForget[T any](ctx context.Context, b *resourceBase, resp *resource.ReadResponse, title, name string,
	get func(context.Context, string) (T, error)) (rec T, ok bool) {
	resp.Diagnostics.Append(b.naming.setIdentityOf(ctx, resp.Identity, name)...)
	if resp.Diagnostics.HasError() {
		return rec, false
	}
	rec, err := get(ctx, name)
	if registryclient.IsNotFound(err) {
		resp.State.RemoveResource(ctx)
		return rec, false
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot Read "+title, apiErrorDetail("read", name, err))
		return rec, false
	}
	return rec, withinRecordCaps(&resp.Diagnostics, name, rec)
}

// reportDelete reports a failed delete; NOT_FOUND means the record is already
// gone, which is what a delete wants.
func reportDelete(diags *diag.Diagnostics, title, name string, err error) {
	if err != nil && !registryclient.IsNotFound(err) {
		diags.AddError("Cannot Delete "+title, apiErrorDetail("delete", name, err))
	}
}

// planName fills in, for a new record, the project and location from the
// configuration or the provider's defaults and returns its name, or an unknown
// name while a part of it is unknown.
func (b *resourceBase) planName(project, location *types.String, id types.String) types.String {
	if b.data != nil {
		if project.IsUnknown() && b.data.Project != "" {
			*project = types.StringValue(b.data.Project)
		}
		if location.IsUnknown() && b.data.Location != "" {
			*location = types.StringValue(b.data.Location)
		}
	}
	if b.data == nil || project.IsUnknown() || location.IsUnknown() || id.IsUnknown() {
		return types.StringUnknown()
	}
	return types.StringValue(b.naming.format(b.data.resolve(*project, *location, id.ValueString())))
}

// save writes a model to the state and the record's identity beside it. Every
// create and update sets both (a read, readOrForget): the framework wants an
// identity after each, and a CLI without identity support sends none to
// start from.
func (b *resourceBase) save(ctx context.Context, state *tfsdk.State, identity *tfsdk.ResourceIdentity, m any, name string,
	diags *diag.Diagnostics) {
	diags.Append(state.Set(ctx, m)...)
	diags.Append(b.naming.setIdentityOf(ctx, identity, name)...)
}
