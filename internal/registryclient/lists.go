package registryclient

import (
	"context"

	"google.golang.org/api/agentregistry/v1"
)

// ListAgents lists the Agent records under parent that match filter
// (agents.list, the search grammar; "" for all), following nextPageToken to
// the end, or until limit results when limit > 0.
func (c *Client) ListAgents(ctx context.Context, parent, filter string, limit int) ([]*agentregistry.Agent, error) {
	return paginate(ctx, c, "agents.list", limit, func(ctx context.Context, pageSize int64, token string) ([]*agentregistry.Agent, string, error) {
		call := c.registry.Projects.Locations.Agents.List(parent).PageSize(pageSize).PageToken(token)
		if filter != "" {
			call = call.Filter(filter)
		}
		resp, err := call.Context(ctx).Do()
		if err != nil {
			return nil, "", err
		}
		return resp.Agents, resp.NextPageToken, nil
	})
}

// ListMcpServers lists the McpServer records under parent that match filter
// (mcpServers.list; "" for all), to the end or until limit results.
func (c *Client) ListMcpServers(ctx context.Context, parent, filter string, limit int) ([]*agentregistry.McpServer, error) {
	return paginate(ctx, c, "mcpServers.list", limit, func(ctx context.Context, pageSize int64, token string) ([]*agentregistry.McpServer, string, error) {
		call := c.registry.Projects.Locations.McpServers.List(parent).PageSize(pageSize).PageToken(token)
		if filter != "" {
			call = call.Filter(filter)
		}
		resp, err := call.Context(ctx).Do()
		if err != nil {
			return nil, "", err
		}
		return resp.McpServers, resp.NextPageToken, nil
	})
}
