// Package provider implements the agentregistry Terraform provider.
package provider

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"strings"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/validators"
)

const (
	defaultEndpoint       = "https://agentregistry.googleapis.com"
	defaultAppHubEndpoint = "https://apphub.googleapis.com"
	defaultLocation       = "global"
)

var (
	_ provider.Provider              = (*agentRegistryProvider)(nil)
	_ provider.ProviderWithFunctions = (*agentRegistryProvider)(nil)
)

type agentRegistryProvider struct {
	version string
	// usable is set once Configure has succeeded with no deferred configuration
	// error (read by unchangedPlanServer).
	usable atomic.Bool
}

type providerModel struct {
	Endpoint       types.String `tfsdk:"endpoint"`
	AppHubEndpoint types.String `tfsdk:"apphub_endpoint"`
	Project        types.String `tfsdk:"project"`
	Location       types.String `tfsdk:"location"`
	AccessToken    types.String `tfsdk:"access_token"`
}

// providerData is what Configure hands to every resource and data source.
type providerData struct {
	Client   *registryclient.Client
	Project  string
	Location string
	// configErrors holds what made the configuration unusable (a missing project,
	// no credentials). They are reported by the first resource or data source that
	// needs the registry, not by Configure, because OpenTofu configures the provider
	// even when a module only calls its functions, which need none of this.
	configErrors diag.Diagnostics
}

// providerDataFrom is the Configure step shared by every resource and data source.
// It returns nil while the provider is not configured yet (during validate), and
// reports the provider's deferred configuration errors.
func providerDataFrom(configured any, diags *diag.Diagnostics) *providerData {
	if configured == nil {
		return nil
	}
	data, ok := configured.(*providerData)
	if !ok {
		diags.AddError("Unexpected Provider Data",
			fmt.Sprintf("Expected *providerData, got %T. This is a bug in the provider; please report it.", configured))
		return nil
	}
	if data.configErrors.HasError() {
		diags.Append(data.configErrors...)
		return nil
	}
	return data
}

// parent returns projects/{project}/locations/{location}, applying per-resource overrides.
func (d *providerData) parent(project, location types.String) string {
	p, l := d.Project, d.Location
	if v := project.ValueString(); v != "" {
		p = v
	}
	if v := location.ValueString(); v != "" {
		l = v
	}
	return fmt.Sprintf("projects/%s/locations/%s", p, l)
}

func (p *agentRegistryProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "agentregistry"
	resp.Version = p.version
}

func (p *agentRegistryProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Registers A2A agents, MCP servers and App Hub `AgentProperties` in an Agent Registry " +
			"that speaks the Google Agent Registry REST API v1, validates every document at plan time, and " +
			"finds agents by skill.",
		Attributes: map[string]schema.Attribute{
			"endpoint": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Base URL of the Agent Registry API. Defaults to `" + defaultEndpoint + "`; " +
					"environment variable `AGENTREGISTRY_ENDPOINT`. Use `http://127.0.0.1:8787` for the bundled server.",
				Validators: []validator.String{validators.EndpointURL()},
			},
			"apphub_endpoint": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Base URL of the App Hub API, used by `agentregistry_agent_properties`. Defaults to `" +
					defaultAppHubEndpoint + "` when `endpoint` is Google's, and to `endpoint` otherwise (the bundled " +
					"server serves both APIs); environment variable `AGENTREGISTRY_APPHUB_ENDPOINT`.",
				Validators: []validator.String{validators.EndpointURL()},
			},
			"project": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Project that owns the registrations. Environment variable `AGENTREGISTRY_PROJECT`, " +
					"then `GOOGLE_CLOUD_PROJECT`. Required, here or in the environment.",
			},
			"location": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "Location of the registry. Defaults to `global`; environment variable `AGENTREGISTRY_LOCATION`.",
			},
			"access_token": schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				MarkdownDescription: "OAuth 2.0 bearer token. Environment variable `AGENTREGISTRY_ACCESS_TOKEN`. When no token " +
					"is given, Google Application Default Credentials are used for Google endpoints, and no credentials " +
					"are sent to any other endpoint. Never logged.",
			},
		},
	}
}

func (p *agentRegistryProvider) Configure(ctx context.Context, req provider.ConfigureRequest, resp *provider.ConfigureResponse) {
	var cfg providerModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &cfg)...)
	if resp.Diagnostics.HasError() {
		return
	}
	// Settings are resolved here, not in ValidateConfig, so that `validate` works on
	// a module without the environment; Configure still runs at plan time.
	settings, diags := resolveSettings(cfg)
	data := &providerData{Project: settings.project, Location: settings.location, configErrors: diags}
	if !diags.HasError() {
		resp.Diagnostics.Append(tokenInClearWarnings(settings)...)
		client, err := registryclient.New(ctx, registryclient.Config{
			Endpoint:       settings.endpoint,
			AppHubEndpoint: settings.appHubEndpoint,
			AccessToken:    settings.accessToken,
			UseADC:         settings.accessToken == "" && isGoogleEndpoint(settings.endpoint),
			UserAgent:      "terraform-provider-agentregistry/" + p.version,
		})
		if err != nil {
			data.configErrors.AddError("Cannot Create Agent Registry Client", err.Error())
		}
		data.Client = client
	}
	resp.ResourceData = data
	resp.DataSourceData = data
	p.usable.Store(!data.configErrors.HasError())
}

func (p *agentRegistryProvider) Functions(context.Context) []func() function.Function {
	return []func() function.Function{
		NewValidateAgentCardFunction,
		NewValidateToolSpecFunction,
		NewValidateAgentPropertiesFunction,
		NewAgentPropertiesFromCardFunction,
	}
}

// isGoogleEndpoint tells whether an endpoint is one of Google's, where Application
// Default Credentials apply.
func isGoogleEndpoint(endpoint string) bool {
	u, err := url.Parse(endpoint)
	return err == nil && strings.HasSuffix(u.Hostname(), ".googleapis.com")
}

// envOr returns the configured value, else the first non-empty environment variable, else def.
func envOr(v types.String, def string, envs ...string) string {
	if !v.IsNull() && !v.IsUnknown() && v.ValueString() != "" {
		return v.ValueString()
	}
	for _, e := range envs {
		if s := os.Getenv(e); s != "" {
			return s
		}
	}
	return def
}
