package registryserver_test

import (
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"

	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
)

// TestSearchEmptyResultIsEmptyObject: like Google (proto3 JSON), a search or
// list of derived records that finds nothing answers {}, without an empty
// list, whether the location has an index (agents here) or none at all
// (no MCP server was ever registered).
func TestSearchEmptyResultIsEmptyObject(t *testing.T) {
	e := start(t, registryserver.Options{})
	e.create(t, "travel", agentService("Travel planner", "Plans trips."))
	for _, c := range []struct{ method, path, body, want string }{
		{"POST", "/agents:search", `{"searchString":"nothing-matches-this"}`, "{}\n"},
		{"GET", "/agents?filter=nothing", "", "{}\n"},
		{"POST", "/mcpServers:search", `{"searchString":"travel"}`, "{}\n"},
		{"GET", "/mcpServers", "", "{}\n"},
		// The control: a match is a list.
		{"POST", "/agents:search", `{"searchString":"travel"}`, `{"agents":[`},
	} {
		req, _ := http.NewRequest(c.method, e.url+"/v1/"+parent+c.path, strings.NewReader(c.body))
		res, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(res.Body)
		_ = res.Body.Close()
		if res.StatusCode != http.StatusOK || !strings.HasPrefix(string(b), c.want) {
			t.Errorf("%s %s %s: %d %q, want %q", c.method, c.path, c.body, res.StatusCode, b, c.want)
		}
	}
}

// TestSearchPageOfExactlyPageSize: a search (or list) whose matches exactly
// fill the page returns them without a next_page_token, since no page
// follows; one fewer per page gives a token whose page holds the last match
// and no token.
func TestSearchPageOfExactlyPageSize(t *testing.T) {
	e := start(t, registryserver.Options{})
	for i := range 3 {
		e.create(t, fmt.Sprintf("agent-%d", i), agentService(fmt.Sprintf("Agent %d", i), "Shared helper."))
	}
	search := func(size int64, token string) *agentregistry.SearchAgentsResponse {
		t.Helper()
		r, err := e.ar.Projects.Locations.Agents.Search(parent, &agentregistry.SearchAgentsRequest{SearchString: "shared", PageSize: size, PageToken: token}).Do()
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	if r := search(3, ""); len(r.Agents) != 3 || r.NextPageToken != "" {
		t.Errorf("page_size 3 over 3 matches: %d agents, token %q; want 3 and none", len(r.Agents), r.NextPageToken)
	}
	r := search(2, "")
	if len(r.Agents) != 2 || r.NextPageToken == "" {
		t.Fatalf("page_size 2 over 3 matches: %d agents, token %q; want 2 and a token", len(r.Agents), r.NextPageToken)
	}
	if r = search(2, r.NextPageToken); len(r.Agents) != 1 || idOf(r.Agents[0].Name) != "agent-2" || r.NextPageToken != "" {
		t.Errorf("second page: %+v, want agent-2 and no token", r)
	}
	l, err := e.ar.Projects.Locations.Agents.List(parent).PageSize(3).Do()
	if err != nil || len(l.Agents) != 3 || l.NextPageToken != "" {
		t.Errorf("list with page_size 3 over 3 agents: %+v %v; want 3 and no token", l, err)
	}
}
