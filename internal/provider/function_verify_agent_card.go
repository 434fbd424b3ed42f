package provider

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/cardsig"
)

// NewVerifyAgentCardFunction is provider::agentregistry::verify_agent_card.
func NewVerifyAgentCardFunction() function.Function { return &verifyAgentCardFunction{} }

type verifyAgentCardFunction struct{}

func (f *verifyAgentCardFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "verify_agent_card"
}

func (f *verifyAgentCardFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Verifies the signatures of an A2A Agent Card against a JWKS",
		MarkdownDescription: "Verifies every signature of an A2A Agent Card (its `signatures`: detached JWS over the card " +
			"without `signatures`, in RFC 8785 canonical form) with the keys of a JWKS, chosen by `kid`, and returns " +
			"the `kid`s that verified, in the order of the card's signatures. An unsigned card returns an empty list, " +
			"so `length(...) > 0` demands a signature. A signature that does not verify is an error naming its `kid`, " +
			"its algorithm and why (unknown kid, bad signature, alg not allowed, wrong key type, malformed). Allowed " +
			"algorithms: ES256, ES384, RS256, PS256, EdDSA; `none` and HMAC are refused. Keys come only from `jwks`: " +
			"a `jku`, `x5u` or any URL in the card is never fetched.\n\n" +
			"Bounded, so that a hostile card costs little: the card is at most 1 MiB with at most 16 signatures, and " +
			"`jwks` at most 1 MiB; past either limit the call fails before any signature is checked.\n\n" +
			"Unlike the provider's `signature_policy`, this checks a card against any JWKS, such as a partner's.",
		Parameters: []function.Parameter{
			function.StringParameter{Name: "card", MarkdownDescription: "The agent card, as a JSON string."},
			function.StringParameter{Name: "jwks", MarkdownDescription: "The trusted public keys, as a JWKS JSON string (`{\"keys\":[...]}`)."},
		},
		Return: function.ListReturn{ElementType: types.StringType},
	}
}

func (f *verifyAgentCardFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var card, jwks string
	resp.Error = req.Arguments.Get(ctx, &card, &jwks)
	if resp.Error != nil {
		return
	}
	// The sizes first: the checks below parse both documents.
	if len(card) > cardsig.MaxCardBytes {
		resp.Error = function.NewArgumentFuncError(0, fmt.Sprintf("Agent card too large: the card is %d bytes; the limit is %d (1 MiB).", len(card), cardsig.MaxCardBytes))
		return
	}
	if len(jwks) > cardsig.MaxJWKSBytes {
		resp.Error = function.NewArgumentFuncError(1, fmt.Sprintf("JWKS too large: the JWKS is %d bytes; the limit is %d (1 MiB).", len(jwks), cardsig.MaxJWKSBytes))
		return
	}
	if err := checkTrustedKeys([]byte(jwks)); err != nil {
		resp.Error = function.NewArgumentFuncError(1, "Invalid JWKS: "+err.Error())
		return
	}
	kids, err := cardsig.Verify([]byte(card), []byte(jwks), cardsig.PolicyVerifyIfPresent)
	if err != nil {
		resp.Error = function.NewArgumentFuncError(0, "Agent card signature not verified: "+err.Error())
		return
	}
	if kids == nil {
		kids = []string{} // a known empty list, not null
	}
	resp.Error = resp.Result.Set(ctx, kids)
}
