package registryclient

import (
	"context"
	"fmt"

	"google.golang.org/api/agentregistry/v1"
)

// searchPageSize is the registry's maximum page size.
const searchPageSize = 100

// SearchAgents runs an agents:search under parent (projects/*/locations/*)
// and follows nextPageToken to the end, or until limit results when limit > 0.
func (c *Client) SearchAgents(ctx context.Context, parent, query string, limit int) ([]*agentregistry.Agent, error) {
	var out []*agentregistry.Agent
	err := paginate(limit, func(pageSize int64, token string) (int, string, error) {
		resp, err := c.registry.Projects.Locations.Agents.Search(parent, &agentregistry.SearchAgentsRequest{
			SearchString: query, PageSize: pageSize, PageToken: token,
		}).Context(ctx).Do()
		if err != nil {
			return 0, "", wrapError(apiRegistry, err)
		}
		out = append(out, resp.Agents...)
		return len(out), resp.NextPageToken, nil
	})
	if err != nil {
		return nil, err
	}
	return truncate(out, limit), nil
}

// SearchMcpServers runs an mcpServers:search under parent and follows
// nextPageToken to the end, or until limit results when limit > 0.
func (c *Client) SearchMcpServers(ctx context.Context, parent, query string, limit int) ([]*agentregistry.McpServer, error) {
	var out []*agentregistry.McpServer
	err := paginate(limit, func(pageSize int64, token string) (int, string, error) {
		resp, err := c.registry.Projects.Locations.McpServers.Search(parent, &agentregistry.SearchMcpServersRequest{
			SearchString: query, PageSize: pageSize, PageToken: token,
		}).Context(ctx).Do()
		if err != nil {
			return 0, "", wrapError(apiRegistry, err)
		}
		out = append(out, resp.McpServers...)
		return len(out), resp.NextPageToken, nil
	})
	if err != nil {
		return nil, err
	}
	return truncate(out, limit), nil
}

// paginate calls page with the same page size each time (the API requires the
// other parameters to stay identical between pages) until there is no next
// page token or limit results were collected. A server that hands back a
// token it already gave is an error rather than an endless loop.
func paginate(limit int, page func(pageSize int64, token string) (total int, next string, err error)) error {
	pageSize := int64(searchPageSize)
	if limit > 0 && limit < searchPageSize {
		pageSize = int64(limit)
	}
	seen := map[string]bool{}
	token := ""
	for {
		total, next, err := page(pageSize, token)
		if err != nil {
			return err
		}
		if next == "" || (limit > 0 && total >= limit) {
			return nil
		}
		if seen[next] {
			return fmt.Errorf("agent registry returned page token %q twice; stopping the search", next)
		}
		seen[next] = true
		token = next
	}
}

func truncate[T any](items []T, limit int) []T {
	if limit > 0 && len(items) > limit {
		return items[:limit]
	}
	return items
}
