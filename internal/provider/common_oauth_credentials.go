package provider

// The OAuth client credentials of a protected MCP server, in their two forms:
// inline, as agentregistry_mcp_tool_spec's oauth, and named, as the
// provider's mcp_oauth_clients (which take ephemeral values). Both have the
// same attributes, with the same descriptions and validators (the table
// below), and both become livedoc's credentials through oauthFromModel.
//
// A grant is added by adding its attributes to oauthStringFields, its name
// to oauthCredentialNames and oauthConflicts, then reading it in
// oauthFromModel.

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/objectvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/mcpauth"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

// mcpOAuthModel is one set of client credentials: the data source's oauth,
// or one client of the provider's mcp_oauth_clients.
type mcpOAuthModel struct {
	ClientID         types.String `tfsdk:"client_id"`
	ClientSecret     types.String `tfsdk:"client_secret"`
	PrivateKey       types.String `tfsdk:"private_key"`
	Assertion        types.String `tfsdk:"assertion"`
	AssertionFile    types.String `tfsdk:"assertion_file"`
	IdentityProvider types.Object `tfsdk:"identity_provider"`
	Scopes           types.List   `tfsdk:"scopes"`
	Audience         types.String `tfsdk:"audience"`
	Issuer           types.String `tfsdk:"issuer"`
}

// identityProviderModel is identity_provider: the enterprise's identity
// provider, and the client registered there.
type identityProviderModel struct {
	Issuer        types.String `tfsdk:"issuer"`
	TokenEndpoint types.String `tfsdk:"token_endpoint"`
	ClientID      types.String `tfsdk:"client_id"`
	ClientSecret  types.String `tfsdk:"client_secret"`
	IDToken       types.String `tfsdk:"id_token"`
}

// oauthFromModel is the one conversion of configured credentials into an
// mcpauth client, whichever form they were configured in: the grant follows
// from the credential given (identity_provider: enterprise-managed
// authorization; assertion or assertion_file: workload identity; else
// client credentials).
func oauthFromModel(ctx context.Context, m mcpOAuthModel, diags *diag.Diagnostics) *mcpauth.Client {
	client := &mcpauth.Client{Audience: m.Audience.ValueString(), Issuer: m.Issuer.ValueString()}
	creds := mcpauth.ClientCredentials{ClientID: m.ClientID.ValueString(), ClientSecret: m.ClientSecret.ValueString(),
		PrivateKey: m.PrivateKey.ValueString()}
	switch {
	case !m.IdentityProvider.IsNull() && !m.IdentityProvider.IsUnknown():
		var idp identityProviderModel
		diags.Append(m.IdentityProvider.As(ctx, &idp, basetypes.ObjectAsOptions{})...)
		client.Grant = &mcpauth.EnterpriseManaged{Client: creds, IdP: mcpauth.IdentityProvider{Issuer: idp.Issuer.ValueString(),
			TokenEndpoint: idp.TokenEndpoint.ValueString(), ClientID: idp.ClientID.ValueString(),
			ClientSecret: idp.ClientSecret.ValueString(), IDToken: idp.IDToken.ValueString()}}
	case !m.Assertion.IsNull() || !m.AssertionFile.IsNull():
		client.Grant = &mcpauth.WorkloadIdentity{ClientID: creds.ClientID, Assertion: m.Assertion.ValueString(),
			AssertionFile: m.AssertionFile.ValueString()}
	default:
		client.Grant = &creds
	}
	if len(m.Scopes.Elements()) > 0 {
		diags.Append(m.Scopes.ElementsAs(ctx, &client.Scopes, false)...)
	}
	return client
}

// oauthCredentialNames are the attributes of which at least one is set: how
// the client proves who it is. client_secret and private_key authenticate
// the client, and only they may be given together with another of them:
// with identity_provider (the client authenticates where it presents the
// identity assertion).
var oauthCredentialNames = []string{"client_secret", "private_key", "assertion", "assertion_file", "identity_provider"}

// oauthConflicts are the credentials each one cannot be given with.
var oauthConflicts = map[string][]string{
	"client_secret":     {"private_key", "assertion", "assertion_file"},
	"private_key":       {"client_secret", "assertion", "assertion_file"},
	"assertion":         {"client_secret", "private_key", "assertion_file", "identity_provider"},
	"assertion_file":    {"client_secret", "private_key", "assertion", "identity_provider"},
	"identity_provider": {"assertion", "assertion_file"},
}

// siblings are the expressions of the attributes named, beside the one
// validated.
func siblings(names ...string) []path.Expression {
	exprs := make([]path.Expression, len(names))
	for i, name := range names {
		exprs[i] = path.MatchRelative().AtParent().AtName(name)
	}
	return exprs
}

