package provider

// The oauth attribute of agentregistry_mcp_tool_spec: client credentials
// (SEP-1046) for an MCP server behind OAuth, read over Streamable HTTP. The
// flow itself is internal/livedoc/mcpauth's.

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/mcpauth"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

// mcpOAuthModel is the oauth attribute.
type mcpOAuthModel struct {
	ClientID     types.String `tfsdk:"client_id"`
	ClientSecret types.String `tfsdk:"client_secret"`
	PrivateKey   types.String `tfsdk:"private_key"`
	Scopes       types.List   `tfsdk:"scopes"`
	Audience     types.String `tfsdk:"audience"`
}

// scopeToken is a scope as RFC 6749 §3.3 defines it.
var scopeToken = regexp.MustCompile(`^[\x21\x23-\x5B\x5D-\x7E]+$`)

// oauthStateNote says what Terraform keeps of the credentials.
const oauthStateNote = "Sensitive: never shown in plan output, logs or messages; but, as every argument of a data " +
	"source, kept in the state (and in a saved plan file), like `headers`: see *Credentials and the state* above."

// addOAuthAttribute adds oauth.
func addOAuthAttribute(attrs map[string]schema.Attribute) {
	exactlyOne := stringvalidator.ExactlyOneOf(path.MatchRelative().AtParent().AtName("client_secret"),
		path.MatchRelative().AtParent().AtName("private_key"))
	attrs["oauth"] = schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: "Client credentials for an MCP server behind OAuth (the MCP authorization spec, with its " +
			"client credentials extension for machines, SEP-1046): on the server's first `401`, the data source reads " +
			"its protected resource metadata (RFC 9728) and its authorization server's metadata (RFC 8414 or OpenID " +
			"Connect), asks the token endpoint for a token with the `client_credentials` grant and the server's " +
			"`resource` (RFC 8707), and reads the tools with it. The token lives for this read only: it is never " +
			"stored nor shown. The MCP requests stay on the origin of `url` (a redirect to another origin is an error), " +
			"and the token request follows no redirect. Only with `url` (`https`, or `http` on loopback) and the " +
			"Streamable HTTP transport; not with `headers.Authorization`. See *Servers behind OAuth* above.",
		Attributes: map[string]schema.Attribute{
			"client_id": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "The client's identifier at the authorization server (a client registered beforehand).",
				Validators:          []validator.String{stringvalidator.LengthAtLeast(1)},
			},
			"client_secret": schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				MarkdownDescription: "The client's secret, sent as `client_secret_basic` or `client_secret_post`, " +
					"whichever the authorization server's metadata offers (`client_secret_basic` when it offers both, " +
					"or names none). Exactly one of `client_secret` and `private_key` is set. " + oauthStateNote,
				Validators: []validator.String{exactlyOne, stringvalidator.LengthAtLeast(1)},
			},
			"private_key": schema.StringAttribute{
				Optional:  true,
				Sensitive: true,
				MarkdownDescription: "The client's private key, for `private_key_jwt` (RFC 7523): PEM (`PRIVATE KEY`, " +
					"`EC PRIVATE KEY`, `RSA PRIVATE KEY`) or a private JWK; EC P-256, P-384 or P-521 (ES256, ES384, " +
					"ES512), RSA of 2048 bits or more (RS256, or PS256 when the server accepts only that) or Ed25519 " +
					"(EdDSA). Each token request sends a new assertion signed with it: `iss` and `sub` the client, " +
					"`aud` the authorization server's issuer, a unique `jti`, valid for 5 minutes; a JWK's `kid` goes " +
					"in its header. " + oauthStateNote,
				Validators: []validator.String{exactlyOne, privateKeyValidator{}},
			},
			"scopes": schema.ListAttribute{
				Optional:    true,
				ElementType: types.StringType,
				MarkdownDescription: "The scopes to ask for. When unset: those the server's `401` names " +
					"(`WWW-Authenticate`), else its metadata's `scopes_supported`, else none. A `403` with " +
					"`insufficient_scope` is answered once with a new token for these and the scopes it names.",
				Validators: []validator.List{listvalidator.SizeAtLeast(1), listvalidator.ValueStringsAre(
					stringvalidator.RegexMatches(scopeToken, "must be a scope (RFC 6749 §3.3: printable ASCII, no space, `\"` or `\\`)"))},
			},
			"audience": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "Sent as the `audience` parameter of the token request, for authorization " +
					"servers that choose the API a token is for by it rather than by `resource` (Auth0's " +
					"`client_credentials` grant requires it).",
				Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
			},
		},
	}
}

// oauthClient is the configured OAuth client; nil without oauth.
func oauthClient(ctx context.Context, o types.Object, diags *diag.Diagnostics) *mcpauth.Client {
	if o.IsNull() || o.IsUnknown() {
		return nil
	}
	var m mcpOAuthModel
	diags.Append(o.As(ctx, &m, basetypes.ObjectAsOptions{})...)
	client := &mcpauth.Client{Audience: m.Audience.ValueString(), Grant: &mcpauth.ClientCredentials{
		ClientID: m.ClientID.ValueString(), ClientSecret: m.ClientSecret.ValueString(), PrivateKey: m.PrivateKey.ValueString()}}
	diags.Append(m.Scopes.ElementsAs(ctx, &client.Scopes, false)...)
	return client
}

// oauthConfigValidator refuses oauth with what it cannot work with: a
// plain-http url that is not loopback (once the url is known), the HTTP+SSE
// transport, and an Authorization header of its own.
type oauthConfigValidator struct{}

func (oauthConfigValidator) Description(context.Context) string {
	return `oauth needs an https url (or http on loopback), the Streamable HTTP transport, and no Authorization in headers`
}

func (v oauthConfigValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (oauthConfigValidator) ValidateDataSource(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m mcpToolSpecDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || m.OAuth.IsNull() {
		return
	}
	if !m.URL.IsUnknown() && !m.URL.IsNull() {
		if err := mcpauth.CheckServerURL(m.URL.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("url"), "OAuth Needs HTTPS", err.Error()+
				". Or remove oauth, if the server needs none.")
		}
	}
	if m.Transport.ValueString() == transportSSE {
		resp.Diagnostics.AddAttributeError(path.Root("transport"), "OAuth Needs Streamable HTTP",
			`transport = "sse" with oauth: the MCP authorization spec applies to the Streamable HTTP transport (MCP `+
				`2025-03-26 and later), not to HTTP+SSE. Remove transport, or oauth.`)
	}
	for name := range m.Headers.Elements() {
		if strings.EqualFold(name, "Authorization") {
			resp.Diagnostics.AddAttributeError(path.Root("headers").AtMapKey(name), "Conflicting Authorization",
				fmt.Sprintf("headers sets %q while oauth is set: the OAuth flow sends the Authorization header (its "+
					"token). Remove the header, or oauth.", name))
		}
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
			fmt.Sprintf("%s cannot sign a client assertion: %s. Expected a key that %s.", req.Path, blankKey(req.ConfigValue.ValueString(), err), v.Description(ctx)))
	}
}

// blankKey is err's message with the key blanked, whatever the parser quoted.
func blankKey(key string, err error) string {
	s := &redact.Secrets{}
	(&mcpauth.ClientCredentials{PrivateKey: key}).AddSecrets(s)
	return s.Blank(err.Error())
}
