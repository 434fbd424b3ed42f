package provider

// agentregistry_agent_card's extended, oauth and oauth_client: the
// authenticated extended card of an A2A 1.0 agent, read with a token from
// the OAuth clients of the MCP tool spec data source. The read itself is
// internal/livedoc's (FetchExtendedAgentCard).

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/mcpauth"
)

// extendedCardNote is what the page says of the extended card.
const extendedCardNote = "**The extended card.** With `extended = true`, the data source reads the agent's **authenticated extended card** " +
	"(A2A 1.0 §3.1.11), which an agent serves to authenticated callers only, often with more skills than its public " +
	"card: it reads the public card first, which must declare one (`capabilities.extendedAgentCard`), then " +
	"`GET {interface}/extendedAgentCard` on the card's first `HTTP+JSON` interface, with `A2A-Version: 1.0`. A2A " +
	"leaves how a client gets its credentials to the security scheme the card declares (§7.3): an OAuth 2.0 scheme " +
	"names its authorization server, by its metadata (`oauth2MetadataUrl`, RFC 8414) or the token URL of its client " +
	"credentials flow, and an OpenID Connect scheme by its discovery document (`openIdConnectUrl`). With `oauth_client` " +
	"(or `oauth`) the token is asked there, by the first security requirement whose scheme names one, for the scopes " +
	"that requirement lists (unless the client sets `scopes`) and with the interface as `resource` (RFC 8707); the " +
	"server's metadata is checked as for MCP (its issuer, https), and a client pinned to an `issuer` refuses any " +
	"other server. A card whose scheme names no authorization server (an HTTP bearer scheme) is read with the " +
	"agent's token in `headers` instead. The credentials and the token go to the origin of `url` only: an interface " +
	"on another origin is refused, and with an OAuth client so is a public card redirected to another origin (the " +
	"card names the server that gets the client's credentials). The extended card is validated, and its signatures verified, exactly as a public " +
	"card's; `url_fetched` is its URL. Errors name each case: no extended card declared, none configured " +
	"(`EXTENDED_AGENT_CARD_NOT_CONFIGURED`), no credentials, a token refused. An agent that answers with its public " +
	"card (the A2A JS SDK does so for a caller it does not authenticate) gets a warning."

// addExtendedCardAttributes adds extended, oauth and oauth_client.
func addExtendedCardAttributes(attrs map[string]schema.Attribute) {
	attrs["extended"] = schema.BoolAttribute{
		Optional: true,
		MarkdownDescription: "Read the agent's authenticated extended card instead of its public card (A2A 1.0 " +
			"agents): see *The extended card* above. Defaults to `false`.",
	}
	addOAuthAttribute(attrs, "An OAuth client whose token reads the extended card (with `extended = true` only): "+
		"asked of the authorization server the card's security scheme names, as *The extended card* above says.")
	addOAuthClientAttribute(attrs, "read the extended card (with `extended = true` only) with a token from the "+
		"authorization server the card's security scheme names")
}

func (d *agentCardDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.Conflicting(path.MatchRoot("oauth"), path.MatchRoot("oauth_client")),
		extendedCardValidator{},
	}
}

// extendedCardValidator refuses oauth (or oauth_client) without extended,
// with a plain-http url that is not loopback, or beside an Authorization
// header.
type extendedCardValidator struct{}

func (extendedCardValidator) Description(context.Context) string {
	return "oauth and oauth_client need extended = true, an https url (or http on loopback), and no Authorization in headers"
}

func (v extendedCardValidator) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (extendedCardValidator) ValidateDataSource(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var m agentCardDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	attr := "oauth"
	switch {
	case resp.Diagnostics.HasError():
		return
	case !m.OAuthClient.IsNull():
		attr = "oauth_client"
	case m.OAuth.IsNull():
		return
	}
	if !m.Extended.IsUnknown() && !m.Extended.ValueBool() {
		resp.Diagnostics.AddAttributeError(path.Root(attr), "OAuth Needs the Extended Card",
			fmt.Sprintf("%s is set but extended is not true: a public card is read without credentials, and the OAuth "+
				"client's token is for the authenticated extended card. Set extended = true, or remove %[1]s.", attr))
	}
	if !m.URL.IsUnknown() && !m.URL.IsNull() {
		if err := mcpauth.CheckServerURL(m.URL.ValueString()); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("url"), "OAuth Needs HTTPS", err.Error()+
				fmt.Sprintf(". Or remove %s, if the agent needs none.", attr))
		}
	}
	for name := range m.Headers.Elements() {
		if strings.EqualFold(name, "Authorization") {
			resp.Diagnostics.AddAttributeError(path.Root("headers").AtMapKey(name), "Conflicting Authorization",
				fmt.Sprintf("headers sets %q while %s is set: the OAuth client's token is the Authorization. Remove the "+
					"header, or %[2]s.", name, attr))
		}
	}
}

// fetchCard reads the card the configuration asks for: the public card, or
// the extended card (warning when the agent answered with its public card).
func fetchCard(ctx context.Context, m *agentCardDataSourceModel, opts livedoc.Options, creds *mcpauth.Client, diags *diag.Diagnostics) (*livedoc.Card, error) {
	if !m.Extended.ValueBool() {
		return livedoc.FetchAgentCard(ctx, m.URL.ValueString(), opts)
	}
	card, err := livedoc.FetchExtendedAgentCard(ctx, m.URL.ValueString(), livedoc.ExtendedCardOptions{Options: opts, OAuth: creds})
	if err != nil {
		return nil, err
	}
	if card.SameAsPublic {
		diags.AddAttributeWarning(path.Root("extended"), "Extended Card Is the Public Card",
			fmt.Sprintf("%s answered with the agent's public card, byte for byte. The agent may have nothing more to show "+
				"an authenticated caller, or (as the A2A JS SDK does) it did not authenticate the request and answered as "+
				"to anyone: check the credentials (oauth_client, oauth or headers).", card.URL))
	}
	return &card.Card, nil
}
