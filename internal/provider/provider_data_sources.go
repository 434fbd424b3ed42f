package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
)

func (p *agentRegistryProvider) DataSources(context.Context) []func() datasource.DataSource {
	return []func() datasource.DataSource{
		NewSkillsDataSource,
		NewAgentsDataSource,
		NewMcpServersDataSource,
		NewAgentDataSource,
		NewMcpServerDataSource,
		NewEndpointDataSource,
		NewEndpointsDataSource,
		NewBindingsDataSource,
		NewAvailableBindingsDataSource,
		NewAgentPropertiesDataSource,
		NewAgentCardDataSource,
		NewMcpToolSpecDataSource,
	}
}
