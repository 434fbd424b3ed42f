package validators

import (
	"context"
	"fmt"

	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/cardsig"
)

// WriteOnlyNeedsANewerCLI refuses a write-only attribute set on a CLI that
// cannot keep it out of the state (Terraform and OpenTofu before 1.11), with
// the minimum versions and what to do instead. The framework refuses it too,
// but names Terraform alone and no way out.
func WriteOnlyNeedsANewerCLI(attribute, fallback string) resource.ConfigValidator {
	return writeOnlyNeedsANewerCLI{attribute: attribute, fallback: fallback}
}

type writeOnlyNeedsANewerCLI struct{ attribute, fallback string }

func (v writeOnlyNeedsANewerCLI) Description(context.Context) string {
	return v.attribute + " needs a CLI with write-only attributes (Terraform 1.11+ or OpenTofu 1.11+)"
}

func (v writeOnlyNeedsANewerCLI) MarkdownDescription(ctx context.Context) string {
	return v.Description(ctx)
}

func (v writeOnlyNeedsANewerCLI) ValidateResource(ctx context.Context, req resource.ValidateConfigRequest, resp *resource.ValidateConfigResponse) {
	if req.ClientCapabilities.WriteOnlyAttributesAllowed {
		return
	}
	var value types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root(v.attribute), &value)...)
	if value.IsNull() {
		return
	}
	resp.Diagnostics.AddAttributeError(path.Root(v.attribute), "Write-Only Attribute Needs a Newer CLI", fmt.Sprintf(
		"%s is write-only: its value is used and never stored, which needs Terraform 1.11 or later, or OpenTofu 1.11 "+
			"or later. This CLI cannot keep it out of the state. Upgrade the CLI, or %s.", v.attribute, v.fallback))
}

// SigningJWK checks at plan that a write-only signing key is a private JWK
// that can sign agent cards (cardsig.ParseSigningKey); the message never
// shows the key.
func SigningJWK() validator.String { return signingJWK{} }

type signingJWK struct{}

func (signingJWK) Description(context.Context) string {
	return "a private key as PEM or JWK: EC P-256 (ES256), Ed25519 (EdDSA) or RSA of 2048 bits or more (RS256)"
}

func (v signingJWK) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (signingJWK) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := cardsig.ParseSigningKey([]byte(req.ConfigValue.ValueString())); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Signing Key", fmt.Sprintf(
			"%s cannot sign agent cards: %s. Expected a private key as PEM (PKCS #8, SEC 1 or PKCS #1) or as a JWK "+
				"(RFC 7517): EC P-256 (signs ES256), Ed25519 (EdDSA) or RSA of 2048 bits or more (RS256).", req.Path, err))
	}
}
