package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

// NewValidateAgentCardFunction is provider::agentregistry::validate_agent_card.
func NewValidateAgentCardFunction() function.Function {
	return &validateDocumentFunction{name: "validate_agent_card", noun: "an A2A Agent Card (0.3 or 1.0)", policy: cardVersionPolicy,
		validate: spec.ValidateAgentCard}
}

// cardVersionPolicy says how the A2A version of a card is told.
const cardVersionPolicy = "\n\nThe A2A version is read from the card: one that lists `supportedInterfaces` is A2A 1.0, also " +
	"when it keeps A2A 0.3 fields beside them for 0.3 clients (a hybrid card, as SDKs with 0.3 compatibility serve it: " +
	"valid, with a warning that names those fields); otherwise a top-level `url` or `protocolVersion` makes it A2A " +
	"0.3. After a version problem, the card is still checked for the problems it has under either version. Errors " +
	"about values that A2A 1.0 writes in another form than A2A 0.3 show the 1.0 form, such as " +
	"`{\"httpAuthSecurityScheme\": {...}}` for a security scheme and `{\"list\": [...]}` for scopes."
