package registryserver

// Standalone skills and their revisions (state/skills.go,
// state/revisions.go); their lists and searches are skills_search.go.

import (
	"net/http"
	"strconv"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/state"
)

// createSkill serves skills.create, whose body may carry an initial
// revision: it is read holding one of the state's upload slots.
func (s *Server) createSkill(w http.ResponseWriter, r *http.Request, parent string) {
	release, err := s.st.UploadSlot()
	if err != nil {
		s.writeError(w, err)
		return
	}
	defer release()
	var in resource.Skill
	if err := readJSONLimit(w, r, &in, state.MaxSkillBodyBytes); err != nil {
		s.writeError(w, err)
		return
	}
	s.reply(w)(s.st.CreateSkill(requestID(r), parent, r.URL.Query().Get("skillId"), &in))
}

func (s *Server) patchSkill(w http.ResponseWriter, r *http.Request, name string) {
	var in resource.Skill
	if err := readJSON(w, r, &in); err != nil {
		s.writeError(w, err)
		return
	}
	s.reply(w)(s.st.UpdateSkill(requestID(r), name, r.URL.Query().Get("updateMask"), &in))
}

func (s *Server) deleteSkill(w http.ResponseWriter, r *http.Request, name string) {
	force, _ := strconv.ParseBool(r.URL.Query().Get("force"))
	s.reply(w)(s.st.DeleteSkill(requestID(r), name, force))
}

func (s *Server) getSkill(w http.ResponseWriter, _ *http.Request, name string) {
	s.reply(w)(s.st.Skill(name))
}

// createRevision serves skills.revisions.create, holding an upload slot.
func (s *Server) createRevision(w http.ResponseWriter, r *http.Request, skill string) {
	release, err := s.st.UploadSlot()
	if err != nil {
		s.writeError(w, err)
		return
	}
	defer release()
	id := r.URL.Query().Get("skillRevisionId")
	var in resource.SkillRevision
	if err := readJSONLimit(w, r, &in, state.MaxSkillBodyBytes); err != nil {
		s.writeError(w, err)
		return
	}
	s.reply(w)(s.st.CreateRevision(requestID(r), skill, id, &in))
}

func (s *Server) deleteRevision(w http.ResponseWriter, r *http.Request, name string) {
	s.reply(w)(s.st.DeleteRevision(requestID(r), name))
}

func (s *Server) getRevision(w http.ResponseWriter, _ *http.Request, name string) {
	s.reply(w)(s.st.Revision(name))
}

// listRevisions serves skills.revisions.list of skill, which must exist.
func (s *Server) listRevisions(w http.ResponseWriter, r *http.Request, skill string) {
	if _, err := s.st.Skill(skill); err != nil {
		s.writeError(w, err)
		return
	}
	qh := queryHash("revisions", skill, "")
	after, size, err := pageArgs(r, nil, qh)
	if err != nil {
		s.writeError(w, err)
		return
	}
	ctx, cancel := s.searchContext(r)
	defer cancel()
	page, next, err := s.st.ListRevisions(ctx, skill, after, size)
	if err != nil {
		s.writeError(w, s.listAborted(r, err))
		return
	}
	writeJSON(w, http.StatusOK, &resource.ListSkillRevisionsResponse{SkillRevisions: page, NextPageToken: encodePosition(next, nil, qh)})
}
