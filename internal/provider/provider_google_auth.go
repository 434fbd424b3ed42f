package provider

// The Google provider's credentials options, with its names, meaning and
// environment variables: credentials (a file's path or content),
// impersonate_service_account and its delegates, billing_project with
// user_project_override. The tokens are minted by registryclient (auth.go).

import (
	"cmp"
	"context"
	"fmt"
	"os"
	"regexp"
	"strconv"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/googlecreds"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/validators"
)

// iamCredentialsEndpoint is where impersonate_service_account's tokens are
// asked for; "" is Google's IAM Credentials API. No configuration sets it:
// google.golang.org/api/impersonate fixes Google's URL, and the acceptance
// tests point it at a stand-in on a loopback listener.
var iamCredentialsEndpoint string

// The environment variables of the Google provider, read only when the
// endpoint is Google's (googleCredentialVars), so that a Google credential
// in a CI's environment never goes to another registry.
var (
	googleAccessTokenVars = []string{"GOOGLE_OAUTH_ACCESS_TOKEN"}
	googleCredentialsVars = []string{"GOOGLE_CREDENTIALS", "GOOGLE_CLOUD_KEYFILE_JSON", "GCLOUD_KEYFILE_JSON"}
)

var serviceAccountEmail = regexp.MustCompile(`^[^@\s]+@[^@\s]+$`)

const serviceAccountMessage = "must be a service account's email, such as deployer@my-project.iam.gserviceaccount.com"

// googleAuthAttributes are the provider attributes beyond access_token.
func googleAuthAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"credentials": schema.StringAttribute{
			Optional:  true,
			Sensitive: true,
			MarkdownDescription: "A Google credentials file, by its path or its JSON content, as in the Google provider: a " +
				"service account key, an `authorized_user` file (`gcloud auth application-default login`), or an " +
				"`external_account` file (workload identity federation, as a CI's identity gets it). Environment variables " +
				"`AGENTREGISTRY_CREDENTIALS`, then (for Google's endpoint only) `GOOGLE_CREDENTIALS`, " +
				"`GOOGLE_CLOUD_KEYFILE_JSON`, `GCLOUD_KEYFILE_JSON`. Conflicts with `access_token`; without either, " +
				"Application Default Credentials are used for Google's endpoint (`GOOGLE_APPLICATION_CREDENTIALS`). " +
				"A file is read at plan, and its content is never shown in a message or a log; it must be a regular file " +
				"of at most 1 MiB, read within `request_timeout` (a named pipe, a device or a directory is refused, naming " +
				"the path), and so must an `external_account` file's `credential_source.file`.",
			Validators: []validator.String{
				stringvalidator.ConflictsWith(path.MatchRoot("access_token")),
				stringvalidator.LengthAtLeast(1),
				validators.GoogleCredentials(),
			},
		},
		"impersonate_service_account": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "The service account to act as: the credentials (`access_token`, `credentials` or " +
				"Application Default Credentials) mint its short-lived tokens through the IAM Credentials API, and every " +
				"request carries those. The credentials' principal needs `roles/iam.serviceAccountTokenCreator` on it. " +
				"Environment variables `AGENTREGISTRY_IMPERSONATE_SERVICE_ACCOUNT`, then (for Google's endpoint only) " +
				"`GOOGLE_IMPERSONATE_SERVICE_ACCOUNT`.",
			Validators: []validator.String{stringvalidator.RegexMatches(serviceAccountEmail, serviceAccountMessage)},
		},
		"impersonate_service_account_delegates": schema.ListAttribute{
			Optional:    true,
			ElementType: types.StringType,
			MarkdownDescription: "The delegation chain to `impersonate_service_account`: each service account, in order, " +
				"holds `roles/iam.serviceAccountTokenCreator` on the next.",
			Validators: []validator.List{
				listvalidator.AlsoRequires(path.MatchRoot("impersonate_service_account")),
				listvalidator.ValueStringsAre(stringvalidator.RegexMatches(serviceAccountEmail, serviceAccountMessage)),
			},
		},
		"billing_project": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "The quota and billing project sent in every request's `X-Goog-User-Project` header when " +
				"`user_project_override` is true (ignored otherwise, as in the Google provider). Environment variables " +
				"`AGENTREGISTRY_BILLING_PROJECT`, then `GOOGLE_BILLING_PROJECT`.",
		},
		"user_project_override": schema.BoolAttribute{
			Optional: true,
			MarkdownDescription: "Send a quota project in `X-Goog-User-Project`: `billing_project`, or else the project " +
				"each request names. Default false: the credentials file's `quota_project_id` (such as the one " +
				"`gcloud auth application-default set-quota-project` writes) is sent when there is one and no service " +
				"account is impersonated. Environment variables `AGENTREGISTRY_USER_PROJECT_OVERRIDE`, then " +
				"`USER_PROJECT_OVERRIDE` (`true` or `false`).",
		},
	}
}

// googleAuthSettings are the Google options after environment variables.
type googleAuthSettings struct {
	// credentials is the credentials file's content, read at plan.
	credentials         []byte
	impersonate         string
	delegates           []string
	billingProject      string
	userProjectOverride bool
}