// oauthStringCredentialValidators are the validators of a string
// credential: at least one credential, none it conflicts with, and a
// client_id beside a client's secret or key.
func oauthStringCredentialValidators(name string) []validator.String {
	v := []validator.String{stringvalidator.AtLeastOneOf(siblings(oauthCredentialNames...)...),
		stringvalidator.ConflictsWith(siblings(oauthConflicts[name]...)...), stringvalidator.LengthAtLeast(1)}
	if name == "client_secret" || name == "private_key" {
		v = append(v, stringvalidator.AlsoRequires(siblings("client_id")...))
	}
	return v
}

// oauthIdentityProviderValidators are identity_provider's: the conflicts of
// a credential, and a client_id (the client's at the authorization server).
func oauthIdentityProviderValidators() []validator.Object {
	return []validator.Object{objectvalidator.ConflictsWith(siblings(oauthConflicts["identity_provider"]...)...),
		objectvalidator.AlsoRequires(siblings("client_id")...)}
}

// scopeToken is a scope as RFC 6749 §3.3 defines it.
var scopeToken = regexp.MustCompile(`^[\x21\x23-\x5B\x5D-\x7E]+$`)

// oauthStringField is a string attribute of the credentials.
type oauthStringField struct {
	required, sensitive bool
	description         string
	validators          []validator.String
}

// oauthStringFields are the string attributes of the credentials; kept says
// what Terraform keeps of a secret in this form.
func oauthStringFields(kept string) map[string]oauthStringField {
	return map[string]oauthStringField{
		"client_id": {
			description: "The client's identifier at the authorization server (a client registered beforehand). " +
				"Required with `client_secret`, `private_key` and `identity_provider`; with `assertion` or " +
				"`assertion_file`, sent as `client_id` when set (an authorization server that maps workloads to " +
				"registered clients asks for it).",
			validators: []validator.String{stringvalidator.LengthAtLeast(1)}},
		"client_secret": {sensitive: true,
			description: "The client's secret, sent as `client_secret_basic` or `client_secret_post`, " +
				"whichever the authorization server's metadata offers (`client_secret_basic` when it offers both, " +
				"or names none): with the `client_credentials` grant, or, beside `identity_provider`, where the " +
				"identity assertion is presented. " + oauthOneCredential + " " + kept,
			validators: oauthStringCredentialValidators("client_secret")},
		"private_key": {sensitive: true,
			description: "The client's private key, for `private_key_jwt` (RFC 7523): PEM (`PRIVATE KEY`, " +
				"`EC PRIVATE KEY`, `RSA PRIVATE KEY`) or a private JWK; EC P-256, P-384 or P-521 (ES256, ES384, " +
				"ES512), RSA of 2048 bits or more (RS256, or PS256 when the server accepts only that) or Ed25519 " +
				"(EdDSA). Each token request sends a new assertion signed with it: `iss` and `sub` the client, " +
				"`aud` the authorization server's issuer, a unique `jti`, valid for 5 minutes; a JWK's `kid` goes " +
				"in its header. As `client_secret`, with the `client_credentials` grant or beside `identity_provider`. " + kept,
			validators: append(oauthStringCredentialValidators("private_key"), privateKeyValidator{})},
		"assertion": {sensitive: true,
			description: "The workload's own token, a JWT its platform issued (a GitHub Actions or GitLab CI OIDC " +
				"token, a Kubernetes service account token, a SPIFFE JWT-SVID), sent as a `jwt-bearer` grant " +
				"(RFC 7523) with no client secret: workload identity federation for MCP (SEP-1933). Its `aud` must " +
				"be what the authorization server expects (usually its issuer). For a token that rotates, " +
				"`assertion_file`. " + kept,
			validators: oauthStringCredentialValidators("assertion")},
		"assertion_file": {
			description: "The path of a file holding the workload's token (as `assertion`), read at each token " +
				"request, so that a token the platform rotates in place (a projected Kubernetes service account " +
				"token) is read fresh: a regular file of at most 1 MiB, read within the read's `timeout` (a named " +
				"pipe or a device is refused, naming the path). The path is kept in the state; the token is not.",
			validators: oauthStringCredentialValidators("assertion_file")},
		"audience": {
			description: "Sent as the `audience` parameter of the token request, for authorization " +
				"servers that choose the API a token is for by it rather than by `resource` (Auth0's " +
				"`client_credentials` grant requires it).",
			validators: []validator.String{stringvalidator.LengthAtLeast(1)}},
		"issuer": {
			description: "The issuer identifier of the one authorization server this client may use (`https`, or " +
				"`http` on loopback). A protected resource whose metadata names no such server is refused before " +
				"any credential is sent. Unset: the first authorization server the metadata names.",
			validators: []validator.String{issuerValidator{}}},
	}
}

