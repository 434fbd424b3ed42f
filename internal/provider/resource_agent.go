package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework-validators/resourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/cardsig"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsondoc"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/planmodifiers"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/validators"
)

const (
	agentSpecTypeCard   = "A2A_AGENT_CARD"
	agentSpecTypeNoSpec = "NO_SPEC"
)

// agentNaming: an agent is the Service projects/{project}/locations/{location}/services/{service_id}.
var agentNaming = serviceNaming("agent", "currency-agent")

// NewAgentResource returns the agentregistry_agent resource.
func NewAgentResource() resource.Resource {
	return newServiceResource[agentModel, *agentModel](serviceKind[agentModel]{
		naming:    agentNaming,
		title:     "Agent",
		schema:    agentSchema,
		documents: map[string]validators.Document{"agent_card": validators.AgentCardDocument},
		fields:    map[string]string{"agent_spec": "agent_card"},
		derivedID: func(ctx context.Context, c *registryclient.Client, name string) (string, error) {
			a, err := c.GetAgent(ctx, name)
			if err != nil {
				return "", err
			}
			return a.AgentId, nil
		},
		upgraders: agentStateUpgraders,
		// An agent is registered by its card or, without one, by its
		// interfaces; the API refuses both and an agent with neither is unreachable.
		configValidators: []resource.ConfigValidator{
			resourcevalidator.ExactlyOneOf(path.MatchRoot("agent_card"), path.MatchRoot("interfaces")),
			validators.WriteOnlyNeedsANewerCLI("signing_key_wo", "sign the card with "+
				"provider::agentregistry::sign_agent_card instead (the key then passes through a variable)"),
		},
		policy: agentCardPolicy{},
	})
}

type agentModel struct {
	serviceModel
	AgentCard  jsondoc.Value `tfsdk:"agent_card"`
	AgentID    types.String  `tfsdk:"agent_id"`
	A2AVersion types.String  `tfsdk:"a2a_version"`
	Version    types.String  `tfsdk:"version"`
	URLs       types.List    `tfsdk:"urls"`
	SkillIDs   types.List    `tfsdk:"skill_ids"`
	// SignaturePolicy and VerifiedKeyIDs belong to the kind's document
	// policy (agentCardPolicy.verify): the core never reads or sets them.
	SignaturePolicy types.String `tfsdk:"signature_policy"`
	VerifiedKeyIDs  types.List   `tfsdk:"verified_key_ids"`
	// SigningKeyWO is write-only: null in every plan and state, read from
	// the configuration by agentCardPolicy.prepare.
	SigningKeyWO        types.String `tfsdk:"signing_key_wo"`
	SigningKeyWOVersion types.Int64  `tfsdk:"signing_key_wo_version"`
}

