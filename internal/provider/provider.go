// Package provider implements the agentregistry Terraform provider.
package provider

import (
	"context"
	"errors"
	"fmt"
	"maps"
	"net/url"
	"os"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/cardsig"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
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
}

// New returns the factory of the provider, for providerserver.Serve and the tests.
func New(version string) func() provider.Provider {
	return func() provider.Provider { return &agentRegistryProvider{version: version} }
}

type providerModel struct {
	Endpoint        types.String `tfsdk:"endpoint"`
	AppHubEndpoint  types.String `tfsdk:"apphub_endpoint"`
	Project         types.String `tfsdk:"project"`
	Location        types.String `tfsdk:"location"`
	AccessToken     types.String `tfsdk:"access_token"`
	TrustedKeys     types.String `tfsdk:"trusted_keys"`
	SignaturePolicy types.String `tfsdk:"signature_policy"`
	RequestTimeout  types.String `tfsdk:"request_timeout"`

	// The Google provider's credentials options (provider_google_auth.go).
	Credentials                        types.String `tfsdk:"credentials"`
	ImpersonateServiceAccount          types.String `tfsdk:"impersonate_service_account"`
	ImpersonateServiceAccountDelegates types.List   `tfsdk:"impersonate_service_account_delegates"`
	BillingProject                     types.String `tfsdk:"billing_project"`
	UserProjectOverride                types.Bool   `tfsdk:"user_project_override"`

	// OAuth clients for protected MCP servers (provider_mcp_oauth_clients.go).
	McpOAuthClients types.Map `tfsdk:"mcp_oauth_clients"`
}

// providerData is what Configure hands to every resource and data source.
type providerData struct {
	Client   *registryclient.Client
	Project  string
	Location string
	// configErrors holds what made the configuration unusable apart from its
	// credentials (a missing project, an endpoint from the environment that is
	// no URL). They are reported by the first resource or data source that
	// needs the registry, not by Configure, because OpenTofu configures the
	// provider even when a module only calls its functions, which need none of
	// this. Credentials errors are Configure's (splitCredentialErrors).
	configErrors diag.Diagnostics
	// reported is set when configErrors have been reported (once per run).
	reported atomic.Bool
	// Signatures are the trusted keys and policy that agent cards are checked
	// against. They need no registry, so they stay usable when configErrors
	// is not empty (the live card data source works without a project).
	Signatures signatureSettings
	// AppHubEndpoint is the App Hub base URL the client uses, or "" while the
	// configuration leaves it unknown (at plan). agentregistry_agent_properties
	// refuses mode = "write" at plan when it is Google's.
	AppHubEndpoint string
	// OAuthClients are mcp_oauth_clients. Like Signatures, they need no
	// registry and stay usable when configErrors is not empty.
	OAuthClients oauthClients
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
		// Once per run, as hashicorp/google reports a credentials error: the
		// first resource or data source that needs the registry reports it,
		// the others stop without a word (a fleet of 50 agents would
		// otherwise print it 50 times). The run fails all the same.
		configErrorsReported.Store(true)
		if data.reported.CompareAndSwap(false, true) {
			diags.Append(data.configErrors...)
		}
		return nil
	}
	return data
}

// configErrorsReported is set once a configuration error has been reported in
// this process (one plugin process serves one CLI command): from then on, a
// resource or data source left without a client is that error's consequence,
// already reported, and not the "Provider Not Configured" bug.
var configErrorsReported atomic.Bool

// parent returns projects/{project}/locations/{location}, applying per-resource overrides.
func (d *providerData) parent(project, location types.String) string {
	r := d.resolve(project, location, "")
	return fmt.Sprintf("projects/%s/locations/%s", r.Project, r.Location)
}

// resolve names a record by its id, with a project and location that default
// to the provider's when null or empty.
func (d *providerData) resolve(project, location types.String, id string) recordName {
	r := recordName{Project: d.Project, Location: d.Location, ID: id}
	if v := project.ValueString(); v != "" {
		r.Project = v
	}
	if v := location.ValueString(); v != "" {
		r.Location = v
	}
	return r
}

func (p *agentRegistryProvider) Metadata(_ context.Context, _ provider.MetadataRequest, resp *provider.MetadataResponse) {
	resp.TypeName = "agentregistry"
	resp.Version = p.version
}

