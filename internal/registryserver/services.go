package registryserver

// Services: the only writable Agent Registry resource (state/services.go
// says what a write checks and what it derives).

import (
	"net/http"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/state"
)

func (s *Server) createService(w http.ResponseWriter, r *http.Request, parent string) {
	var in resource.Service
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, err)
		return
	}
	s.reply(w)(s.st.CreateService(requestID(r), parent, r.URL.Query().Get("serviceId"), &in))
}

func (s *Server) patchService(w http.ResponseWriter, r *http.Request, name string) {
	var in resource.Service
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, err)
		return
	}
	s.reply(w)(s.st.UpdateService(requestID(r), name, r.URL.Query().Get("updateMask"), &in))
}

func (s *Server) deleteService(w http.ResponseWriter, r *http.Request, name string) {
	s.reply(w)(s.st.DeleteService(requestID(r), name))
}

func (s *Server) getService(w http.ResponseWriter, _ *http.Request, name string) {
	s.reply(w)(s.st.Service(name))
}

func (s *Server) listServices(w http.ResponseWriter, r *http.Request, parent string) {
	lq, err := readListQuery(r, state.ServiceFields, nil, "services", parent)
	if err != nil {
		s.writeError(w, err)
		return
	}
	ctx, cancel := s.searchContext(r)
	defer cancel()
	page, next, err := s.st.ListServices(ctx, parent, lq.filter, lq.after, lq.size)
	if err != nil {
		s.writeError(w, s.listAborted(r, err))
		return
	}
	writeJSON(w, http.StatusOK, &resource.ListServicesResponse{Services: page, NextPageToken: lq.next(next)})
}
