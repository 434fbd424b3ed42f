package provider

// API errors in diagnostics, with what to do about the ones a user can act on.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"syscall"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/termsafe"
	"github.com/hashicorp/terraform-plugin-framework/diag"
)

// apiErrorDetail renders an API error for a diagnostic's detail, with what to
// do about the errors a user can act on.
func apiErrorDetail(action, what string, err error) string {
	detail := fmt.Sprintf("Could not %s %s: %s", action, what, termsafe.Text(err.Error()))
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
		return "The registry refused the credentials. Check the provider's `access_token` or `credentials` (or " +
			"AGENTREGISTRY_ACCESS_TOKEN, AGENTREGISTRY_CREDENTIALS; for Google's endpoint without either, Application " +
			"Default Credentials: `gcloud auth application-default login`), and that the principal has an Agent Registry role on the " +
			"project (roles/agentregistry.editor to register, roles/agentregistry.viewer to read; App Hub Viewer for " +
			"AgentProperties); with `impersonate_service_account`, the service account has the role and the principal " +
			"has roles/iam.serviceAccountTokenCreator on it. See the guide \"Google Agent Registry\"."
	case errors.Is(err, syscall.ECONNREFUSED):
		return "Nothing answered at the registry's address. Check the provider's `endpoint` (or the " +
			"AGENTREGISTRY_ENDPOINT environment variable); for the bundled registry, start it first: " +
			"`agentregistry-server -listen 127.0.0.1:8787`."
	}
	return ""
}

// addNotConfigured reports a call on an unconfigured provider (what: "this
// resource"), which the framework never makes: it is a bug, not a nil
// dereference.
func addNotConfigured(diags *diag.Diagnostics, what string) {
	if configErrorsReported.Load() {
		return // the configuration error that left it unconfigured is reported once (providerDataFrom)
	}
	diags.AddError("Provider Not Configured", "The agentregistry provider was not configured before "+what+
		" was used. This is a bug in the provider; please report it.")
}

// pageCapsDoc states the caps of every paged read, for the pages of the data
// sources and list resources that read pages.
var pageCapsDoc = fmt.Sprintf("Every read of the registry's pages is capped at %d pages (and %d pages in a row that "+
	"bring no record: a registry may answer a filtered read with a few empty pages), %d records, %d MiB of answers "+
	"holding %d JSON values (counted on the bytes, before anything is decoded), page tokens of %d KiB and %d minutes "+
	"of waiting, whatever the registry sends; a read that reaches a cap ends with an error that names it and the "+
	"attributes that narrow the read (and no partial result), so that a registry answering without end cannot "+
	"exhaust the machine or hang the plan.",
	registryclient.DefaultPageLimits.Pages, registryclient.DefaultPageLimits.EmptyPages, registryclient.DefaultPageLimits.Records,
	registryclient.DefaultPageLimits.Bytes>>20, registryclient.DefaultPageLimits.Values, registryclient.DefaultPageLimits.TokenBytes>>10,
	int(registryclient.DefaultPageLimits.Time/time.Minute))

// addPageLimitError reports a paged read that stopped at one of its caps,
// naming the attributes that narrow it (narrow), and reports whether err was
// one.
func addPageLimitError(diags *diag.Diagnostics, what string, err error, narrow string) bool {
	var le *registryclient.PageLimitError
	if !errors.As(err, &le) {
		return false
	}
	diags.AddError("Registry Read Stopped at a Cap", fmt.Sprintf("Reading %s stopped: %s.\n\n%s Narrow the "+
		"read with %s; if the registry is yours, check that its next page tokens end.", what, le.Error(), pageCapsDoc, narrow))
	return true
}
