package registryclient

import (
	"encoding/json"
	"fmt"
	"net/http"
	"testing"
)

// pagedSearch serves 3 pages of 2 items each under key ("agents" or "mcpServers").
func pagedSearch(t *testing.T, key string) (string, *recorder) {
	srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, q recorded) {
		var req struct {
			SearchString string `json:"searchString"`
			PageSize     int    `json:"pageSize"`
			PageToken    string `json:"pageToken"`
		}
		if err := json.Unmarshal(q.Body, &req); err != nil {
			writeError(w, 400, "INVALID_ARGUMENT", err.Error())
			return
		}
		page := map[string]int{"": 0, "p2": 1, "p3": 2}[req.PageToken]
		next := map[int]string{0: "p2", 1: "p3"}[page]
		items := []any{}
		for i := range 2 {
			items = append(items, map[string]any{"name": fmt.Sprintf("%s/%s/x%d", testParent, key, page*2+i)})
		}
		writeJSON(w, 200, map[string]any{key: items, "nextPageToken": next})
	})
	return srv.URL, rec
}

func TestSearchAgentsFollowsPages(t *testing.T) {
	url, rec := pagedSearch(t, "agents")
	c := testClient(t, url)
	agents, err := c.SearchAgents(testCtx(t), testParent, "skills.tags:travel", 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(agents) != 6 {
		t.Fatalf("got %d agents, want 6 from 3 pages", len(agents))
	}
	for i, a := range agents {
		if want := fmt.Sprintf("%s/agents/x%d", testParent, i); a.Name != want {
			t.Errorf("agents[%d] = %q, want %q", i, a.Name, want)
		}
	}
	reqs := rec.all()
	if len(reqs) != 3 {
		t.Fatalf("requests = %d, want 3", len(reqs))
	}
	for i, r := range reqs {
		var body map[string]any
		_ = json.Unmarshal(r.Body, &body)
		if r.Method != "POST" || r.Path != "/v1/"+testParent+"/agents:search" {
			t.Errorf("request %d = %s %s", i, r.Method, r.Path)
		}
		if body["searchString"] != "skills.tags:travel" || body["pageSize"] != float64(100) {
			t.Errorf("request %d body = %s", i, r.Body)
		}
		if want := []string{"", "p2", "p3"}[i]; (body["pageToken"] == nil && want != "") || (body["pageToken"] != nil && body["pageToken"] != want) {
			t.Errorf("request %d pageToken = %v, want %q", i, body["pageToken"], want)
		}
	}
}

func TestSearchMcpServersFollowsPagesUpToLimit(t *testing.T) {
	url, rec := pagedSearch(t, "mcpServers")
	c := testClient(t, url)
	all, err := c.SearchMcpServers(testCtx(t), testParent, "", 0)
	if err != nil || len(all) != 6 {
		t.Fatalf("SearchMcpServers = %d items, %v; want 6", len(all), err)
	}
	before := len(rec.all())
	some, err := c.SearchMcpServers(testCtx(t), testParent, "", 3)
	if err != nil || len(some) != 3 {
		t.Fatalf("SearchMcpServers(limit 3) = %d items, %v", len(some), err)
	}
	if n := len(rec.all()) - before; n != 2 {
		t.Errorf("requests with limit 3 = %d, want 2 (stop once the limit is reached)", n)
	}
}

func TestSearchStopsOnARepeatedPageToken(t *testing.T) {
	srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
		writeJSON(w, 200, map[string]any{"agents": []any{map[string]any{"name": "a"}}, "nextPageToken": "same"})
	})
	c := testClient(t, srv.URL)
	if _, err := c.SearchAgents(testCtx(t), testParent, "", 0); err == nil {
		t.Error("want an error for a server that repeats its page token")
	}
}