// resolveGoogleAuth sets the access token and the Google options of s from
// the configuration and the environment, and reports what is malformed.
func resolveGoogleAuth(ctx context.Context, cfg providerModel, s *settings, diags *diag.Diagnostics) {
	google := isGoogleEndpoint(s.endpoint)
	token, credentials, from := primaryCredentials(cfg, google)
	s.accessToken = token
	if credentials != "" {
		content, err := googlecreds.Read(credentials, cmp.Or(s.requestTimeout, defaultRequestTimeout))
		if err != nil {
			diags.AddAttributeError(path.Root("credentials"), "Invalid Credentials", fmt.Sprintf(
				"The provider's credentials (from %s): %v. Expected the path or the JSON content of a Google credentials "+
					"file: a service account key, an authorized_user file (gcloud auth application-default login) or an "+
					"external_account file (workload identity federation). The value is not shown: it holds secrets.", from, err))
		}
		s.google.credentials = content
	}
	impersonateVars := []string{"AGENTREGISTRY_IMPERSONATE_SERVICE_ACCOUNT"}
	if google {
		impersonateVars = append(impersonateVars, "GOOGLE_IMPERSONATE_SERVICE_ACCOUNT")
	}
	s.google.impersonate = envOr(cfg.ImpersonateServiceAccount, "", impersonateVars...)
	diags.Append(cfg.ImpersonateServiceAccountDelegates.ElementsAs(ctx, &s.google.delegates, false)...)
	s.google.billingProject = envOr(cfg.BillingProject, "", "AGENTREGISTRY_BILLING_PROJECT", "GOOGLE_BILLING_PROJECT")
	override, from, ok := userProjectOverride(cfg.UserProjectOverride)
	if !ok {
		diags.AddAttributeError(path.Root("user_project_override"), "Invalid User Project Override", fmt.Sprintf(
			"The provider's user_project_override (from %s) is %q; expected true or false.", from, os.Getenv(from)))
	}
	s.google.userProjectOverride = override
}

// primaryCredentials is the access token or the credentials (a path or
// content) and where they come from. As in the Google provider, the
// configuration beats the environment: with either in the configuration,
// no variable is read; from the environment, a token beats a file of the
// same layer, AGENTREGISTRY_* first, then the Google provider's variables
// when the endpoint is Google's.
func primaryCredentials(cfg providerModel, google bool) (token, credentials, from string) {
	if isSet(cfg.AccessToken) || isSet(cfg.Credentials) {
		return cfg.AccessToken.ValueString(), cfg.Credentials.ValueString(), "the configuration"
	}
	layers := [][2][]string{{{"AGENTREGISTRY_ACCESS_TOKEN"}, {"AGENTREGISTRY_CREDENTIALS"}}}
	if google {
		layers = append(layers, [2][]string{googleAccessTokenVars, googleCredentialsVars})
	}
	for _, layer := range layers {
		if name, v := firstEnv(layer[0]); v != "" {
			return v, "", name
		}
		if name, v := firstEnv(layer[1]); v != "" {
			return "", v, name
		}
	}
	return "", "", ""
}

func isSet(v types.String) bool { return !v.IsNull() && !v.IsUnknown() && v.ValueString() != "" }

// firstEnv is the first of names set to a non-empty value, and that value.
func firstEnv(names []string) (name, value string) {
	for _, n := range names {
		if v := os.Getenv(n); v != "" {
			return n, v
		}
	}
	return "", ""
}

// userProjectOverride is the configured value, else AGENTREGISTRY_USER_PROJECT_OVERRIDE
// or USER_PROJECT_OVERRIDE, else false; ok is false when the variable named
// by from is not a boolean.
func userProjectOverride(v types.Bool) (override bool, from string, ok bool) {
	if !v.IsNull() && !v.IsUnknown() {
		return v.ValueBool(), "the configuration", true
	}
	name, raw := firstEnv([]string{"AGENTREGISTRY_USER_PROJECT_OVERRIDE", "USER_PROJECT_OVERRIDE"})
	if raw == "" {
		return false, "", true
	}
	b, err := strconv.ParseBool(raw)
	return b, name, err == nil
}

// clientAuth is the registry client's Google options for s.
func (s settings) clientAuth() registryclient.GoogleAuth {
	g := registryclient.GoogleAuth{
		CredentialsJSON:           s.google.credentials,
		ImpersonateServiceAccount: s.google.impersonate,
		ImpersonateDelegates:      s.google.delegates,
		IAMCredentialsEndpoint:    iamCredentialsEndpoint,
	}
	if s.google.userProjectOverride {
		g.UserProject, g.UserProjectFromRequest = s.google.billingProject, true
	}
	return g
}

// useADC tells whether Application Default Credentials are the source
// credentials: nothing else is given, and the endpoint is Google's or a
// service account is to be impersonated.
func (s settings) useADC() bool {
	return s.accessToken == "" && len(s.google.credentials) == 0 &&
		(isGoogleEndpoint(s.endpoint) || s.google.impersonate != "")
}

// sendsCredentials tells whether requests carry a token the configuration
// or the environment asked for.
func (s settings) sendsCredentials() bool {
	return s.accessToken != "" || len(s.google.credentials) > 0 || s.google.impersonate != ""
}
