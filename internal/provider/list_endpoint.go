package provider

import (
	"context"
	"iter"

	"github.com/hashicorp/terraform-plugin-framework/list"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
)

// NewEndpointListResource returns the agentregistry_endpoint list resource.
func NewEndpointListResource() list.ListResource {
	return newServiceList[endpointModel, *endpointModel](NewEndpointResource(), serviceListKind{
		plural:      "endpoints",
		description: endpointListDescription,
		derived: func(ctx context.Context, c *registryclient.Client, parent string) iter.Seq2[[]derivedRecord, error] {
			return mapPages(c.EndpointPages(ctx, parent, listPageSize), func(e *agentregistry.Endpoint) derivedRecord {
				return derivedRecord{e.Name, e.EndpointId}
			})
		},
	})
}

const endpointListDescription = "Lists the endpoints registered in the Agent Registry (services with an " +
	"`endpointSpec`) for `terraform query` (Terraform 1.14 and later; OpenTofu has no `query` yet): each result has " +
	"the `agentregistry_endpoint` identity (`service_id`, `project`, `location`) and the service's display name, else " +
	"its id. With `include_resource = true`, or with `-generate-config-out`, each result is the whole resource as a " +
	"read after an import stores it, so that the generated configuration plans no change. See the guide *Adopt an " +
	"existing registry*."
