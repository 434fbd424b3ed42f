package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/cardsig"
)

// NewPublicJWKSFunction is provider::agentregistry::public_jwks.
func NewPublicJWKSFunction() function.Function { return &publicJWKSFunction{} }

type publicJWKSFunction struct{}

func (f *publicJWKSFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "public_jwks"
}

func (f *publicJWKSFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Returns the public JWKS of a key, for trusted_keys and verify_agent_card",
		MarkdownDescription: "Returns the JWKS (`{\"keys\":[...]}`, RFC 7517) of the public halves of `key`: a private or " +
			"public key as PEM (`PRIVATE KEY` PKCS #8, `EC PRIVATE KEY` SEC 1, `RSA PRIVATE KEY` PKCS #1, `PUBLIC KEY`, " +
			"`RSA PUBLIC KEY`; several blocks give several keys), a JWK or a JWKS. Each key keeps its `kid`; a key " +
			"without one gets its RFC 7638 thumbprint, the `kid` that `sign_agent_card` and `signing_key_wo` sign " +
			"under when the key has none, so a card signed with a key verifies against `public_jwks(key)`. The result " +
			"holds no private material: it is ready for the provider's `trusted_keys` and for `verify_agent_card`. " +
			"Give a private key only through a sensitive variable; better, give the public key (`openssl pkey -pubout`).",
		Parameters: []function.Parameter{
			function.StringParameter{Name: "key", MarkdownDescription: "The key or keys: PEM, a JWK or a JWKS."},
		},
		Return: function.StringReturn{},
	}
}

func (f *publicJWKSFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var key string
	resp.Error = req.Arguments.Get(ctx, &key)
	if resp.Error != nil {
		return
	}
	jwks, err := cardsig.PublicJWKS([]byte(key))
	if err != nil {
		// cardsig's messages never include key material.
		resp.Error = function.NewArgumentFuncError(0, "Invalid key: "+err.Error())
		return
	}
	resp.Error = resp.Result.Set(ctx, string(jwks))
}