func agentSchema(ctx context.Context) schema.Schema {
	interfaces := interfacesAttribute("How to reach an agent registered without a card (agentSpec type `NO_SPEC`). " +
		"Exactly one of `agent_card` and `interfaces` must be set: the registry takes a carded agent's " +
		"interfaces from its card and refuses both.")
	own := agentSignatureAttributes()
	maps.Copy(own, map[string]schema.Attribute{
		"agent_card": schema.StringAttribute{
			CustomType: jsondoc.Type{},
			Optional:   true,
			MarkdownDescription: "The A2A Agent Card, as a JSON string (A2A 1.0 with `supportedInterfaces`, also when it " +
				"keeps A2A 0.3 fields beside them, accepted with a warning; or A2A 0.3 with top-level `url` and " +
				"`protocolVersion`; 1.0 fields may also use their ProtoJSON proto names, such as `supported_interfaces`), " +
				"at most 10,240 bytes as compact JSON. " +
				"Validated at plan time. Sent in a compact, normalised form; compared by value, so key order, " +
				"spacing and the spelling of numbers never cause drift. The state keeps it as written; its full " +
				"detail is one `jsondecode(agentregistry_agent.NAME.agent_card)` away. Exactly one of `agent_card` and " +
				"`interfaces` must be set; adding or removing the card forces a new agent (the spec type changes " +
				"between `A2A_AGENT_CARD` and `NO_SPEC`).",
			Validators:    []validator.String{validators.AgentCard()},
			PlanModifiers: []planmodifier.String{planmodifiers.RequiresReplaceIfPresenceChanges()},
		},
		"agent_id": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "The `agentId` of the derived `Agent` record: its stable, globally unique URN, such as `urn:agent:projects-123:projects:123:locations:global:agentregistry:services:currency-agent` (the bundled server writes the project id where Google writes the project number). A binding names the agent by it: `source = agentregistry_agent.NAME.agent_id`.",
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"a2a_version": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "The A2A version of the card, `0.3` or `1.0`, detected from the document. Known at plan time; null without a card.",
		},
		"version": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "The agent's own version, the card's `version`. Known at plan time; null without a card.",
		},
		"urls": schema.ListAttribute{
			Computed:    true,
			ElementType: types.StringType,
			MarkdownDescription: "The agent's endpoint URLs, in document order without duplicates: `url` and " +
				"`additionalInterfaces[].url` (A2A 0.3) or `supportedInterfaces[].url` (1.0); without a card, the " +
				"`interfaces[].url`. Known at plan time.",
		},
		"skill_ids": schema.ListAttribute{
			Computed:    true,
			ElementType: types.StringType,
			MarkdownDescription: "The ids of the card's skills, in document order; empty without a card. Known at plan time, so other " +
				"resources and modules can use them in the same plan. For a skill's name, tags or examples use " +
				"`jsondecode(agentregistry_agent.NAME.agent_card).skills`, or the `agentregistry_skills` data source.",
		},
	})
	return serviceSchema(ctx, "agent", agentDescription, 1, interfaces, own)
}

// agentSignatureAttributes are the attributes of the card's signatures:
// signing it with a write-only key, and checking it against trusted_keys.
func agentSignatureAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"signing_key_wo": schema.StringAttribute{
			Optional:  true,
			WriteOnly: true,
			Sensitive: true,
			MarkdownDescription: "A private key that signs the card, as PEM (`PRIVATE KEY` PKCS #8, `EC PRIVATE KEY` " +
				"SEC 1 or `RSA PRIVATE KEY` PKCS #1, as `openssl` writes them) or as a JWK (RFC 7517): EC P-256 " +
				"(ES256), Ed25519 (EdDSA) or RSA of 2048 bits or more (RS256). Its `kid` is the JWK's, else the key's " +
				"RFC 7638 thumbprint (what `provider::agentregistry::public_jwks` gives the same key). **Write-only**: it is used at plan and " +
				"apply and never stored, neither in the plan nor in the state (Terraform 1.11 or later, OpenTofu 1.11 or " +
				"later). The provider registers the card with one more entry in `signatures` (a detached JWS over the " +
				"card's RFC 8785 form, the key's `kid` in its header), keeps `agent_card` in the state as written, and " +
				"takes the registry's signed copy as no change on refresh. The same card and key give the same " +
				"signature, so plans stay empty. Set `signing_key_wo_version` with it, and change that number to " +
				"re-sign (a new key); a key changed without it is not noticed, as Terraform cannot compare write-only " +
				"values. With the provider's `trusted_keys` holding its public key, `verified_key_ids` shows the signer " +
				"at plan, and `signature_policy = \"require\"` is met by the card as signed.",
			Validators: []validator.String{
				validators.SigningJWK(),
				stringvalidator.AlsoRequires(path.MatchRoot("signing_key_wo_version"), path.MatchRoot("agent_card")),
			},
		},
		"signing_key_wo_version": schema.Int64Attribute{
			Optional: true,
			MarkdownDescription: "The version of `signing_key_wo`: any number, changed whenever the key changes. A " +
				"change re-signs the card and sends it again, in place. Stored in the state (the key is not).",
			Validators: []validator.Int64{int64validator.AlsoRequires(path.MatchRoot("signing_key_wo"))},
		},
		"signature_policy": schema.StringAttribute{
			Optional: true,
			MarkdownDescription: "Overrides the provider's `signature_policy` for this agent: `off`, `verify_if_present` " +
				"or `require`. The card's signatures are checked at plan time against the provider's `trusted_keys`; " +
				"a signature that does not verify is an error on `agent_card` naming its `kid`, its algorithm and why, " +
				"and under `require` so is an unsigned card. Changing it makes no API call.",
			Validators: []validator.String{signaturePolicyValidator()},
		},
		"verified_key_ids": schema.ListAttribute{
			Computed:    true,
			ElementType: types.StringType,
			MarkdownDescription: "The `kid`s of the trusted keys whose signatures on the card verified, in the order " +
				"of the card's `signatures`. Null for an agent without a card; empty when the card is unsigned or the policy is `off` (nothing is " +
				"checked). Known at plan time, so a `check` block or a precondition can demand a particular signer.",
		},
	}
}

