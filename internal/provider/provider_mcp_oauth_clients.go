package provider

// The provider's mcp_oauth_clients: OAuth client credentials for protected
// MCP servers, by name, which agentregistry_mcp_tool_spec names with
// oauth_client. They are here because a provider block takes ephemeral
// values and a data source's arguments do not: a data source's arguments
// are kept in the state and in saved plans, a provider's configuration in
// neither, so a secret given by an ephemeral variable is kept nowhere.

import (
	"context"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/mapvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/provider/schema"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/mcpauth"
)

// oauthClientName is the name of a client: what a data source's
// oauth_client can name without quoting.
var oauthClientName = regexp.MustCompile(`^[A-Za-z][A-Za-z0-9_-]{0,63}$`)

const oauthClientNameMessage = "must be a client name: a letter, then up to 63 letters, digits, `_` or `-`"

// oauthClientKept says what Terraform keeps of a provider-level secret.
const oauthClientKept = "Sensitive, and never in the state, a saved plan or `show -json`: the provider's " +
	"configuration is kept in none of them; with an ephemeral variable (`variable \"x\" { ephemeral = true }`) " +
	"the value is given to each command and kept nowhere."

// credentialAttributes are the provider's credentials options: Google's
// (provider_google_auth.go), and the OAuth clients of MCP servers.
func credentialAttributes() map[string]schema.Attribute {
	attrs := googleAuthAttributes()
	maps.Copy(attrs, mcpOAuthClientsAttributes())
	return attrs
}

// mcpOAuthClientsAttributes is the provider's mcp_oauth_clients.
func mcpOAuthClientsAttributes() map[string]schema.Attribute {
	fields := providerStrings(oauthStringFields(oauthClientKept))
	fields["scopes"] = schema.ListAttribute{Optional: true, ElementType: types.StringType,
		MarkdownDescription: oauthScopesDescription, Validators: oauthScopesValidators()}
	fields["identity_provider"] = schema.SingleNestedAttribute{Optional: true,
		MarkdownDescription: oauthIdentityProviderDescription, Validators: oauthIdentityProviderValidators(),
		Attributes: providerStrings(oauthIdentityProviderFields(oauthClientKept))}
	return map[string]schema.Attribute{"mcp_oauth_clients": schema.MapNestedAttribute{
		Optional: true,
		MarkdownDescription: "OAuth clients for MCP servers behind OAuth, by name: `agentregistry_mcp_tool_spec` " +
			"names one with `oauth_client`, and reads the server with its credentials (a client secret or key, a " +
			"workload's token, or an enterprise's identity provider: the MCP authorization spec's extensions for " +
			"machines; the data source's page says how). Unlike the data " +
			"source's inline `oauth`, whose secret Terraform keeps in the state and in saved plans as it keeps every " +
			"data source argument, the provider block takes ephemeral values and is kept in neither: give the " +
			"secret from an ephemeral variable and it is in no state, no plan file, no `show -json` and no log. " +
			"This is the form for CI. The same client may serve any number of data sources.",
		NestedObject: schema.NestedAttributeObject{Attributes: fields},
		Validators: []validator.Map{mapvalidator.KeysAre(
			stringvalidator.RegexMatches(oauthClientName, oauthClientNameMessage))},
	}}
}

// providerStrings are the string attributes of a table, in the provider's
// schema.
func providerStrings(table map[string]oauthStringField) map[string]schema.Attribute {
	attrs := map[string]schema.Attribute{}
	for name, f := range table {
		attrs[name] = schema.StringAttribute{Required: f.required, Optional: !f.required, Sensitive: f.sensitive,
			MarkdownDescription: f.description, Validators: f.validators}
	}
	return attrs
}

// oauthClients are the provider's clients, ready for the data sources.
type oauthClients struct {
	// byName holds the clients whose credentials are known.
	byName map[string]*mcpauth.Client
	// unknown holds the clients whose credentials Terraform does not know
	// yet (at plan, from a value known only at apply).
	unknown []string
	// allUnknown is set when the whole map is not known yet.
	allUnknown bool
}

// resolveOAuthClients reads mcp_oauth_clients from the configuration.
func resolveOAuthClients(ctx context.Context, clients types.Map, diags *diag.Diagnostics) oauthClients {
	c := oauthClients{byName: map[string]*mcpauth.Client{}, allUnknown: clients.IsUnknown()}
	for name, v := range clients.Elements() {
		o, ok := v.(types.Object)
		if !ok || o.IsNull() {
			continue
		}
		var m mcpOAuthModel
		if !o.IsUnknown() {
			diags.Append(o.As(ctx, &m, basetypes.ObjectAsOptions{})...)
		}
		if o.IsUnknown() || anyUnknown(m) {
			c.unknown = append(c.unknown, name)
			continue
		}
		c.byName[name] = oauthFromModel(ctx, m, diags)
	}
	return c
}

// anyUnknown tells whether a client's credentials depend on a value not
// known yet.
func anyUnknown(m mcpOAuthModel) bool {
	values := []attr.Value{m.ClientID, m.ClientSecret, m.PrivateKey, m.Assertion, m.AssertionFile, m.IdentityProvider,
		m.Scopes, m.Audience, m.Issuer}
	values = append(values, m.Scopes.Elements()...)
	for _, v := range m.IdentityProvider.Attributes() {
		values = append(values, v)
	}
	return slices.ContainsFunc(values, attr.Value.IsUnknown)
}

// lookup returns the client named, or reports why there is none to use.
func (c oauthClients) lookup(name string, diags *diag.Diagnostics) *mcpauth.Client {
	if creds, ok := c.byName[name]; ok {
		return creds
	}
	if c.allUnknown || slices.Contains(c.unknown, name) {
		diags.AddAttributeError(path.Root("oauth_client"), "OAuth Client Not Known Yet",
			fmt.Sprintf("The provider's mcp_oauth_clients[%q] depends on a value Terraform does not know until apply, "+
				"and the data source reads the server at plan. Give the client's credentials from values known at "+
				"plan: a variable (ephemeral or not), a file, or an ephemeral resource.", name))
		return nil
	}
	diags.AddAttributeError(path.Root("oauth_client"), "Unknown OAuth Client",
		fmt.Sprintf("oauth_client = %q names no client of the provider's mcp_oauth_clients, which has %s. Add a "+
			"client of that name to mcp_oauth_clients in the provider block (of the provider this data source "+
			"uses: see its provider argument), or name one of those.", name, c.names()))
	return nil
}

// names lists the configured clients for a message.
func (c oauthClients) names() string {
	names := slices.Clone(c.unknown)
	for name := range c.byName {
		names = append(names, name)
	}
	if len(names) == 0 {
		return "none"
	}
	slices.Sort(names)
	for i, n := range names {
		names[i] = fmt.Sprintf("%q", n)
	}
	return strings.Join(names, ", ")
}
