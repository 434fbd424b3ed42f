package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

// NewValidateAgentPropertiesFunction is provider::agentregistry::validate_agent_properties.
func NewValidateAgentPropertiesFunction() function.Function {
	return &validateDocumentFunction{name: "validate_agent_properties", noun: "an App Hub `AgentProperties` document", validate: spec.ValidateAgentProperties}
}