const agentDescription = "Registers an A2A agent in the Agent Registry: a `Service` whose `agentSpec` is an " +
	"[A2A Agent Card](https://a2a-protocol.org/) (type `A2A_AGENT_CARD`). The registry derives a read-only " +
	"`Agent` record from it, named by `registry_resource`. An agent without a card is registered by its " +
	"`interfaces` alone (type `NO_SPEC`); exactly one of `agent_card` and `interfaces` is set.\n\n" +
	"The card is validated at plan time against the A2A 0.3 or 1.0 schema (detected from the document, see " +
	"*Which A2A version a card is* and *What is checked* below); " +
	"every problem is reported in one diagnostic with its JSON pointer, and its line and column or, for a card " +
	"on one line (`jsonencode`), the value and its neighbours, and nothing is sent to the " +
	"registry until the card is valid. The card's A2A version, version, URLs and skill ids are known at plan time.\n\n" +
	"With the provider's `trusted_keys` and a `signature_policy` other than `off`, the card's signatures (A2A " +
	"`signatures`, detached JWS) are verified at plan time too, on every plan, and `verified_key_ids` names the keys " +
	"that signed it. To register the card a running agent serves, feed it from the `agentregistry_agent_card` data " +
	"source (see the guide *Register what you deploy*).\n\n" +
	"The card is stored once, in `agent_card`, as written; the computed attributes hold only small values " +
	"that modules reference.\n\n" +
	"Terraform requires the planned value of `agent_card` to equal the configuration, so reformatting the " +
	"document (other key order or spacing) plans an update; that update makes no API call. Use " +
	"`jsonencode(jsondecode(file(\"card.json\")))` to keep a canonical form. What the registry sends back " +
	"(re-ordered keys, numbers re-encoded) never shows as drift."

func (m *agentModel) service() *serviceModel         { return &m.serviceModel }
func (m *agentModel) derivedRecordID() *types.String { return &m.AgentID }

// setDerived sets a2a_version, version, urls and skill_ids from the card:
// unknown while the card is unknown, null when it does not parse (the
// validator has said why, and such a card is never sent).
func (m *agentModel) setDerived() diag.Diagnostics {
	if m.VerifiedKeyIDs.ElementType(context.Background()) == nil {
		// A model built from scratch (a state upgrade, a moved state) has the
		// zero List, which cannot be encoded; the policy's verify fills it in on read.
		m.VerifiedKeyIDs = types.ListNull(types.StringType)
	}
	if m.Interfaces.ElementType(context.Background()) == nil {
		m.Interfaces = types.ListNull(interfaceObjectType)
	}
	if m.AgentCard.IsUnknown() {
		m.A2AVersion, m.Version = types.StringUnknown(), types.StringUnknown()
		m.URLs, m.SkillIDs = types.ListUnknown(types.StringType), types.ListUnknown(types.StringType)
		return nil
	}
	if m.AgentCard.IsNull() {
		return m.setDerivedWithoutCard()
	}
	card, _ := spec.ParseAgentCard([]byte(m.AgentCard.ValueString()))
	if card == nil {
		m.A2AVersion, m.Version = types.StringNull(), types.StringNull()
		m.URLs, m.SkillIDs = types.ListNull(types.StringType), types.ListNull(types.StringType)
		return nil
	}
	m.A2AVersion = optionalString(card.A2AVersion)
	m.Version = optionalString(card.Version)
	m.URLs = stringList(card.URLs)
	ids := make([]string, len(card.Skills))
	for i, s := range card.Skills {
		ids[i] = s.ID
	}
	m.SkillIDs = stringList(ids)
	return nil
}

