package provider

// Checking an agent card's signatures against the provider's trusted_keys,
// for whatever holds a card: the agentregistry_agent resource and the
// agentregistry_agent_card data source.

import (
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/cardsig"
)

// verifyCardSignatures checks a card under the effective policy (override,
// else the provider's) and returns the verified kids: an empty list under
// off or for an unsigned card, unknown while a setting is. A failure is an
// error on attr naming each bad signature's kid, algorithm and why. owner
// says what the override is set on, for the message. The card's RFC 8785
// form is used when the caller has made it, else made here.
func verifyCardSignatures(s signatureSettings, card canonicalDocument, override types.String, owner string, attr path.Path, diags *diag.Diagnostics) types.List {
	if override.IsUnknown() {
		return types.ListUnknown(types.StringType)
	}
	policy, from := s.policy, "the provider's signature_policy"
	if !override.IsNull() {
		policy, from = cardsig.Policy(override.ValueString()), "signature_policy of this "+owner
	}
	if policy == cardsig.PolicyOff {
		return stringList(nil)
	}
	if s.unknown {
		return types.ListUnknown(types.StringType)
	}
	if s.errs.HasError() {
		s.reportErrors(diags) // the gate cannot decide: the plan fails, once, for that reason
		return types.ListNull(types.StringType)
	}
	kids, err := card.verifySignatures(s.keys, policy)
	if err != nil {
		diags.AddAttributeError(attr, "Agent Card Signature Not Verified", fmt.Sprintf(
			"The agent card's signatures were checked against the provider's trusted_keys under signature_policy %q "+
				"(%s):\n  - %s\n\nNothing was sent to the registry. Sign the card with a trusted key "+
				"(provider::agentregistry::sign_agent_card), add the signer's public key to the provider's trusted_keys, "+
				"or change signature_policy.",
			policy, from, strings.ReplaceAll(err.Error(), "\n", "\n  - ")))
		return types.ListNull(types.StringType)
	}
	return stringList(kids)
}

// verifySignatures is cardsig's check of the card, on its RFC 8785 form when
// made (a card without one is refused by cardsig.Verify, which says why).
func (d canonicalDocument) verifySignatures(jwks []byte, policy cardsig.Policy) ([]string, error) {
	if d.canonical != nil {
		return cardsig.VerifyCanonical(d.canonical, jwks, policy)
	}
	return cardsig.Verify(d.raw, jwks, policy)
}
