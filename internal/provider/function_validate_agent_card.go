package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

// NewValidateAgentCardFunction is provider::agentregistry::validate_agent_card.
func NewValidateAgentCardFunction() function.Function {
	return &validateDocumentFunction{name: "validate_agent_card", noun: "an A2A Agent Card (0.3 or 1.0)", policy: cardPolicy,
		validate: spec.ValidateAgentCard}
}

// cardPolicy says how the A2A version of a card is told and which rules apply,
// and why they differ from the official A2A schemas.
const cardPolicy = "\n\nThe A2A version is read from the card: one that lists `supportedInterfaces` is A2A 1.0, also " +
	"when it keeps A2A 0.3 fields beside them for 0.3 clients (a hybrid card, as SDKs with 0.3 compatibility serve it: " +
	"valid, with a warning that names those fields); otherwise a top-level `url` or `protocolVersion` makes it A2A " +
	"0.3. After a version problem, the card is still checked for the problems it has under either version. Errors " +
	"about values that A2A 1.0 writes in another form than A2A 0.3 show the 1.0 form, such as " +
	"`{\"httpAuthSecurityScheme\": {...}}` for a security scheme and `{\"list\": [...]}` for scopes.\n\n" +
	"The rules are the Agent Registry's documented ones, as at plan time: required are `name`, `description`, " +
	"`version`, `skills` (each with `id`, `name`, `description` and `tags`), and `url` and `protocolVersion` (A2A " +
	"0.3) or `supportedInterfaces` (A2A 1.0, each with `url`, `protocolBinding` and `protocolVersion`). The " +
	"official A2A schemas also require `capabilities`, `defaultInputModes` and `defaultOutputModes` (the 0.3.0 " +
	"JSON schema; A2A 1.0's `a2a.proto`); the registry does not, and an error would block a card it accepts, so " +
	"a card without them is valid here (no error listed) and `agentregistry_agent` warns about it at plan, as it " +
	"does about a protocol binding or transport other than `JSONRPC`, `GRPC` and `HTTP+JSON`. Add them for " +
	"clients that check cards against the official schema. See the `agentregistry_agent` page, *What is " +
	"checked*, for the whole policy. The error about a missing " +
	"member names a misspelt key beside it (`\"descripton\" is not a field here: did you mean " +
	"\"description\"?`)."