// setDerivedWithoutCard: a card-less agent has no A2A version, version or
// skills (null, null, empty); its urls are its interfaces' URLs.
func (m *agentModel) setDerivedWithoutCard() diag.Diagnostics {
	m.A2AVersion, m.Version, m.SkillIDs = types.StringNull(), types.StringNull(), stringList(nil)
	if m.Interfaces.IsUnknown() {
		m.URLs = types.ListUnknown(types.StringType)
		return nil
	}
	interfaces, diags := interfacesFromList(context.Background(), m.Interfaces)
	urls := make([]string, 0, len(interfaces))
	for _, in := range interfaces {
		if !slices.Contains(urls, in.Url) {
			urls = append(urls, in.Url)
		}
	}
	m.URLs = stringList(urls)
	return diags
}

func (m *agentModel) keepDerived(prior *agentModel) {
	m.A2AVersion, m.Version, m.URLs, m.SkillIDs = prior.A2AVersion, prior.Version, prior.URLs, prior.SkillIDs
}

// updateMask: a new signing_key_wo_version re-signs the card, so it sends the
// card again.
func (m *agentModel) updateMask(prior *agentModel) []string {
	if !sameDocument(m.AgentCard, prior.AgentCard) || !m.SigningKeyWOVersion.Equal(prior.SigningKeyWOVersion) {
		return []string{"agentSpec.content"}
	}
	return nil
}

// fill sends the card, or the card as the policy signed it (A2A_AGENT_CARD;
// the interfaces are null: the API refuses both), or no spec for a card-less
// agent (NO_SPEC, its interfaces).
func (m *agentModel) fill(svc *agentregistry.Service, out outgoing) diag.Diagnostics {
	if m.AgentCard.IsNull() {
		svc.AgentSpec = &agentregistry.AgentSpec{Type: agentSpecTypeNoSpec}
		return nil
	}
	if out.doc != nil {
		svc.AgentSpec = &agentregistry.AgentSpec{Type: agentSpecTypeCard, Content: out.doc}
		return nil
	}
	var diags diag.Diagnostics
	content, err := compactDocument(m.AgentCard)
	if err != nil {
		diags.AddAttributeError(path.Root("agent_card"), "Invalid A2A Agent Card", err.Error())
		return diags
	}
	svc.AgentSpec = &agentregistry.AgentSpec{Type: agentSpecTypeCard, Content: content}
	return diags
}

// refresh takes the registry's card. A card removed outside Terraform reads
// as null, so the next plan shows the configured card (a replacement); a card
// or interfaces the registry changed re-derive the computed attributes. The
// registry holding the card as it was signed and sent (its digest is
// sentDigest) is no change: the card in state, as written, stands, and the
// registry's copy is what verify checks. The registry's card is
// canonicalised once, for the digest, the comparison and verify.
func (m *agentModel) refresh(svc *agentregistry.Service, interfacesChanged bool, sentDigest string) (outgoing, diag.Diagnostics) {
	var held canonicalDocument
	if svc.AgentSpec != nil && svc.AgentSpec.Type != agentSpecTypeNoSpec {
		held = canonicalize(svc.AgentSpec.Content)
	}
	if sentDigest != "" && held.raw != nil && held.digest() == sentDigest {
		out := outgoing{doc: held.raw, canonical: held.canonical}
		if interfacesChanged || m.SkillIDs.IsNull() {
			return out, m.setDerived()
		}
		return out, nil
	}
	prior := m.AgentCard
	var out outgoing
	m.AgentCard, out.canonical = refreshDocument(m.AgentCard, held)
	if !m.AgentCard.Equal(prior) || interfacesChanged || m.SkillIDs.IsNull() {
		return out, m.setDerived()
	}
	return out, nil
}