// oauthOneCredential says which credentials go together, for descriptions.
const oauthOneCredential = "Give one of `client_secret`, `private_key`, `assertion`, `assertion_file` and " +
	"`identity_provider`; `client_secret` or `private_key` may also go with `identity_provider`."

// oauthIdentityProviderFields are the string attributes of identity_provider.
func oauthIdentityProviderFields(kept string) map[string]oauthStringField {
	oneOf := stringvalidator.AtLeastOneOf(siblings("issuer", "token_endpoint")...)
	return map[string]oauthStringField{
		"issuer": {description: "The identity provider's issuer identifier: its token endpoint is read from its " +
			"metadata (RFC 8414, else OpenID Connect discovery) unless `token_endpoint` is given. At least one of " +
			"the two is set.", validators: []validator.String{oneOf, issuerValidator{}}},
		"token_endpoint": {description: "The identity provider's token endpoint (`https`, or `http` on loopback), " +
			"where the ID token is exchanged.", validators: []validator.String{oneOf, issuerValidator{}}},
		"client_id": {required: true, description: "The client's identifier at the identity provider.",
			validators: []validator.String{stringvalidator.LengthAtLeast(1)}},
		"client_secret": {sensitive: true, description: "The client's secret at the identity provider, sent in the " +
			"token exchange's body; unset for a public client. " + kept,
			validators: []validator.String{stringvalidator.LengthAtLeast(1)}},
		"id_token": {required: true, sensitive: true, description: "The user's ID token, issued by the identity " +
			"provider to its `client_id` (the enterprise's single sign-on). " + kept,
			validators: []validator.String{stringvalidator.LengthAtLeast(1)}},
	}
}

// oauthIdentityProviderDescription describes identity_provider.
const oauthIdentityProviderDescription = "Enterprise-managed authorization (SEP-990): the user's ID token is " +
	"exchanged at the enterprise's identity provider (RFC 8693, for an identity assertion, `id-jag`, whose audience " +
	"is the MCP server's authorization server and whose resource is the MCP server), and the identity assertion is " +
	"presented at the authorization server as a `jwt-bearer` grant, the client authenticated by `client_secret` or " +
	"`private_key` when given (`client_id` is required). The identity provider's token endpoint follows no redirect, " +
	"as every token request."

// oauthScopesDescription and oauthScopesValidators describe scopes, the
// one list attribute of the credentials.
const oauthScopesDescription = "The scopes to ask for. When unset: those the server's `401` names " +
	"(`WWW-Authenticate`), else its metadata's `scopes_supported`, else none. A `403` with " +
	"`insufficient_scope` is answered once with a new token for these and the scopes it names."

func oauthScopesValidators() []validator.List {
	return []validator.List{listvalidator.SizeAtLeast(1), listvalidator.ValueStringsAre(
		stringvalidator.RegexMatches(scopeToken, "must be a scope (RFC 6749 §3.3: printable ASCII, no space, `\"` or `\\`)"))}
}

// issuerValidator refuses an issuer or endpoint that is not an https URL,
// or http on loopback, as the flow refuses it.
type issuerValidator struct{}

func (issuerValidator) Description(context.Context) string {
	return "must be an https URL, or http on loopback"
}

func (v issuerValidator) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v issuerValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := mcpauth.CheckEndpoint(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid OAuth Endpoint",
			fmt.Sprintf("%s %s. Expected the URL of the authorization server (or identity provider) as its metadata "+
				"names it: %s.", req.Path, err, v.Description(ctx)))
	}
}

// privateKeyValidator refuses, at plan time, a key that cannot sign a client
// assertion, saying why without quoting it.
type privateKeyValidator struct{}

func (privateKeyValidator) Description(context.Context) string {
	return "must be a PEM or JWK private key: EC (P-256, P-384, P-521), RSA (2048 bits or more) or Ed25519"
}

func (v privateKeyValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v privateKeyValidator) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := mcpauth.CheckPrivateKey(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Private Key",
			fmt.Sprintf("%s cannot sign a client assertion: %s. Expected a key that %s.", req.Path, blankKey(ctx, req.ConfigValue, err), v.Description(ctx)))
	}
}

// blankKey is err's message with the key blanked, whatever the parser quoted.
func blankKey(ctx context.Context, key types.String, err error) string {
	s := &redact.Secrets{}
	oauthFromModel(ctx, mcpOAuthModel{PrivateKey: key}, &diag.Diagnostics{}).AddSecrets(s)
	return s.Blank(err.Error())
}
