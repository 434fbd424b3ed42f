package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/resource"
)

func (p *agentRegistryProvider) Resources(context.Context) []func() resource.Resource {
	return []func() resource.Resource{
		NewAgentResource,
		NewMcpServerResource,
		NewEndpointResource,
		NewBindingResource,
		NewAgentPropertiesResource,
		NewSkillResource,
	}
}
