package registryclient

// The registry's list methods, each written once as a pagedRead (pager.go)
// that its List* function and its *Pages stream (pages.go) both read.

import (
	"context"

	"google.golang.org/api/agentregistry/v1"
)

// serviceList is services.list under parent that match filter (AIP-160; ""
// for all).
func (c *Client) serviceList(parent, filter string) pagedRead[*agentregistry.Service] {
	return pagedRead[*agentregistry.Service]{"services.list", func(ctx context.Context, pageSize int64, token string) ([]*agentregistry.Service, string, error) {
		call := c.registry.Projects.Locations.Services.List(parent).PageSize(pageSize).PageToken(token)
		if filter != "" {
			call = call.Filter(filter)
		}
		resp, err := call.Context(ctx).Do()
		if err != nil {
			return nil, "", err
		}
		return resp.Services, resp.NextPageToken, nil
	}}
}

// agentList is agents.list under parent that match filter (the search
// grammar; "" for all).
func (c *Client) agentList(parent, filter string) pagedRead[*agentregistry.Agent] {
	return pagedRead[*agentregistry.Agent]{"agents.list", func(ctx context.Context, pageSize int64, token string) ([]*agentregistry.Agent, string, error) {
		call := c.registry.Projects.Locations.Agents.List(parent).PageSize(pageSize).PageToken(token)
		if filter != "" {
			call = call.Filter(filter)
		}
		resp, err := call.Context(ctx).Do()
		if err != nil {
			return nil, "", err
		}
		return resp.Agents, resp.NextPageToken, nil
	}}
}

// mcpServerList is mcpServers.list under parent that match filter ("" for
// all).
func (c *Client) mcpServerList(parent, filter string) pagedRead[*agentregistry.McpServer] {
	return pagedRead[*agentregistry.McpServer]{"mcpServers.list", func(ctx context.Context, pageSize int64, token string) ([]*agentregistry.McpServer, string, error) {
		call := c.registry.Projects.Locations.McpServers.List(parent).PageSize(pageSize).PageToken(token)
		if filter != "" {
			call = call.Filter(filter)
		}
		resp, err := call.Context(ctx).Do()
		if err != nil {
			return nil, "", err
		}
		return resp.McpServers, resp.NextPageToken, nil
	}}
}

// ListAgents lists the Agent records under parent that match filter
// (agents.list, the search grammar; "" for all), following nextPageToken to
// the end, or until limit results when limit > 0.
func (c *Client) ListAgents(ctx context.Context, parent, filter string, limit int) ([]*agentregistry.Agent, error) {
	return c.agentList(parent, filter).upTo(ctx, c, limit)
}

// ListMcpServers lists the McpServer records under parent that match filter
// (mcpServers.list; "" for all), to the end or until limit results.
func (c *Client) ListMcpServers(ctx context.Context, parent, filter string, limit int) ([]*agentregistry.McpServer, error) {
	return c.mcpServerList(parent, filter).upTo(ctx, c, limit)
}