func (p *agentRegistryProvider) Schema(_ context.Context, _ provider.SchemaRequest, resp *provider.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Registers A2A agents, MCP servers, endpoints, bindings and standalone skills, and App Hub " +
			"`AgentProperties`, in an Agent Registry that speaks the Google Agent Registry REST API v1; validates " +
			"every document at plan time; and finds agents, MCP servers and skills by what they can do.",
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
			"access_token": accessTokenAttribute(),
			"trusted_keys": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "The public keys trusted to sign A2A agent cards, as a JWKS JSON string " +
					"(`{\"keys\":[...]}`, RFC 7517), such as `file(\"${path.module}/trusted-keys.jwks\")`. A card's signature " +
					"is checked with the key whose `kid` its protected header names; every key needs a `kid`, and only " +
					"public keys are accepted (EC P-256/P-384, RSA, Ed25519). Keys are never fetched: a `jku`, `x5u` or " +
					"any URL in a card is ignored. Environment variable `AGENTREGISTRY_TRUSTED_KEYS`. Used by " +
					"`agentregistry_agent` and the `agentregistry_agent_card` data source when `signature_policy` is not `off`.",
				Validators: []validator.String{trustedKeysValidator{}},
			},
			"signature_policy": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "What the provider demands of agent card signatures (A2A `signatures`, detached JWS " +
					"over the RFC 8785 canonical card), checked at plan time: `off` (the default: nothing is checked), " +
					"`verify_if_present` (an unsigned card passes, but every signature a card carries must verify " +
					"against `trusted_keys`) or `require` (also refuses an unsigned card). Allowed algorithms: ES256, " +
					"ES384, RS256, PS256, EdDSA; `none` and HMAC are refused. Environment variable " +
					"`AGENTREGISTRY_SIGNATURE_POLICY`. `agentregistry_agent` and `agentregistry_agent_card` can override it.",
				Validators: []validator.String{signaturePolicyValidator()},
			},
			"request_timeout": requestTimeoutAttribute(),
		},
	}
	maps.Copy(resp.Schema.Attributes, credentialAttributes())
}

// accessTokenAttribute is the provider's access_token.
func accessTokenAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional:  true,
		Sensitive: true,
		MarkdownDescription: "OAuth 2.0 bearer token. Environment variables `AGENTREGISTRY_ACCESS_TOKEN`, then (for " +
			"Google's endpoint only) `GOOGLE_OAUTH_ACCESS_TOKEN`. Conflicts with `credentials`; with neither, Google " +
			"Application Default Credentials are used for Google's endpoint, and no credentials are sent to any " +
			"other endpoint (unless `impersonate_service_account` is set). Never logged, and blanked wherever a " +
			"peer echoes it. Sent only to the origins (scheme, host and port) of `endpoint` and `apphub_endpoint`: " +
			"a redirect to another origin is refused, as is every request to another origin.",
		Validators: []validator.String{stringvalidator.ConflictsWith(path.MatchRoot("credentials"))},
	}
}

// requestTimeoutAttribute is the provider's request_timeout: the bound of one
// HTTP attempt (registryclient.Config.RequestTimeout).
func requestTimeoutAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "The most one HTTP request to the registry may take, from sending it to the last " +
			"byte of the answer, as a duration such as `30s`: default `1m`, at most `10m`; environment variable " +
			"`AGENTREGISTRY_REQUEST_TIMEOUT`. A request that takes longer is abandoned and retried like a dropped " +
			"connection (a retried write carries the same request id, so it is not applied twice); after 7 attempts " +
			"the plan or apply fails with an error that names this setting. Every wait counts too: a request, its " +
			"retries and the waits between them (`Retry-After` included) end within a deadline of 7 × " +
			"`request_timeout` + 1 minute (8 minutes by default; the backoff between two attempts is at most 10 s), " +
			"and a registry that asks to be retried after that deadline ends the read at once, with an error that " +
			"names the deadline, instead of being waited for. It bounds what has no `timeouts` " +
			"block (data sources, refresh, `terraform query`) against a registry that accepts connections and " +
			"never answers; a resource's `timeouts` still bound its whole create, update or delete.",
		Validators: []validator.String{validators.Duration(maxRequestTimeout)},
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
	settings, diags := resolveSettings(ctx, cfg)
	// What is wrong with the credentials is the provider's error, reported here
	// once and the same on every run, as the Google provider reports it; the
	// rest waits for a resource that needs the registry (providerData).
	credentialErrors, deferred := splitCredentialErrors(diags)
	resp.Diagnostics.Append(credentialErrors...)
	data := &providerData{Project: settings.project, Location: settings.location, configErrors: deferred,
		Signatures: resolveSignatureSettings(cfg)}
	data.OAuthClients = resolveOAuthClients(ctx, cfg.McpOAuthClients, &resp.Diagnostics)
	if !cfg.Endpoint.IsUnknown() && !cfg.AppHubEndpoint.IsUnknown() {
		data.AppHubEndpoint = settings.appHubEndpoint
	}
	if !diags.HasError() {
		resp.Diagnostics.Append(tokenInClearWarnings(settings)...)
		resp.Diagnostics.Append(billingProjectWarnings(settings)...)
		// The one set of secrets the client registers every credential in and
		// blanks its errors with (redact).
		secrets := &redact.Secrets{}
		client, err := registryclient.New(ctx, registryclient.Config{
			Endpoint:       settings.endpoint,
			AppHubEndpoint: settings.appHubEndpoint,
			AccessToken:    settings.accessToken,
			UseADC:         settings.useADC(),
			Google:         settings.clientAuth(),
			UserAgent:      "terraform-provider-agentregistry/" + p.version,
			RequestTimeout: settings.requestTimeout,
			Secrets:        secrets,
		})
		if err != nil {
			resp.Diagnostics.AddError("Cannot Create Agent Registry Client", secrets.Blank(err.Error()))
			return
		}
		data.Client = client
	}
	resp.ResourceData = data
	resp.DataSourceData = data
	resp.ListResourceData = data
}

