package provider

import (
	"context"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework/list"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
)

// NewAgentListResource returns the agentregistry_agent list resource.
func NewAgentListResource() list.ListResource {
	return newServiceList[agentModel, *agentModel](NewAgentResource(), serviceListKind{
		plural:      "agents",
		description: agentListDescription,
		derived: func(ctx context.Context, c *registryclient.Client, parent string) iter.Seq2[[]derivedRecord, error] {
			return mapPages(c.AgentPages(ctx, parent, listPageSize), agentRecord)
		},
		query: searchquery.Agents,
		search: func(ctx context.Context, c *registryclient.Client, parent, query string) iter.Seq2[[]derivedRecord, error] {
			return mapPages(c.SearchAgentPages(ctx, parent, query, listPageSize), agentRecord)
		},
		searchMethod: "agents:search",
	})
}

func agentRecord(a *agentregistry.Agent) derivedRecord { return derivedRecord{a.Name, a.AgentId} }

const agentListDescription = "Lists the agents registered in the Agent Registry (services with an `agentSpec`, " +
	"with or without a card) for `terraform query` (Terraform 1.14 and later; OpenTofu has no `query` yet): " +
	"each result has the `agentregistry_agent` identity (`service_id`, `project`, `location`) and the service's " +
	"display name, else its id. With `include_resource = true`, or with `-generate-config-out`, each result is the " +
	"whole resource as a read after an import stores it, so that the generated configuration plans no change; the " +
	"card is written as `jsonencode({...})`.\n\n" +
	"`query` selects agents by what they can do, such as `skills.tags:finance`; agents that the registry derives " +
	"without a service (registered by Google's runtimes) have nothing to manage and are not listed. See the guide " +
	"*Adopt an existing registry*."
