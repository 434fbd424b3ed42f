package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/function"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

// NewValidateToolSpecFunction is provider::agentregistry::validate_tool_spec.
func NewValidateToolSpecFunction() function.Function {
	return &validateDocumentFunction{name: "validate_tool_spec", noun: "an MCP tool spec (a `tools/list` result)", validate: spec.ValidateToolSpec}
}
