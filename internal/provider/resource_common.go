package provider

// Helpers shared by every resource: the service resources (see
// service_resource.go) and agentregistry_agent_properties.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
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
// copy is the same document as stored (it re-orders keys, re-encodes numbers,
// and keeps numbers as doubles), and otherwise takes the registry's copy, so
// that the next plan shows the drift.
func refreshDocument(prior jsondoc.Value, api []byte) jsondoc.Value {
	if len(api) == 0 || string(api) == "null" {
		return jsondoc.NewNull()
	}
	if !prior.IsNull() && !prior.IsUnknown() {
		if same, err := jsoncanon.StoredEqual([]byte(prior.ValueString()), api); err == nil && same {
			return prior
		}
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

// apiErrorDetail renders an API error for a diagnostic's detail, with what to
// do about the errors a user can act on.
func apiErrorDetail(action, what string, err error) string {
	detail := fmt.Sprintf("Could not %s %s: %s", action, what, err.Error())
	if hint := errorHint(action, what, err); hint != "" {
		detail += "\n\n" + hint
	}
	return detail
}

// errorHint says what to do after a timeout, a refused credential or an
// unreachable registry; "" for other errors, whose message says it all.
func errorHint(action, what string, err error) string {
	var ae *registryclient.APIError
	switch {
	case errors.Is(err, context.DeadlineExceeded) && action == "create":
		return "The timeout ran out before the registry finished. The service may still be created: run apply " +
			"again, and a create that finds an identical service adopts it. If the registered one differs, import " +
			"it with the ID " + what + ", or raise the resource's `timeouts`."
	case errors.Is(err, context.DeadlineExceeded):
		return "The timeout ran out before the registry finished; the change may still complete. Run apply again " +
			"to converge, or raise the resource's `timeouts`."
	case errors.As(err, &ae) && (ae.Code == http.StatusUnauthorized || ae.Code == http.StatusForbidden):
		return "The registry refused the credentials. Set `access_token` in the provider block or the " +
			"AGENTREGISTRY_ACCESS_TOKEN environment variable; for Google's endpoint without a token, Application " +
			"Default Credentials are used (`gcloud auth application-default login`), and the principal needs the " +
			"Agent Registry role for the project."
	case errors.Is(err, syscall.ECONNREFUSED):
		return "Nothing answered at the registry's address. Check the provider's `endpoint` (or the " +
			"AGENTREGISTRY_ENDPOINT environment variable); for the bundled registry, start it first: " +
			"`agentregistry-server -listen 127.0.0.1:8787`."
	}
	return ""
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
