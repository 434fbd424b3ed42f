package registryserver

// What Google discovers or produces by itself: AI applications (and their
// agents, MCP servers and endpoints), which it finds in a project's
// runtimes, and security findings, which its scans of skill revisions
// produce. The bundled server has no runtimes and scans nothing, so it has
// none of either, and says so as Google would for a project without them:
// the lists are empty and a get is NOT_FOUND. The lists still check their
// parameters (filter, orderBy, page size and token) as the others do, so a
// malformed one is refused here as it would be there.

import (
	"net/http"

	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/state"
)

var (
	aiApplicationFields = newListSchema("AI applications", "name", "displayName", "description", "state")
	aiApplicationOrder  = []string{"name", "displayName", "createTime", "updateTime", "state"}
	findingFields       = newListSchema("findings", "name", "resource", "severity", "findingClass", "detail")
	findingOrder        = []string{"name", "resource", "severity", "findingClass", "createTime", "updateTime"}
)

// emptyList answers empty, the list response of a collection that is
// always empty, once the request's parameters are checked.
func (s *Server) emptyList(w http.ResponseWriter, r *http.Request, fields *fieldSet, order []string, empty any) {
	q := r.URL.Query()
	_, err := parseFilter(q.Get("filter"), fields)
	if err == nil {
		_, err = search.ParseOrderBy(q.Get("orderBy"), order)
	}
	if err == nil {
		_, err = queryPageSize(r)
	}
	// Nothing is ever listed, so no token was ever issued.
	if tok := q.Get("pageToken"); err == nil && tok != "" {
		err = errForeignToken(tok)
	}
	if err != nil {
		s.writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, empty)
}

func (s *Server) listAIApplications(w http.ResponseWriter, r *http.Request, _ string) {
	s.emptyList(w, r, aiApplicationFields, aiApplicationOrder, &agentregistry.ListAiApplicationsResponse{})
}

func (s *Server) getAIApplication(w http.ResponseWriter, _ *http.Request, name string) {
	s.writeError(w, errNotFound("AiApplication %q was not found: the bundled server discovers no AI applications.", name))
}

// inAIApplication serves the gets and lists of an AI application's agents,
// MCP servers and endpoints: its AI application does not exist.
func (s *Server) inAIApplication(w http.ResponseWriter, r *http.Request, name string) {
	if _, err := queryPageSize(r); err != nil {
		s.writeError(w, err)
		return
	}
	app := state.ParentOf(name) + "/aiApplications/" + r.PathValue("aiApplication")
	s.getAIApplication(w, r, app)
}

func (s *Server) listFindings(w http.ResponseWriter, r *http.Request, _ string) {
	s.emptyList(w, r, findingFields, findingOrder, &agentregistry.ListFindingsResponse{})
}

func (s *Server) getFinding(w http.ResponseWriter, _ *http.Request, name string) {
	s.writeError(w, errNotFound("Finding %q was not found: the bundled server scans nothing, so it has no findings.", name))
}
