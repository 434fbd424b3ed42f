package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

// NewValidateAgentCardFunction is provider::agentregistry::validate_agent_card.
func NewValidateAgentCardFunction() function.Function {
	return &validateDocumentFunction{name: "validate_agent_card", noun: "an A2A Agent Card (0.3 or 1.0)", validate: spec.ValidateAgentCard}
}
