package registryclient

// Page-streaming reads (under the caps of readPages, pager.go): each yields the registry's pages one at a time, so
// that a caller that needs only the first results (a list resource with a
// limit, or one whose reader has stopped) stops paging as soon as it breaks
// out of the loop, instead of reading the whole collection first as the
// List*/Search* functions do. Each read is written once, beside its
// List*/Search* function.

import (
	"context"
	"iter"

	"google.golang.org/api/agentregistry/v1"
)

// ServicePages yields the pages of services.list under parent
// (projects/*/locations/*) that match filter (AIP-160; "" for all), pageSize
// services at most per page.
func (c *Client) ServicePages(ctx context.Context, parent, filter string, pageSize int64) iter.Seq2[[]*agentregistry.Service, error] {
	return c.serviceList(parent, filter).pages(ctx, c, pageSize)
}

// AgentPages yields the pages of agents.list under parent: every derived
// Agent record.
func (c *Client) AgentPages(ctx context.Context, parent string, pageSize int64) iter.Seq2[[]*agentregistry.Agent, error] {
	return c.agentList(parent, "").pages(ctx, c, pageSize)
}

// McpServerPages yields the pages of mcpServers.list under parent: every
// derived McpServer record.
func (c *Client) McpServerPages(ctx context.Context, parent string, pageSize int64) iter.Seq2[[]*agentregistry.McpServer, error] {
	return c.mcpServerList(parent, "").pages(ctx, c, pageSize)
}

// EndpointPages yields the pages of endpoints.list under parent: every
// derived Endpoint record.
func (c *Client) EndpointPages(ctx context.Context, parent string, pageSize int64) iter.Seq2[[]*agentregistry.Endpoint, error] {
	return c.endpointList(parent, "").pages(ctx, c, pageSize)
}

// SearchAgentPages yields the pages of an agents:search under parent.
func (c *Client) SearchAgentPages(ctx context.Context, parent, query string, pageSize int64) iter.Seq2[[]*agentregistry.Agent, error] {
	return c.agentSearch(parent, query).pages(ctx, c, pageSize)
}

// SearchMcpServerPages yields the pages of an mcpServers:search under parent.
func (c *Client) SearchMcpServerPages(ctx context.Context, parent, query string, pageSize int64) iter.Seq2[[]*agentregistry.McpServer, error] {
	return c.mcpServerSearch(parent, query).pages(ctx, c, pageSize)
}

// BindingPages yields the pages of bindings.list under parent that match
// filter ("" for all).
func (c *Client) BindingPages(ctx context.Context, parent, filter string, pageSize int64) iter.Seq2[[]*agentregistry.Binding, error] {
	return c.bindingList(parent, filter).pages(ctx, c, pageSize)
}

// SkillPages yields the pages of skills.list under parent that match filter
// ("" for all).
func (c *Client) SkillPages(ctx context.Context, parent, filter string, pageSize int64) iter.Seq2[[]*agentregistry.Skill, error] {
	return c.skillList(parent, filter).pages(ctx, c, pageSize)
}