// agentCardPolicy is the agent kind's document policy: the card is signed
// with signing_key_wo (prepare) and its signatures checked against the
// provider's trusted_keys (verify).
type agentCardPolicy struct{}

// verify checks the card's
// signatures under the effective policy and sets verified_key_ids. On read it
// reports nothing and keeps the prior value when the check fails or cannot
// be made yet: refresh never fails on a card that no longer verifies, the
// plan that follows reports it.
//
// Without the provider's data (its configuration has errors, reported once
// by providerDataFrom) the provider's policy is not known: the check cannot
// decide, and adds nothing to the error that already fails the run. It never
// runs under zero settings.
func (agentCardPolicy) verify(data *providerData, m *agentModel, out outgoing, onRead bool, diags *diag.Diagnostics) {
	if data == nil {
		addNotConfigured(diags, "this resource")
		m.VerifiedKeyIDs = types.ListUnknown(types.StringType)
		return
	}
	s := data.Signatures
	var kids types.List
	switch {
	case onRead && s.errs.HasError():
		return // reported by the plan that follows, not consumed by a refresh that hides it
	case m.AgentCard.IsNull():
		kids = types.ListNull(types.StringType)
	case m.AgentCard.IsUnknown() || out.unknown:
		kids = types.ListUnknown(types.StringType)
	default:
		// The card as it is sent: signed, when the provider signs it.
		card := out.checked(m.AgentCard.ValueString())
		var checked diag.Diagnostics
		kids = verifyCardSignatures(s, card, m.SignaturePolicy, "resource", path.Root("agent_card"), &checked)
		if onRead && (checked.HasError() || kids.IsUnknown()) {
			return
		}
		diags.Append(checked...)
	}
	m.VerifiedKeyIDs = kids
}

// verifyUnchanged: the card's signatures are checked on every plan,
// a plan without changes included, so that a key removed from trusted_keys
// fails the plan instead of leaving a card registered that nobody trusts any
// more; only an agent under signature_policy off, set on the provider and not
// overridden, and without a signing key, has nothing to check.
func (agentCardPolicy) verifyUnchanged(ctx context.Context, data *providerData, plan tfsdk.Plan, config tfsdk.Config) bool {
	if data == nil || data.Signatures.policy != cardsig.PolicyOff {
		return true
	}
	var override, key types.String
	plan.GetAttribute(ctx, path.Root("signature_policy"), &override)
	config.GetAttribute(ctx, path.Root("signing_key_wo"), &key)
	return !override.IsNull() || !key.IsNull()
}

