package registryclient

import (
	"context"

	"google.golang.org/api/agentregistry/v1"
)

// ListAgents lists the Agent records under parent that match filter
// (agents.list, the search grammar; "" for all), following nextPageToken to
// the end, or until limit results when limit > 0.
func (c *Client) ListAgents(ctx context.Context, parent, filter string, limit int) ([]*agentregistry.Agent, error) {
	var out []*agentregistry.Agent
	err := paginate(limit, func(pageSize int64, token string) (int, string, error) {
		call := c.registry.Projects.Locations.Agents.List(parent).PageSize(pageSize).PageToken(token)
		if filter != "" {
			call = call.Filter(filter)
		}
		resp, err := call.Context(ctx).Do()
		if err != nil {
			return 0, "", wrapError(apiRegistry, err)
		}
		out = append(out, resp.Agents...)
		return len(out), resp.NextPageToken, nil
	})
	return truncate(out, limit), err
}

// ListMcpServers lists the McpServer records under parent that match filter
// (mcpServers.list; "" for all), to the end or until limit results.
func (c *Client) ListMcpServers(ctx context.Context, parent, filter string, limit int) ([]*agentregistry.McpServer, error) {
	var out []*agentregistry.McpServer
	err := paginate(limit, func(pageSize int64, token string) (int, string, error) {
		call := c.registry.Projects.Locations.McpServers.List(parent).PageSize(pageSize).PageToken(token)
		if filter != "" {
			call = call.Filter(filter)
		}
		resp, err := call.Context(ctx).Do()
		if err != nil {
			return 0, "", wrapError(apiRegistry, err)
		}
		out = append(out, resp.McpServers...)
		return len(out), resp.NextPageToken, nil
	})
	return truncate(out, limit), err
}
