package registryclient

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"testing"
)

// list is one paged read of the client: path is the collection it GETs, key
// the response field holding the items, params the query parameters the
// call must send (an empty value: the parameter must be absent).
type list struct {
	label, path, key string
	params           map[string]string
	call             func(ctx context.Context, c *Client, limit int) (int, error)
}

func count[T any](items []T, err error) (int, error) { return len(items), err }

func lists() []list {
	bindings, endpoints := testParent+"/bindings", testParent+"/endpoints"
	return []list{
		{"bindings", bindings, "bindings", map[string]string{"filter": ""}, func(ctx context.Context, c *Client, limit int) (int, error) {
			return count(c.ListBindings(ctx, testParent, "", limit))
		}},
		{"bindings filtered", bindings, "bindings", map[string]string{"filter": `displayName="x"`}, func(ctx context.Context, c *Client, limit int) (int, error) {
			return count(c.ListBindings(ctx, testParent, `displayName="x"`, limit))
		}},
		{"available to a source", bindings + ":fetchAvailable", "bindings", map[string]string{"sourceIdentifier": "urn:agent:a", "targetIdentifier": ""},
			func(ctx context.Context, c *Client, limit int) (int, error) {
				return count(c.FetchAvailableBindings(ctx, testParent, "urn:agent:a", "", limit))
			}},
		{"available for a target", bindings + ":fetchAvailable", "bindings", map[string]string{"sourceIdentifier": "", "targetIdentifier": "urn:mcp:t"},
			func(ctx context.Context, c *Client, limit int) (int, error) {
				return count(c.FetchAvailableBindings(ctx, testParent, "", "urn:mcp:t", limit))
			}},
		{"endpoints", endpoints, "endpoints", map[string]string{"filter": ""}, func(ctx context.Context, c *Client, limit int) (int, error) {
			return count(c.ListEndpoints(ctx, testParent, "", limit))
		}},
		{"endpoints filtered", endpoints, "endpoints", map[string]string{"filter": `displayName="x"`}, func(ctx context.Context, c *Client, limit int) (int, error) {
			return count(c.ListEndpoints(ctx, testParent, `displayName="x"`, limit))
		}},
		{"agents filtered", testParent + "/agents", "agents", map[string]string{"filter": `displayName="x"`}, func(ctx context.Context, c *Client, limit int) (int, error) {
			return count(c.ListAgents(ctx, testParent, `displayName="x"`, limit))
		}},
		{"agents", testParent + "/agents", "agents", map[string]string{"filter": ""}, func(ctx context.Context, c *Client, limit int) (int, error) {
			return count(c.ListAgents(ctx, testParent, "", limit))
		}},
		{"MCP servers filtered", testParent + "/mcpServers", "mcpServers", map[string]string{"filter": `displayName="x"`}, func(ctx context.Context, c *Client, limit int) (int, error) {
			return count(c.ListMcpServers(ctx, testParent, `displayName="x"`, limit))
		}},
		{"MCP servers", testParent + "/mcpServers", "mcpServers", map[string]string{"filter": ""}, func(ctx context.Context, c *Client, limit int) (int, error) {
			return count(c.ListMcpServers(ctx, testParent, "", limit))
		}},
		{"skills search", testParent + "/skills:search", "skills", map[string]string{"searchString": "pdf", "searchType": "SEMANTIC"},
			func(ctx context.Context, c *Client, limit int) (int, error) {
				return count(c.SearchSkills(ctx, testParent, "pdf", "SEMANTIC", limit))
			}},
		{"skills search, default type", testParent + "/skills:search", "skills", map[string]string{"searchString": "pdf", "searchType": ""},
			func(ctx context.Context, c *Client, limit int) (int, error) {
				return count(c.SearchSkills(ctx, testParent, "pdf", "", limit))
			}},
	}
}

// pagedList serves 3 pages of 2 items under key at path, by pageToken, and
// refuses a request that lacks a parameter the call must send or carries one
// it must not.
func pagedList(t *testing.T, l list) (string, *recorder) {
	srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, q recorded) {
		if q.Path != "/v1/"+l.path {
			writeError(w, 404, "NOT_FOUND", "no such collection "+q.Path)
			return
		}
		for k, want := range l.params {
			if got, sent := q.Query[k]; (want == "") == sent || (sent && got[0] != want) {
				writeError(w, 400, "INVALID_ARGUMENT", fmt.Sprintf("parameter %s = %q, want %q", k, got, want))
				return
			}
		}
		page := map[string]int{"": 0, "p2": 1, "p3": 2}[q.Query.Get("pageToken")]
		items := []any{}
		for i := range 2 {
			items = append(items, map[string]any{"name": fmt.Sprintf("%s/x%d", l.path, page*2+i)})
		}
		writeJSON(w, 200, map[string]any{l.key: items, "nextPageToken": map[int]string{0: "p2", 1: "p3"}[page]})
	})
	return srv.URL, rec
}

// Every list follows the pages to the end, or stops at the limit, and sends
// its optional parameters only when they are set.
func TestEveryListFollowsPagesAndSendsItsParameters(t *testing.T) {
	for _, l := range lists() {
		for _, tc := range []struct{ limit, want, requests int }{{0, 6, 3}, {3, 3, 2}} {
			t.Run(fmt.Sprintf("%s limit %d", l.label, tc.limit), func(t *testing.T) {
				url, rec := pagedList(t, l)
				got, err := l.call(testCtx(t), testClient(t, url), tc.limit)
				if err != nil || got != tc.want || len(rec.all()) != tc.requests {
					t.Errorf("%d items in %d requests, %v; want %d in %d", got, len(rec.all()), err, tc.want, tc.requests)
				}
			})
		}
	}
}

// A list whose request fails returns the registry's error.
func TestEveryListReturnsTheRegistrysError(t *testing.T) {
	for _, l := range lists() {
		t.Run(l.label, func(t *testing.T) {
			srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
				writeError(w, 403, "PERMISSION_DENIED", "not yours")
			})
			if _, err := l.call(testCtx(t), testClient(t, srv.URL), 0); !isStatus(err, 403) {
				t.Errorf("err = %v, want the 403", err)
			}
		})
	}
}

func isStatus(err error, code int) bool {
	var ae *APIError
	return errors.As(err, &ae) && ae.Code == code
}
