package registryclient

import (
	"context"

	"google.golang.org/api/agentregistry/v1"
)

// GetEndpoint reads a derived Endpoint record (projects/*/locations/*/endpoints/*).
func (c *Client) GetEndpoint(ctx context.Context, name string) (*agentregistry.Endpoint, error) {
	e, err := c.registry.Projects.Locations.Endpoints.Get(name).Context(ctx).Do()
	return e, wrapError(apiRegistry, err)
}

// endpointList is endpoints.list under parent that match filter (AIP-160;
// "" for all).
func (c *Client) endpointList(parent, filter string) pagedRead[*agentregistry.Endpoint] {
	return pagedRead[*agentregistry.Endpoint]{"endpoints.list", func(ctx context.Context, pageSize int64, token string) ([]*agentregistry.Endpoint, string, error) {
		call := c.registry.Projects.Locations.Endpoints.List(parent).PageSize(pageSize).PageToken(token)
		if filter != "" {
			call = call.Filter(filter)
		}
		resp, err := call.Context(ctx).Do()
		if err != nil {
			return nil, "", err
		}
		return resp.Endpoints, resp.NextPageToken, nil
	}}
}

// ListEndpoints lists the Endpoint records under parent that match filter
// (AIP-160; "" for all), following nextPageToken to the end, or until limit
// results when limit > 0.
func (c *Client) ListEndpoints(ctx context.Context, parent, filter string, limit int) ([]*agentregistry.Endpoint, error) {
	return c.endpointList(parent, filter).upTo(ctx, c, limit)
}
