package registryclient

import (
	"context"

	"google.golang.org/api/agentregistry/v1"
)

// searchPageSize is the registry's maximum page size.
const searchPageSize = 100

// agentSearch is an agents:search under parent.
func (c *Client) agentSearch(parent, query string) pagedRead[*agentregistry.Agent] {
	return pagedRead[*agentregistry.Agent]{"agents:search", func(ctx context.Context, pageSize int64, token string) ([]*agentregistry.Agent, string, error) {
		resp, err := c.registry.Projects.Locations.Agents.Search(parent, &agentregistry.SearchAgentsRequest{
			SearchString: query, PageSize: pageSize, PageToken: token,
		}).Context(ctx).Do()
		if err != nil {
			return nil, "", err
		}
		return resp.Agents, resp.NextPageToken, nil
	}}
}

// mcpServerSearch is an mcpServers:search under parent.
func (c *Client) mcpServerSearch(parent, query string) pagedRead[*agentregistry.McpServer] {
	return pagedRead[*agentregistry.McpServer]{"mcpServers:search", func(ctx context.Context, pageSize int64, token string) ([]*agentregistry.McpServer, string, error) {
		resp, err := c.registry.Projects.Locations.McpServers.Search(parent, &agentregistry.SearchMcpServersRequest{
			SearchString: query, PageSize: pageSize, PageToken: token,
		}).Context(ctx).Do()
		if err != nil {
			return nil, "", err
		}
		return resp.McpServers, resp.NextPageToken, nil
	}}
}

// SearchAgents runs an agents:search under parent (projects/*/locations/*)
// and follows nextPageToken to the end, or until limit results when limit > 0.
func (c *Client) SearchAgents(ctx context.Context, parent, query string, limit int) ([]*agentregistry.Agent, error) {
	return c.agentSearch(parent, query).upTo(ctx, c, limit)
}

// SearchMcpServers runs an mcpServers:search under parent and follows
// nextPageToken to the end, or until limit results when limit > 0.
func (c *Client) SearchMcpServers(ctx context.Context, parent, query string, limit int) ([]*agentregistry.McpServer, error) {
	return c.mcpServerSearch(parent, query).upTo(ctx, c, limit)
}
