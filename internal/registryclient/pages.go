package registryclient

// Page-streaming reads (under the caps of readPages, pager.go): each yields the registry's pages one at a time, so
// that a caller that needs only the first results (a list resource with a
// limit, or one whose reader has stopped) stops paging as soon as it breaks
// out of the loop, instead of reading the whole collection first as the
// List*/Search* functions do.

import (
	"context"
	"iter"

	"google.golang.org/api/agentregistry/v1"
)

// ServicePages yields the pages of services.list under parent
// (projects/*/locations/*) that match filter (AIP-160; "" for all), pageSize
// services at most per page.
func (c *Client) ServicePages(ctx context.Context, parent, filter string, pageSize int64) iter.Seq2[[]*agentregistry.Service, error] {
	return readPages(ctx, c.pageLimits, "services.list", func(ctx context.Context, token string) ([]*agentregistry.Service, string, error) {
		call := c.registry.Projects.Locations.Services.List(parent).PageSize(pageSize).PageToken(token)
		if filter != "" {
			call = call.Filter(filter)
		}
		resp, err := call.Context(ctx).Do()
		if err != nil {
			return nil, "", err
		}
		return resp.Services, resp.NextPageToken, nil
	})
}

// AgentPages yields the pages of agents.list under parent: every derived
// Agent record.
func (c *Client) AgentPages(ctx context.Context, parent string, pageSize int64) iter.Seq2[[]*agentregistry.Agent, error] {
	return readPages(ctx, c.pageLimits, "agents.list", func(ctx context.Context, token string) ([]*agentregistry.Agent, string, error) {
		resp, err := c.registry.Projects.Locations.Agents.List(parent).PageSize(pageSize).PageToken(token).Context(ctx).Do()
		if err != nil {
			return nil, "", err
		}
		return resp.Agents, resp.NextPageToken, nil
	})
}

// McpServerPages yields the pages of mcpServers.list under parent: every
// derived McpServer record.
func (c *Client) McpServerPages(ctx context.Context, parent string, pageSize int64) iter.Seq2[[]*agentregistry.McpServer, error] {
	return readPages(ctx, c.pageLimits, "mcpServers.list", func(ctx context.Context, token string) ([]*agentregistry.McpServer, string, error) {
		resp, err := c.registry.Projects.Locations.McpServers.List(parent).PageSize(pageSize).PageToken(token).Context(ctx).Do()
		if err != nil {
			return nil, "", err
		}
		return resp.McpServers, resp.NextPageToken, nil
	})
}

// EndpointPages yields the pages of endpoints.list under parent: every
// derived Endpoint record.
func (c *Client) EndpointPages(ctx context.Context, parent string, pageSize int64) iter.Seq2[[]*agentregistry.Endpoint, error] {
	return readPages(ctx, c.pageLimits, "endpoints.list", func(ctx context.Context, token string) ([]*agentregistry.Endpoint, string, error) {
		resp, err := c.registry.Projects.Locations.Endpoints.List(parent).PageSize(pageSize).PageToken(token).Context(ctx).Do()
		if err != nil {
			return nil, "", err
		}
		return resp.Endpoints, resp.NextPageToken, nil
	})
}

// SearchAgentPages yields the pages of an agents:search under parent.
func (c *Client) SearchAgentPages(ctx context.Context, parent, query string, pageSize int64) iter.Seq2[[]*agentregistry.Agent, error] {
	return readPages(ctx, c.pageLimits, "agents:search", func(ctx context.Context, token string) ([]*agentregistry.Agent, string, error) {
		resp, err := c.registry.Projects.Locations.Agents.Search(parent, &agentregistry.SearchAgentsRequest{
			SearchString: query, PageSize: pageSize, PageToken: token,
		}).Context(ctx).Do()
		if err != nil {
			return nil, "", err
		}
		return resp.Agents, resp.NextPageToken, nil
	})
}

// SearchMcpServerPages yields the pages of an mcpServers:search under parent.
func (c *Client) SearchMcpServerPages(ctx context.Context, parent, query string, pageSize int64) iter.Seq2[[]*agentregistry.McpServer, error] {
	return readPages(ctx, c.pageLimits, "mcpServers:search", func(ctx context.Context, token string) ([]*agentregistry.McpServer, string, error) {
		resp, err := c.registry.Projects.Locations.McpServers.Search(parent, &agentregistry.SearchMcpServersRequest{
			SearchString: query, PageSize: pageSize, PageToken: token,
		}).Context(ctx).Do()
		if err != nil {
			return nil, "", err
		}
		return resp.McpServers, resp.NextPageToken, nil
	})
}

// BindingPages yields the pages of bindings.list under parent that match
// filter ("" for all).
func (c *Client) BindingPages(ctx context.Context, parent, filter string, pageSize int64) iter.Seq2[[]*agentregistry.Binding, error] {
	return readPages(ctx, c.pageLimits, "bindings.list", func(ctx context.Context, token string) ([]*agentregistry.Binding, string, error) {
		call := c.registry.Projects.Locations.Bindings.List(parent).PageSize(pageSize).PageToken(token)
		if filter != "" {
			call = call.Filter(filter)
		}
		resp, err := call.Context(ctx).Do()
		if err != nil {
			return nil, "", err
		}
		return resp.Bindings, resp.NextPageToken, nil
	})
}

// SkillPages yields the pages of skills.list under parent that match filter
// ("" for all).
func (c *Client) SkillPages(ctx context.Context, parent, filter string, pageSize int64) iter.Seq2[[]*agentregistry.Skill, error] {
	return readPages(ctx, c.pageLimits, "skills.list", func(ctx context.Context, token string) ([]*agentregistry.Skill, string, error) {
		call := c.registry.Projects.Locations.Skills.List(parent).PageSize(pageSize).PageToken(token)
		if filter != "" {
			call = call.Filter(filter)
		}
		resp, err := call.Context(ctx).Do()
		if err != nil {
			return nil, "", err
		}
		return resp.Skills, resp.NextPageToken, nil
	})
}
