package provider

// The oauth and oauth_client attributes of agentregistry_mcp_tool_spec:
// client credentials (SEP-1046) for an MCP server behind OAuth, read over
// Streamable HTTP, given inline or named among the provider's
// mcp_oauth_clients. The flow itself is internal/livedoc/mcpauth's.

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/mcpauth"
)

// oauthStateNote says what Terraform keeps of the inline credentials.
const oauthStateNote = "Sensitive: never shown in plan output, logs or messages; but, as every argument of a data " +
	"source, kept in the state (and in a saved plan file), like `headers`: see *Credentials and the state* on the " +
	"`agentregistry_mcp_tool_spec` page. " +
	"The provider's `mcp_oauth_clients`, named by `oauth_client`, keep nothing."

// oauthAttributes are the attributes of oauth.
func oauthAttributes() map[string]schema.Attribute {
	fields := dataSourceStrings(oauthStringFields(oauthStateNote))
	fields["scopes"] = schema.ListAttribute{Optional: true, ElementType: types.StringType,
		MarkdownDescription: oauthScopesDescription, Validators: oauthScopesValidators()}
	fields["identity_provider"] = schema.SingleNestedAttribute{Optional: true,
		MarkdownDescription: oauthIdentityProviderDescription, Validators: oauthIdentityProviderValidators(),
		Attributes: dataSourceStrings(oauthIdentityProviderFields(oauthStateNote))}
	return fields
}

// dataSourceStrings are the string attributes of a table, in a data source's
// schema.
func dataSourceStrings(table map[string]oauthStringField) map[string]schema.Attribute {
	attrs := map[string]schema.Attribute{}
	for name, f := range table {
		attrs[name] = schema.StringAttribute{Required: f.required, Optional: !f.required, Sensitive: f.sensitive,
			MarkdownDescription: f.description, Validators: f.validators}
	}
	return attrs
}

// addOAuthAttribute adds oauth, the client of a read described by use.
func addOAuthAttribute(attrs map[string]schema.Attribute, use string) {
	attrs["oauth"] = schema.SingleNestedAttribute{
		Optional: true,
		MarkdownDescription: use + " The grant follows from the credential: `client_secret` or `private_key`, the " +
			"`client_credentials` grant (SEP-1046); `assertion` or `assertion_file`, the workload's token as a " +
			"`jwt-bearer` grant (SEP-1933); `identity_provider`, enterprise-managed authorization (SEP-990). A " +
			"refused grant ends the read at once, naming the OAuth error: no retry, no other grant. The token lives " +
			"for this read only: it is never stored nor shown, and the token request follows no redirect. Its " +
			"secrets are kept in the state: in CI, prefer `oauth_client`.",
		Attributes: oauthAttributes(),
	}
}

// mcpOAuthUse says what oauth does for agentregistry_mcp_tool_spec.
const mcpOAuthUse = "An OAuth client for an MCP server behind OAuth (the MCP authorization spec, with its " +
	"extensions for machines): on the server's first `401`, the data source reads its protected resource " +
	"metadata (RFC 9728) and its authorization server's metadata (RFC 8414 or OpenID Connect), asks the token " +
	"endpoint for a token with the server's `resource` (RFC 8707), and reads the tools with it. The MCP requests " +
	"stay on the origin of `url` (a redirect to another origin is an error). Only with `url` (`https`, or `http` " +
	"on loopback) and the Streamable HTTP transport; not with `headers.Authorization`. See *Servers behind OAuth* above."

// addOAuthClientAttribute adds oauth_client, described by use.
func addOAuthClientAttribute(attrs map[string]schema.Attribute, use string) {
	attrs["oauth_client"] = schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "The name of a client of the provider's `mcp_oauth_clients` whose credentials " + use +
			", exactly as `oauth` would (the same flow, the same errors). The credentials stay in the provider block, " +
			"which takes ephemeral values: with an ephemeral variable they are in no state, no saved plan and no " +
			"`show -json`, which makes this the form for CI (see *Credentials and the state* on the " +
			"`agentregistry_mcp_tool_spec` page). Conflicts with " +
			"`oauth`; not with `headers.Authorization`. A name the provider does not configure is an error that " +
			"lists those it does.",
		Validators: []validator.String{stringvalidator.RegexMatches(oauthClientName, oauthClientNameMessage)},
	}
}

// oauthCredentials are the credentials a read uses: the provider's client
// that oauthClient names, else oauth's, else none (nil).
func (b *liveBase) oauthCredentials(ctx context.Context, oauthClient types.String, oauth types.Object, diags *diag.Diagnostics) *mcpauth.Client {
	if !oauthClient.IsNull() {
		return b.oauthClients.lookup(oauthClient.ValueString(), diags)
	}
	if oauth.IsNull() || oauth.IsUnknown() {
		return nil
	}
	var om mcpOAuthModel
	diags.Append(oauth.As(ctx, &om, basetypes.ObjectAsOptions{})...)
	return oauthFromModel(ctx, om, diags)
}

// oauthConfigValidator refuses oauth (or oauth_client) with what it cannot
// work with: a plain-http url that is not loopback (once the url is known),
// the HTTP+SSE transport, and an Authorization header of its own.
type oauthConfigValidator struct{}

func (oauthConfigValidator) Description(context.Context) string {
	return `oauth and oauth_client need an https url (or http on loopback), the Streamable HTTP transport, and no Authorization in headers`
}

func (v oauthConfigValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (oauthConfigValidator) ValidateDataSource(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m mcpToolSpecDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() {
		return
	}
	attr := "oauth"
	switch {
	case !m.OAuthClient.IsNull():
		attr = "oauth_client"
	case m.OAuth.IsNull():
		return
	}
	if !m.URL.IsUnknown() && !m.URL.IsNull() {
		if err := mcpauth.CheckServerURL(m.URL.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("url"), "OAuth Needs HTTPS", err.Error()+
				fmt.Sprintf(". Or remove %s, if the server needs none.", attr))
		}
	}
	if m.Transport.ValueString() == transportSSE {
		resp.Diagnostics.AddAttributeError(path.Root("transport"), "OAuth Needs Streamable HTTP",
			fmt.Sprintf(`transport = "sse" with %s: the MCP authorization spec applies to the Streamable HTTP transport `+
				`(MCP 2025-03-26 and later), not to HTTP+SSE. Remove transport, or %[1]s.`, attr))
	}
	for name := range m.Headers.Elements() {
		if strings.EqualFold(name, "Authorization") {
			resp.Diagnostics.AddAttributeError(path.Root("headers").AtMapKey(name), "Conflicting Authorization",
				fmt.Sprintf("headers sets %q while %s is set: the OAuth flow sends the Authorization header (its "+
					"token). Remove the header, or %[2]s.", name, attr))
		}
	}
}