// splitCredentialErrors separates the errors about the credentials options
// (googleAuthAttributes) from the others. Those are reported by Configure: a
// configuration that names a project and whose credentials cannot be used
// fails as a whole, once, as it does with the Google provider, instead of on
// whichever resource is planned first while the others plan as if the
// registry could be reached.
func splitCredentialErrors(diags diag.Diagnostics) (credentials, others diag.Diagnostics) {
	attrs := googleAuthAttributes()
	for _, d := range diags {
		if p, ok := d.(diag.DiagnosticWithPath); ok && d.Severity() == diag.SeverityError {
			if _, isCredential := attrs[p.Path().String()]; isCredential {
				credentials.Append(d)
				continue
			}
		}
		others.Append(d)
	}
	return credentials, others
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

// signatureSettings are the provider's trusted_keys and signature_policy after
// environment variables and defaults.
type signatureSettings struct {
	keys   []byte
	policy cardsig.Policy
	// unknown is set while either setting depends on a value not known yet
	// (at plan); checks wait for apply.
	unknown bool
	// errs holds what is wrong with a setting taken from the environment
	// (the configuration's own values are checked by their validators). It
	// is reported by whatever checks a signature, not by Configure, so that a
	// bad variable does not break modules that never look at signatures; and
	// once per run (errsReported), as the provider's configuration errors are:
	// the other checks fail without a word, the run having failed already.
	errs         diag.Diagnostics
	errsReported *atomic.Bool
}

// reportErrors appends errs to diags the first time it is called, and
// nothing after that.
func (s signatureSettings) reportErrors(diags *diag.Diagnostics) {
	if s.errsReported == nil || s.errsReported.CompareAndSwap(false, true) {
		diags.Append(s.errs...)
	}
}

func resolveSignatureSettings(cfg providerModel) signatureSettings {
	s := signatureSettings{
		keys:         []byte(envOr(cfg.TrustedKeys, "", "AGENTREGISTRY_TRUSTED_KEYS")),
		policy:       cardsig.Policy(envOr(cfg.SignaturePolicy, string(cardsig.PolicyOff), "AGENTREGISTRY_SIGNATURE_POLICY")),
		unknown:      cfg.TrustedKeys.IsUnknown() || cfg.SignaturePolicy.IsUnknown(),
		errsReported: new(atomic.Bool),
	}
	if err := checkTrustedKeys(s.keys); err != nil {
		s.errs.AddAttributeError(path.Root("trusted_keys"), "Invalid Trusted Keys",
			"The provider's trusted_keys (from the configuration or AGENTREGISTRY_TRUSTED_KEYS): "+err.Error())
	}
	if err := checkSignaturePolicy(string(s.policy)); err != nil {
		s.errs.AddAttributeError(path.Root("signature_policy"), "Invalid Signature Policy",
			"The provider's signature_policy (from the configuration or AGENTREGISTRY_SIGNATURE_POLICY): "+err.Error())
	}
	return s
}

var signaturePolicies = []string{string(cardsig.PolicyOff), string(cardsig.PolicyVerifyIfPresent), string(cardsig.PolicyRequire)}

func signaturePolicyValidator() validator.String { return stringvalidator.OneOf(signaturePolicies...) }

func checkSignaturePolicy(p string) error {
	if !slices.Contains(signaturePolicies, p) {
		return fmt.Errorf("%q is not a signature policy; expected off, verify_if_present or require", p)
	}
	return nil
}

// checkTrustedKeys refuses what cannot serve as trust anchors: a document that
// is not a JWKS, a key without a kid (no signature could ever choose it), and
// private or symmetric key material, which has no place in a configuration
// that only verifies. Messages name keys by position and kid, never by bytes.
func checkTrustedKeys(jwks []byte) error {
	set, err := cardsig.TrustedKeys(jwks)
	if err != nil {
		return fmt.Errorf("expected a JWKS ({\"keys\":[...]} of public JWKs), a JWK or PEM public keys: %v", err)
	}
	var problems []string
	for i, k := range set.Keys {
		if !k.IsPublic() {
			name := fmt.Sprintf("key %d", i+1)
			if k.KeyID != "" {
				name += fmt.Sprintf(" (kid %q)", k.KeyID)
			}
			problems = append(problems, name+" is not a public key: give only public keys, "+
				"such as the JWKS the signer publishes or provider::agentregistry::public_jwks of the public key "+
				"(a private or shared secret key must not be in the configuration)")
		}
	}
	if len(problems) > 0 {
		return errors.New(strings.Join(problems, "; "))
	}
	return nil
}

// trustedKeysValidator checks the configured trusted_keys at validate time.
type trustedKeysValidator struct{}

func (trustedKeysValidator) Description(context.Context) string {
	return "must be public keys: a JWKS, a JWK or PEM; a key without a kid gets its RFC 7638 thumbprint"
}

func (v trustedKeysValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (trustedKeysValidator) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := checkTrustedKeys([]byte(req.ConfigValue.ValueString())); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Trusted Keys", "The provider's trusted_keys: "+err.Error())
	}
}
