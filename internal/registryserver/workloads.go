package registryserver

// App Hub v1 subset: workloads (state/workloads.go) and the
// extendedMetadataSchemas that describe AgentProperties.

import (
	"net/http"
	"strings"

	"google.golang.org/api/apphub/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/state"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

// patchWorkload serves a workload PATCH (state.UpdateWorkload).
func (s *Server) patchWorkload(w http.ResponseWriter, r *http.Request, name string) {
	var in resource.Workload
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, err)
		return
	}
	q := r.URL.Query()
	s.reply(w)(s.st.UpdateWorkload(requestID(r), name, q.Get("updateMask"), q.Get("allowMissing") == "true", &in))
}

func (s *Server) deleteWorkload(w http.ResponseWriter, r *http.Request, name string) {
	s.reply(w)(s.st.DeleteWorkload(requestID(r), name))
}

func (s *Server) getWorkload(w http.ResponseWriter, _ *http.Request, name string) {
	s.reply(w)(s.st.Workload(name))
}

func (s *Server) listWorkloads(w http.ResponseWriter, r *http.Request, app string) {
	lq, err := readListQuery(r, state.WorkloadFields, state.WorkloadOrder, "workloads", app)
	if err != nil {
		s.writeError(w, err)
		return
	}
	ctx, cancel := s.searchContext(r)
	defer cancel()
	page, next, err := s.st.ListWorkloads(ctx, app, lq.filter, lq.order, lq.after, lq.size)
	if err != nil {
		s.writeError(w, s.listAborted(r, err))
		return
	}
	writeJSON(w, http.StatusOK, &resource.ListWorkloadsResponse{Workloads: page, NextPageToken: lq.next(next)})
}

// Extended metadata schemas. The schema id contains a slash
// ("apphub.googleapis.com/AgentProperties"); the generated client sends it
// unescaped ({+name}), and a client that escapes it as %2F reaches the same
// path after decoding.

func (s *Server) agentPropertiesSchema(parent string) *apphub.ExtendedMetadataSchema {
	return &apphub.ExtendedMetadataSchema{
		Name:          parent + "/extendedMetadataSchemas/" + state.AgentPropertiesKey,
		JsonSchema:    string(spec.AgentPropertiesSchema()),
		SchemaVersion: 1,
	}
}

func (s *Server) getSchema(w http.ResponseWriter, r *http.Request, name string) {
	parent, id, _ := strings.Cut(name, "/extendedMetadataSchemas/")
	if id != state.AgentPropertiesKey {
		s.writeError(w, errNotFound("ExtendedMetadataSchema %q was not found; this server has %s.", name, state.AgentPropertiesKey))
		return
	}
	writeJSON(w, http.StatusOK, s.agentPropertiesSchema(parent))
}

func (s *Server) listSchemas(w http.ResponseWriter, r *http.Request, parent string) {
	if _, err := queryPageSize(r); err != nil {
		s.writeError(w, err)
		return
	}
	// There is one schema, so one page, and this server never issues a
	// token here; a token is still decoded, so that a malformed one is a 400
	// as on every other list.
	after, err := decodePageToken(r.URL.Query().Get("pageToken"), queryHash("extendedMetadataSchemas", parent))
	if err != nil {
		s.writeError(w, err)
		return
	}
	resp := &apphub.ListExtendedMetadataSchemasResponse{}
	if schema := s.agentPropertiesSchema(parent); schema.Name > after {
		resp.ExtendedMetadataSchemas = []*apphub.ExtendedMetadataSchema{schema}
	}
	writeJSON(w, http.StatusOK, resp)
}
