package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/cardsig"
)

// NewSignAgentCardFunction is provider::agentregistry::sign_agent_card.
func NewSignAgentCardFunction() function.Function { return &signAgentCardFunction{} }

type signAgentCardFunction struct{}

func (f *signAgentCardFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "sign_agent_card"
}

func (f *signAgentCardFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Adds a signature to an A2A Agent Card",
		MarkdownDescription: "Returns the A2A Agent Card with one more entry in `signatures`: a JWS (RFC 7515) with a " +
			"detached payload, the card without `signatures` in RFC 8785 canonical form, and a protected header of " +
			"`alg`, `kid` and `typ` `JOSE`. The algorithm follows the key: ES256 for an EC P-256 key, EdDSA for " +
			"Ed25519, RS256 for RSA (2048 bits or more). Signatures already on the card stay valid. The result is the " +
			"card in canonical form (with non-ASCII characters as `\\u` escapes when its text is not Unicode NFC, " +
			"which Terraform would otherwise normalise, breaking the signature), and the same inputs always give the " +
			"same bytes (ECDSA uses RFC 6979 nonces), so plans stay empty.\n\n" +
			"**The private key passes through the configuration.** Functions store nothing: the key never enters the " +
			"state, only the signed card does. It can still leak elsewhere: pass it in a variable marked " +
			"`sensitive = true`, set from the environment (`TF_VAR_...`) or a secret store, never in a committed file. " +
			"Terraform and OpenTofu then mark the function's result sensitive too; the signed card holds no secret, so " +
			"wrap the call in `nonsensitive()` to see it in plans. A saved plan file (`plan -out`) holds the values of " +
			"input variables, the key included: keep such files out of artifacts. An `ephemeral = true` variable " +
			"(Terraform 1.10 and later; OpenTofu 1.10 has none) stays out of plan files, but then the signed card is " +
			"ephemeral too, and Terraform refuses it in `agent_card`, which is stored. To keep the key out of " +
			"Terraform altogether, sign in the build pipeline (with a KMS or HSM) and register the signed card. " +
			"Errors never show key material.",
		Parameters: []function.Parameter{
			function.StringParameter{Name: "card", MarkdownDescription: "The agent card, as a JSON string."},
			function.StringParameter{Name: "private_key", MarkdownDescription: "The signing key, unencrypted: PEM " +
				"(`PRIVATE KEY` PKCS #8, `EC PRIVATE KEY` SEC 1 or `RSA PRIVATE KEY` PKCS #1, as `openssl` writes them) or " +
				"a private JWK (RFC 7517)."},
			function.StringParameter{Name: "kid", MarkdownDescription: "The key id put in the protected header: the " +
				"`kid` under which verifiers hold the public key (the provider's `trusted_keys`). `\"\"` takes the JWK's " +
				"`kid`, else the key's RFC 7638 thumbprint, the `kid` that `public_jwks` gives the key."},
		},
		Return: function.StringReturn{},
	}
}

func (f *signAgentCardFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var card, key, kid string
	resp.Error = req.Arguments.Get(ctx, &card, &key, &kid)
	if resp.Error != nil {
		return
	}
	signed, err := cardsig.Sign([]byte(card), []byte(key), kid)
	if err != nil {
		// cardsig's messages never include key material.
		resp.Error = function.NewFuncError("Cannot sign the agent card: " + err.Error())
		return
	}
	resp.Error = resp.Result.Set(ctx, terraformSafe(signed))
}