// prepare: with signing_key_wo in the
// configuration, the card is sent signed with it (cardsig: a detached JWS
// over the card's RFC 8785 form, the JWK's kid in its header). The signature
// is deterministic where the algorithm allows (ES256 with RFC 6979 nonces,
// EdDSA, RS256), so plans stay empty; the key is never in a plan or state.
func (agentCardPolicy) prepare(ctx context.Context, config tfsdk.Config, m *agentModel, diags *diag.Diagnostics) outgoing {
	var key types.String
	diags.Append(config.GetAttribute(ctx, path.Root("signing_key_wo"), &key)...)
	switch {
	case key.IsNull() || m.AgentCard.IsNull():
		return outgoing{}
	case key.IsUnknown() || m.AgentCard.IsUnknown():
		return outgoing{unknown: true} // known at apply
	}
	sk, err := cardsig.ParseSigningKey([]byte(key.ValueString()))
	var signed []byte
	if err == nil {
		signed, err = sk.Sign([]byte(m.AgentCard.ValueString()))
	}
	if err == nil && len(signed) > spec.MaxDocumentBytes {
		err = fmt.Errorf("the signed card has %d bytes, over the registry's limit of %d bytes: trim the card to make "+
			"room for the signature", len(signed), spec.MaxDocumentBytes)
	}
	if err != nil {
		// cardsig's messages never include key material.
		diags.AddAttributeError(path.Root("signing_key_wo"), "Cannot Sign the Agent Card",
			"The card could not be signed with signing_key_wo: "+err.Error()+". Nothing was sent to the registry.")
		return outgoing{}
	}
	return outgoing{doc: signed, canonical: signed} // cardsig signs into the RFC 8785 form
}

// driftNote explains the plan of an agent whose signed card was
// changed in the registry: refresh took the registry's copy, signatures and
// all, so the diff shows "- signatures", which reads as if apply would strip
// the signature. It does the opposite: the configured card is signed again
// with signing_key_wo and sent.
func (agentCardPolicy) driftNote(state, plan *agentModel, out outgoing, diags *diag.Diagnostics) {
	if !out.replaces() {
		return // not signed by the provider
	}
	if state.AgentCard.IsNull() || state.AgentCard.IsUnknown() || plan.AgentCard.IsUnknown() {
		return
	}
	var prior map[string]json.RawMessage
	if json.Unmarshal([]byte(state.AgentCard.ValueString()), &prior) != nil {
		return
	}
	if _, signed := prior["signatures"]; !signed {
		return
	}
	diags.AddAttributeWarning(path.Root("agent_card"), "Signed Agent Card Changed in the Registry",
		fmt.Sprintf("The registry holds another card for %s than the one this configuration signed and sent: it was "+
			"changed outside Terraform. The plan shows the registry's copy, with its signatures, as the old value of "+
			"agent_card, and the configured card, which never holds them, as the new one; the signatures that "+
			"disappear from the diff are not removed. Apply signs the configured card again with signing_key_wo and "+
			"sends the signed card, replacing the registry's copy.", state.service().ServiceID.ValueString()))
}

// --- the agent's state upgrade and its move from google_agent_registry_service
// (what every kind shares: resource_service_state_upgrade.go, resource_service_move_state.go) ---

// agentModelV0 is agentregistry_agent's state at schema version 0.
type agentModelV0 struct {
	serviceModelV0
	AgentCard  jsondoc.Value `tfsdk:"agent_card"`
	AgentID    types.String  `tfsdk:"agent_id"`
	A2AVersion types.String  `tfsdk:"a2a_version"`
	Skills     types.List    `tfsdk:"skills"`
}

// agentStateUpgraders derive version 1's values from the card in the state.
func agentStateUpgraders(ctx context.Context) map[int64]resource.StateUpgrader {
	v0 := priorSchema(agentSchema(ctx), []string{"version", "urls", "skill_ids", "signature_policy", "verified_key_ids", "interfaces",
		"signing_key_wo", "signing_key_wo_version"}, "skills", skillObjectType)
	return upgradeFromV0(v0, func(old *agentModelV0) agentModel {
		return agentModel{serviceModel: old.current(types.ListNull(interfaceObjectType)), AgentCard: old.AgentCard, AgentID: old.AgentID}
	})
}

// fromGoogle takes the card; a card-less (NO_SPEC) agent has its interfaces,
// which the shared attributes took.
func (m *agentModel) fromGoogle(g *googleService) {
	m.AgentCard = jsondoc.NewNull()
	if spec := g.AgentSpec[0]; spec.Type == agentSpecTypeCard && spec.Content != "" {
		m.AgentCard = jsondoc.NewValue(spec.Content)
	}
}
