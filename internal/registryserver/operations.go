package registryserver

// The methods on long-running operations (the state keeps them: see
// state/operations.go): get, list, cancel and delete.

import (
	"encoding/json"
	"net/http"
	"strconv"

	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/state"
)

func (s *Server) getOperation(w http.ResponseWriter, _ *http.Request, name string) {
	op, err := s.st.Operation(name)
	if err != nil {
		s.writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, op)
}

// listOperations serves operations.list of parent.
func (s *Server) listOperations(w http.ResponseWriter, r *http.Request, parent string) {
	q := r.URL.Query()
	if partial, _ := strconv.ParseBool(q.Get("returnPartialSuccess")); partial {
		s.writeError(w, &apiError{HTTP: http.StatusNotImplemented, Status: "UNIMPLEMENTED",
			Message: "returnPartialSuccess is not supported: the bundled server lists the operations of one location, which are all reachable"})
		return
	}
	lq, err := readListQuery(r, state.OperationFields, nil, "operations", parent)
	if err != nil {
		s.writeError(w, err)
		return
	}
	ctx, cancel := s.searchContext(r)
	defer cancel()
	views, next, err := s.st.ListOperations(ctx, parent, lq.filter, lq.after, lq.size)
	if err != nil {
		s.writeError(w, s.listAborted(r, err))
		return
	}
	writeJSON(w, http.StatusOK, struct {
		Operations    []json.RawMessage `json:"operations,omitempty"`
		NextPageToken string            `json:"nextPageToken,omitempty"`
	}{views, lq.next(next)})
}

// cancelOperation serves operations.cancel (state.CancelOperation says what
// it does), answering Empty.
func (s *Server) cancelOperation(w http.ResponseWriter, r *http.Request, name string) {
	var in agentregistry.CancelOperationRequest
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, err)
		return
	}
	s.writeEmpty(w, s.st.CancelOperation(name))
}

// deleteOperation serves operations.delete, answering Empty.
func (s *Server) deleteOperation(w http.ResponseWriter, _ *http.Request, name string) {
	s.writeEmpty(w, s.st.DeleteOperation(name))
}
