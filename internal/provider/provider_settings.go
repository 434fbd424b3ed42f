package provider

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/validators"
)

// settings is the provider configuration after environment variables and defaults.
type settings struct {
	endpoint, appHubEndpoint, project, location, accessToken string
}

// resolveSettings applies environment variables and defaults to the configuration
// and reports, at plan time, what is malformed or missing.
func resolveSettings(cfg providerModel) (settings, diag.Diagnostics) {
	var diags diag.Diagnostics
	s := settings{
		endpoint:    envOr(cfg.Endpoint, defaultEndpoint, "AGENTREGISTRY_ENDPOINT"),
		project:     envOr(cfg.Project, "", "AGENTREGISTRY_PROJECT", "GOOGLE_CLOUD_PROJECT"),
		location:    envOr(cfg.Location, defaultLocation, "AGENTREGISTRY_LOCATION"),
		accessToken: envOr(cfg.AccessToken, "", "AGENTREGISTRY_ACCESS_TOKEN"),
	}
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
