package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/termsafe"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/validators"
)

var (
	_ datasource.DataSource                     = (*agentCardDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*agentCardDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*agentCardDataSource)(nil)
)

// NewAgentCardDataSource is the agentregistry_agent_card data source.
func NewAgentCardDataSource() datasource.DataSource { return &agentCardDataSource{} }

type agentCardDataSource struct{ liveBase }

type agentCardDataSourceModel struct {
	URL             types.String `tfsdk:"url"`
	Headers         types.Map    `tfsdk:"headers"`
	Timeout         types.String `tfsdk:"timeout"`
	SignaturePolicy types.String `tfsdk:"signature_policy"`
	Extended        types.Bool   `tfsdk:"extended"`
	OAuth           types.Object `tfsdk:"oauth"`
	OAuthClient     types.String `tfsdk:"oauth_client"`
	JSON            types.String `tfsdk:"json"`
	SHA256          types.String `tfsdk:"sha256"`
	A2AVersion      types.String `tfsdk:"a2a_version"`
	SkillIDs        types.List   `tfsdk:"skill_ids"`
	URLFetched      types.String `tfsdk:"url_fetched"`
	ETag            types.String `tfsdk:"etag"`
	VerifiedKeyIDs  types.List   `tfsdk:"verified_key_ids"`
}

func (d *agentCardDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_agent_card"
}

func (d *agentCardDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	attrs := liveAttributes("card", "The agent's base URL, such as `https://agent.example.com`, or the full URL of its "+
		"card. For a base URL (no path, or `/`) the card is read from `/.well-known/agent-card.json`, falling back to "+
		"`/.well-known/agent.json` (A2A 0.2) when that answers 404; any other URL is fetched as is. The request asks "+
		"for `application/a2a+json`, the media type A2A 1.0.1's HTTP binding prefers, and takes `application/json` "+
		"(or any JSON body) as well.")
	attrs["signature_policy"] = schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "Overrides the provider's `signature_policy` for this card: `off`, `verify_if_present` or " +
			"`require`. Signatures are checked against the provider's `trusted_keys`; one that does not verify, or " +
			"under `require` an unsigned card, is an error.",
		Validators: []validator.String{signaturePolicyValidator()},
	}
	addExtendedCardAttributes(attrs)
	addLiveDocumentAttributes(attrs, "card", "The card in RFC 8785 canonical form (sorted keys, no spaces): ready "+
		"for `agentregistry_agent.agent_card`, and stable, so that a plan shows a change only when the card's content changes.")
	attrs["a2a_version"] = liveComputed("The A2A version of the card, `0.3` or `1.0`, detected from the document.")
	attrs["url_fetched"] = liveComputed("The URL the card was read from, after the well-known path and redirects.")
	attrs["etag"] = liveComputed("The response's `ETag` header; empty when the agent sends none.")
	attrs["skill_ids"] = schema.ListAttribute{
		Computed:            true,
		ElementType:         types.StringType,
		MarkdownDescription: "The ids of the card's skills, in document order.",
	}
	attrs["verified_key_ids"] = schema.ListAttribute{
		Computed:    true,
		ElementType: types.StringType,
		MarkdownDescription: "The `kid`s of the trusted keys whose signatures on the card verified. Empty when the " +
			"card is unsigned or the policy is `off`.",
	}
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads the A2A Agent Card that a running agent serves, at plan time, so that what is " +
			"registered is what runs: feed `json` to `agentregistry_agent.agent_card` and the plan shows any " +
			"difference. The card is validated exactly as `agentregistry_agent` validates it, with the same " +
			"messages, and its signatures are checked under the signature policy.\n\n" +
			"The request asks for the agent's A2A 1.0 card: it sends `A2A-Version: 1.0`, unless `headers` sets " +
			"`A2A-Version`. An agent built on an SDK with A2A 0.3 compatibility answers a request without that header " +
			"with a hybrid card (its A2A 0.3 fields beside `supportedInterfaces`), which is accepted as A2A 1.0 with a " +
			"warning that names those fields.\n\n" +
			"Refused, each with a message that says why: a non-2xx answer (with the status and URL), a body over " +
			"1 MiB (reading stops there), a body that is not JSON under a non-JSON content type, more than 5 " +
			"redirects, a redirect from https to http, TLS errors, and a card with more than 16 signatures (before " +
			"any is checked). No URL found inside the public card is ever followed, but for the extended card's " +
			"interface, on the origin of `url` only.\n\n" + extendedCardNote + "\n\n" + liveFailureNote,
		Attributes: attrs,
	}
}

func (d *agentCardDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m agentCardDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	creds := d.oauthCredentials(ctx, m.OAuthClient, m.OAuth, &resp.Diagnostics)
	ctx, secrets := liveSecrets(ctx, m.Headers, types.Map{}, creds)
	defer func() { resp.Diagnostics = blankDiagnostics(secrets, resp.Diagnostics) }()
	opts := liveOptions(ctx, secrets, m.Headers, m.Timeout, &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	card, err := fetchCard(ctx, &m, opts, creds, &resp.Diagnostics)
	if err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("url"), "Cannot Read Agent Card", termsafe.Text(err.Error()))
		return
	}
	canon, sum, ok := acceptLiveDocument(ctx, validators.AgentCard(), card.Body, card.URL, &resp.Diagnostics)
	if !ok {
		return
	}
	// The validator reports errors only; the warnings come once per read, as
	// the resource reports them once per plan.
	for _, w := range validators.AgentCardDocument.Warnings(path.Root("url"), string(card.Body)) {
		resp.Diagnostics.AddAttributeWarning(path.Root("url"), w.Summary(), "The document served at "+card.URL+":\n\n"+w.Detail())
	}
	m.VerifiedKeyIDs = verifyCardSignatures(d.signatures, canonicalDocument{raw: canon, canonical: canon}, m.SignaturePolicy, "data source", path.Root("url"), &resp.Diagnostics)
	if resp.Diagnostics.HasError() {
		return
	}
	parsed, err := spec.ParseAgentCard(card.Body)
	if err != nil { // cannot happen: the card validated
		resp.Diagnostics.AddAttributeError(path.Root("url"), "Cannot Read Agent Card", termsafe.Text(err.Error()))
		return
	}
	ids := make([]string, len(parsed.Skills))
	for i, s := range parsed.Skills {
		ids[i] = s.ID
	}
	m.JSON, m.SHA256 = types.StringValue(terraformSafe(canon)), types.StringValue(sum)
	m.A2AVersion = types.StringValue(parsed.A2AVersion)
	m.SkillIDs = stringList(ids)
	m.URLFetched = types.StringValue(card.URL)
	m.ETag = types.StringValue(card.ETag)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
