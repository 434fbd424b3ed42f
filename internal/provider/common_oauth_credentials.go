package provider

// The OAuth client credentials of a protected MCP server, in their two forms:
// inline, as agentregistry_mcp_tool_spec's oauth, and named, as the
// provider's mcp_oauth_clients (which take ephemeral values). Both have the
// same attributes, with the same descriptions and validators (the table
// below), and both become livedoc's credentials through oauthFromModel.
//
// A grant is added by adding its attributes to oauthStringFields and its
// name to oauthCredentialNames (exactly one credential is set), then reading
// it in oauthFromModel.

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/mcpauth"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

// mcpOAuthModel is one set of client credentials: the data source's oauth,
// or one client of the provider's mcp_oauth_clients.
type mcpOAuthModel struct {
	ClientID     types.String `tfsdk:"client_id"`
	ClientSecret types.String `tfsdk:"client_secret"`
	PrivateKey   types.String `tfsdk:"private_key"`
	Scopes       types.List   `tfsdk:"scopes"`
	Audience     types.String `tfsdk:"audience"`
}

// oauthFromModel is the one conversion of configured credentials into an
// mcpauth client, whichever form they were configured in.
func oauthFromModel(ctx context.Context, m mcpOAuthModel, diags *diag.Diagnostics) *mcpauth.Client {
	client := &mcpauth.Client{Audience: m.Audience.ValueString(), Grant: &mcpauth.ClientCredentials{
		ClientID: m.ClientID.ValueString(), ClientSecret: m.ClientSecret.ValueString(), PrivateKey: m.PrivateKey.ValueString()}}
	if len(m.Scopes.Elements()) > 0 {
		diags.Append(m.Scopes.ElementsAs(ctx, &client.Scopes, false)...)
	}
	return client
}

// oauthCredentialNames are the attributes of which exactly one is set: how
// the client proves who it is.
var oauthCredentialNames = []string{"client_secret", "private_key"}

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
	exactlyOne := oauthExactlyOneCredential()
	return map[string]oauthStringField{
		"client_id": {required: true,
			description: "The client's identifier at the authorization server (a client registered beforehand).",
			validators:  []validator.String{stringvalidator.LengthAtLeast(1)}},
		"client_secret": {sensitive: true,
			description: "The client's secret, sent as `client_secret_basic` or `client_secret_post`, " +
				"whichever the authorization server's metadata offers (`client_secret_basic` when it offers both, " +
				"or names none). Exactly one of " + oauthCredentialList() + " is set. " + kept,
			validators: []validator.String{exactlyOne, stringvalidator.LengthAtLeast(1)}},
		"private_key": {sensitive: true,
			description: "The client's private key, for `private_key_jwt` (RFC 7523): PEM (`PRIVATE KEY`, " +
				"`EC PRIVATE KEY`, `RSA PRIVATE KEY`) or a private JWK; EC P-256, P-384 or P-521 (ES256, ES384, " +
				"ES512), RSA of 2048 bits or more (RS256, or PS256 when the server accepts only that) or Ed25519 " +
				"(EdDSA). Each token request sends a new assertion signed with it: `iss` and `sub` the client, " +
				"`aud` the authorization server's issuer, a unique `jti`, valid for 5 minutes; a JWK's `kid` goes " +
				"in its header. " + kept,
			validators: []validator.String{exactlyOne, privateKeyValidator{}}},
		"audience": {
			description: "Sent as the `audience` parameter of the token request, for authorization " +
				"servers that choose the API a token is for by it rather than by `resource` (Auth0's " +
				"`client_credentials` grant requires it).",
			validators: []validator.String{stringvalidator.LengthAtLeast(1)}},
	}
}

// oauthScopesDescription and oauthScopesValidators describe scopes, the
// one list attribute of the credentials.
const oauthScopesDescription = "The scopes to ask for. When unset: those the server's `401` names " +
	"(`WWW-Authenticate`), else its metadata's `scopes_supported`, else none. A `403` with " +
	"`insufficient_scope` is answered once with a new token for these and the scopes it names."

func oauthScopesValidators() []validator.List {
	return []validator.List{listvalidator.SizeAtLeast(1), listvalidator.ValueStringsAre(
		stringvalidator.RegexMatches(scopeToken, "must be a scope (RFC 6749 §3.3: printable ASCII, no space, `\"` or `\\`)"))}
}

// oauthExactlyOneCredential requires exactly one of oauthCredentialNames
// beside the attribute it validates.
func oauthExactlyOneCredential() validator.String {
	siblings := make([]path.Expression, len(oauthCredentialNames))
	for i, name := range oauthCredentialNames {
		siblings[i] = path.MatchRelative().AtParent().AtName(name)
	}
	return stringvalidator.ExactlyOneOf(siblings...)
}

// oauthCredentialList is "`client_secret` and `private_key`", for descriptions.
func oauthCredentialList() string {
	quoted := make([]string, len(oauthCredentialNames))
	for i, name := range oauthCredentialNames {
		quoted[i] = "`" + name + "`"
	}
	if len(quoted) < 2 {
		return strings.Join(quoted, "")
	}
	return strings.Join(quoted[:len(quoted)-1], ", ") + " and " + quoted[len(quoted)-1]
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
