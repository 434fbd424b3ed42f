package provider

import (
	"context"
	"fmt"
	"net"
	"net/url"
	"strings"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/validators"
)

// settings is the provider configuration after environment variables and defaults.
type settings struct {
	endpoint, appHubEndpoint, project, location, accessToken string
	// google holds the Google provider's other credentials options.
	google googleAuthSettings
	// requestTimeout bounds one HTTP attempt; zero takes the client's default.
	requestTimeout time.Duration
}

// maxRequestTimeout is the longest request_timeout accepted: a registry that
// needs longer to answer one request is not answering.
const maxRequestTimeout = 10 * time.Minute

// defaultRequestTimeout is request_timeout's default (the client's).
const defaultRequestTimeout = time.Minute

// resolveSettings applies environment variables and defaults to the configuration
// and reports, at plan time, what is malformed or missing.
func resolveSettings(ctx context.Context, cfg providerModel) (settings, diag.Diagnostics) {
	var diags diag.Diagnostics
	s := settings{
		endpoint: envOr(cfg.Endpoint, defaultEndpoint, "AGENTREGISTRY_ENDPOINT"),
		project:  envOr(cfg.Project, "", "AGENTREGISTRY_PROJECT", "GOOGLE_CLOUD_PROJECT"),
		location: envOr(cfg.Location, defaultLocation, "AGENTREGISTRY_LOCATION"),
	}
	if raw := envOr(cfg.RequestTimeout, "", "AGENTREGISTRY_REQUEST_TIMEOUT"); raw != "" {
		d, err := validators.ParseDuration(raw, maxRequestTimeout)
		if err != nil {
			diags.AddAttributeError(path.Root("request_timeout"), "Invalid Request Timeout",
				"The provider's request_timeout (from the configuration or AGENTREGISTRY_REQUEST_TIMEOUT): "+err.Error()+".")
		}
		s.requestTimeout = d
	}
	resolveGoogleAuth(ctx, cfg, &s, &diags) // after request_timeout, which bounds reading a credentials file
	appHubDefault := s.endpoint
	if isGoogleEndpoint(s.endpoint) {
		appHubDefault = defaultAppHubEndpoint
	}
	s.appHubEndpoint = envOr(cfg.AppHubEndpoint, appHubDefault, "AGENTREGISTRY_APPHUB_ENDPOINT")

	for _, e := range []struct{ attr, value string }{{"endpoint", s.endpoint}, {"apphub_endpoint", s.appHubEndpoint}} {
		if err := validators.CheckEndpointURL(e.value); err != nil {
			diags.AddAttributeError(path.Root(e.attr), "Invalid Endpoint URL",
				fmt.Sprintf("The provider's %s (from the configuration or AGENTREGISTRY_%s): %v", e.attr, strings.ToUpper(e.attr), err))
		}
	}
	if s.project == "" {
		diags.AddAttributeError(path.Root("project"), "Missing Project",
			"The provider needs the project that owns the registrations. Set `project` in the provider block, "+
				"or the AGENTREGISTRY_PROJECT (or GOOGLE_CLOUD_PROJECT) environment variable.")
	}
	return s, diags
}

// tokenInClearWarnings warns, at plan, when a token would travel
// unencrypted to another machine: a plain http:// endpoint whose host is
// not loopback, with credentials configured or Application Default
// Credentials used (an http:// URL on a Google host). It is a warning, not an
// error, because a private network may be trusted; the redirect check of the
// client keeps the token off other origins in any case.
func tokenInClearWarnings(s settings) diag.Diagnostics {
	var diags diag.Diagnostics
	if !s.sendsCredentials() && !s.useADC() {
		return diags
	}
	endpoints := []struct{ attr, value string }{{"endpoint", s.endpoint}}
	if s.appHubEndpoint != s.endpoint {
		endpoints = append(endpoints, struct{ attr, value string }{"apphub_endpoint", s.appHubEndpoint})
	}
	for _, e := range endpoints {
		u, err := url.Parse(e.value)
		if err != nil || u.Scheme != "http" || isLoopback(u.Hostname()) {
			continue
		}
		diags.AddAttributeWarning(path.Root(e.attr), "Access Token Sent Over Plain HTTP",
			fmt.Sprintf("The provider's %s is %s, a plain http:// URL on another machine, and credentials are configured "+
				"(access_token, credentials or impersonate_service_account, or their environment variables) or, for a "+
				"Google host, Application Default Credentials are used: every request carries a token unencrypted, "+
				"readable by anyone on the network path. Use an https:// endpoint, or a registry on this machine "+
				"(localhost, 127.0.0.1 or ::1).", e.attr, e.value))
	}
	return diags
}

// isLoopback tells whether host names this machine without a DNS lookup.
func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// billingProjectWarnings warns that billing_project does nothing without
// user_project_override, as in the Google provider, where it is ignored
// without a word.
func billingProjectWarnings(s settings) diag.Diagnostics {
	var diags diag.Diagnostics
	if s.google.billingProject != "" && !s.google.userProjectOverride {
		diags.AddAttributeWarning(path.Root("billing_project"), "Billing Project Ignored",
			fmt.Sprintf("The provider's billing_project (or AGENTREGISTRY_BILLING_PROJECT, GOOGLE_BILLING_PROJECT) is %q, "+
				"but user_project_override is not true, so no request names it (as in the Google provider): the quota "+
				"project is the credentials file's quota_project_id, if any. Set user_project_override = true (or "+
				"USER_PROJECT_OVERRIDE=true) to send it in X-Goog-User-Project, or remove billing_project.",
				s.google.billingProject))
	}
	return diags
}
