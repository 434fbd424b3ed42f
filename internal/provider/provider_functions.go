package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/function"
)

func (p *agentRegistryProvider) Functions(context.Context) []func() function.Function {
	return []func() function.Function{
		NewValidateAgentCardFunction,
		NewValidateToolSpecFunction,
		NewValidateAgentPropertiesFunction,
		NewAgentPropertiesFromCardFunction,
		NewVerifyAgentCardFunction,
		NewSignAgentCardFunction,
		NewToolLockFunction,
		NewToolFindingsFunction,
		NewFleetToolFindingsFunction,
		NewSearchCardsFunction,
		NewPublicJWKSFunction,
	}
}
