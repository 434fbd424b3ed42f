package registryserver

// Bindings (state/bindings.go): user-defined links from a source agent
// (optional) to a target agent, MCP server or endpoint.

import (
	"net/http"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/state"
)

func (s *Server) createBinding(w http.ResponseWriter, r *http.Request, parent string) {
	var in resource.Binding
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, err)
		return
	}
	s.reply(w)(s.st.CreateBinding(requestID(r), parent, r.URL.Query().Get("bindingId"), &in))
}

// patchBinding applies the fields of the update mask (every field present
// in the request without one, AIP-134).
func (s *Server) patchBinding(w http.ResponseWriter, r *http.Request, name string) {
	var in resource.Binding
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, err)
		return
	}
	s.reply(w)(s.st.UpdateBinding(requestID(r), name, r.URL.Query().Get("updateMask"), &in))
}

func (s *Server) deleteBinding(w http.ResponseWriter, r *http.Request, name string) {
	s.reply(w)(s.st.DeleteBinding(requestID(r), name))
}

func (s *Server) getBinding(w http.ResponseWriter, _ *http.Request, name string) {
	s.reply(w)(s.st.Binding(name))
}

func (s *Server) listBindings(w http.ResponseWriter, r *http.Request, parent string) {
	lq, err := readListQuery(r, state.BindingFields, state.BindingOrder, "bindings.list", parent)
	if err != nil {
		s.writeError(w, err)
		return
	}
	ctx, cancel := s.searchContext(r)
	defer cancel()
	page, next, err := s.st.ListBindings(ctx, parent, lq.filter, lq.order, lq.after, lq.size)
	if err != nil {
		s.writeError(w, s.listAborted(r, err))
		return
	}
	writeJSON(w, http.StatusOK, &resource.ListBindingsResponse{Bindings: page, NextPageToken: lq.next(next)})
}

// fetchAvailableBindings serves bindings:fetchAvailable
// (state.FetchAvailableBindings says which bindings it returns).
func (s *Server) fetchAvailableBindings(w http.ResponseWriter, r *http.Request, parent string) {
	q := r.URL.Query()
	source, target := q.Get("sourceIdentifier"), q.Get("targetIdentifier")
	if err := state.CheckAvailableQuery(source, target); err != nil {
		s.writeError(w, err)
		return
	}
	qh := queryHash("bindings.fetchAvailable", parent, source+"\x00"+target)
	after, size, err := pageArgs(r, nil, qh)
	if err != nil {
		s.writeError(w, err)
		return
	}
	ctx, cancel := s.searchContext(r)
	defer cancel()
	page, next, err := s.st.FetchAvailableBindings(ctx, parent, source, target, after, size)
	if err != nil {
		s.writeError(w, s.listAborted(r, err))
		return
	}
	writeJSON(w, http.StatusOK, &resource.FetchAvailableBindingsResponse{Bindings: page, NextPageToken: encodePosition(next, nil, qh)})
}
