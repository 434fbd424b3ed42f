package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/provider"
)

var _ provider.ProviderWithListResources = (*agentRegistryProvider)(nil)

// ListResources are the list resources of `terraform query` (Terraform 1.14+),
// one per resource that a registry holds records of.
func (p *agentRegistryProvider) ListResources(context.Context) []func() list.ListResource {
	return []func() list.ListResource{
		NewAgentListResource,
		NewMcpServerListResource,
		NewEndpointListResource,
		NewBindingListResource,
		NewSkillListResource,
	}
}
