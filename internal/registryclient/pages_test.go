package registryclient

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"strings"
	"testing"
)

// countPages reads a page stream until limit items (0: to the end) and
// returns how many items it saw.
func countPages[T any](seq iter.Seq2[[]T, error], limit int) (int, error) {
	n := 0
	for page, err := range seq {
		if err != nil {
			return n, err
		}
		n += len(page)
		if limit > 0 && n >= limit {
			break
		}
	}
	return n, nil
}

// pageLists are the page streams, as lists of the shared paged fixture
// (lists_test.go): each follows the pages, sends only the parameters it
// should, and stops requesting pages when its reader stops.
func pageLists() []list {
	p := testParent
	return []list{
		{"service pages", p + "/services", "services", map[string]string{"filter": "", "pageSize": "100"},
			func(ctx context.Context, c *Client, limit int) (int, error) {
				return countPages(c.ServicePages(ctx, p, "", 100), limit)
			}},
		{"service pages filtered", p + "/services", "services", map[string]string{"filter": `displayName:x`, "pageSize": "7"},
			func(ctx context.Context, c *Client, limit int) (int, error) {
				return countPages(c.ServicePages(ctx, p, `displayName:x`, 7), limit)
			}},
		{"agent pages", p + "/agents", "agents", map[string]string{"pageSize": "100"},
			func(ctx context.Context, c *Client, limit int) (int, error) {
				return countPages(c.AgentPages(ctx, p, 100), limit)
			}},
		{"MCP server pages", p + "/mcpServers", "mcpServers", map[string]string{"pageSize": "100"},
			func(ctx context.Context, c *Client, limit int) (int, error) {
				return countPages(c.McpServerPages(ctx, p, 100), limit)
			}},
		{"endpoint pages", p + "/endpoints", "endpoints", map[string]string{"pageSize": "100"},
			func(ctx context.Context, c *Client, limit int) (int, error) {
				return countPages(c.EndpointPages(ctx, p, 100), limit)
			}},
		{"binding pages", p + "/bindings", "bindings", map[string]string{"filter": ""},
			func(ctx context.Context, c *Client, limit int) (int, error) {
				return countPages(c.BindingPages(ctx, p, "", 100), limit)
			}},
		{"binding pages filtered", p + "/bindings", "bindings", map[string]string{"filter": `target:x`},
			func(ctx context.Context, c *Client, limit int) (int, error) {
				return countPages(c.BindingPages(ctx, p, `target:x`, 100), limit)
			}},
		{"skill pages", p + "/skills", "skills", map[string]string{"filter": ""},
			func(ctx context.Context, c *Client, limit int) (int, error) {
				return countPages(c.SkillPages(ctx, p, "", 100), limit)
			}},
		{"skill pages filtered", p + "/skills", "skills", map[string]string{"filter": `displayName:x`},
			func(ctx context.Context, c *Client, limit int) (int, error) {
				return countPages(c.SkillPages(ctx, p, `displayName:x`, 100), limit)
			}},
	}
}

// Every page stream reads the three pages to the end, and a reader that
// stops after the first page costs one request, not three.
func TestEveryPageStreamFollowsPagesAndStopsWithItsReader(t *testing.T) {
	for _, l := range pageLists() {
		for _, tc := range []struct{ limit, want, requests int }{{0, 6, 3}, {2, 2, 1}, {3, 4, 2}} {
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

// The search streams send the query and follow the page tokens of the body
// (search is a POST); a reader that stops early stops the paging too.
func TestSearchPageStreamsFollowPagesAndStopWithTheirReader(t *testing.T) {
	for _, tc := range []struct {
		key   string
		count func(ctx context.Context, c *Client, limit int) (int, error)
	}{
		{"agents", func(ctx context.Context, c *Client, limit int) (int, error) {
			return countPages(c.SearchAgentPages(ctx, testParent, "skills.tags:fx", 100), limit)
		}},
		{"mcpServers", func(ctx context.Context, c *Client, limit int) (int, error) {
			return countPages(c.SearchMcpServerPages(ctx, testParent, "skills.tags:fx", 100), limit)
		}},
	} {
		for _, lim := range []struct{ limit, want, requests int }{{0, 6, 3}, {2, 2, 1}} {
			t.Run(fmt.Sprintf("%s limit %d", tc.key, lim.limit), func(t *testing.T) {
				url, rec := pagedSearch(t, tc.key)
				got, err := tc.count(testCtx(t), testClient(t, url), lim.limit)
				if err != nil || got != lim.want || len(rec.all()) != lim.requests {
					t.Fatalf("%d items in %d requests, %v; want %d in %d", got, len(rec.all()), err, lim.want, lim.requests)
				}
				for i, r := range rec.all() {
					var body map[string]any
					_ = json.Unmarshal(r.Body, &body)
					if r.Method != "POST" || body["searchString"] != "skills.tags:fx" || body["pageSize"] != float64(100) {
						t.Errorf("request %d = %s %s %s", i, r.Method, r.Path, r.Body)
					}
				}
			})
		}
	}
}

// A page stream whose request fails yields the registry's error, once.
func TestEveryPageStreamYieldsTheRegistrysError(t *testing.T) {
	for _, l := range pageLists() {
		t.Run(l.label, func(t *testing.T) {
			srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
				writeError(w, 403, "PERMISSION_DENIED", "not yours")
			})
			if _, err := l.call(testCtx(t), testClient(t, srv.URL), 0); !isStatus(err, 403) {
				t.Errorf("err = %v, want the 403", err)
			}
		})
	}
	srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
		writeError(w, 400, "INVALID_ARGUMENT", "bad query")
	})
	c := testClient(t, srv.URL)
	if _, err := countPages(c.SearchAgentPages(testCtx(t), testParent, "x:", 100), 0); !isStatus(err, 400) {
		t.Errorf("agent search: err = %v, want the 400", err)
	}
	if _, err := countPages(c.SearchMcpServerPages(testCtx(t), testParent, "x:", 100), 0); !isStatus(err, 400) {
		t.Errorf("MCP server search: err = %v, want the 400", err)
	}
}

// A server that hands back a page token it gave before ends the stream with
// an error instead of looping.
func TestPageStreamRefusesARepeatedToken(t *testing.T) {
	srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
		writeJSON(w, 200, map[string]any{"services": []any{map[string]any{"name": testParent + "/services/a"}}, "nextPageToken": "again"})
	})
	n, err := countPages(testClient(t, srv.URL).ServicePages(testCtx(t), testParent, "", 100), 0)
	if err == nil || !strings.Contains(err.Error(), `page token "again" twice`) {
		t.Fatalf("err = %v, want the repeated token refused", err)
	}
	if n != 2 || len(rec.all()) != 2 {
		t.Errorf("%d items in %d requests, want 2 in 2", n, len(rec.all()))
	}
}
