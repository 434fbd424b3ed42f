package registryserver

import (
	"errors"
	"fmt"
	"net/http"
	"strconv"
	"strings"

	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/skillpkg"
)

// buildRevision checks an uploaded revision of skill sk and returns it as
// stored (without its archive, which is returned apart) or an
// INVALID_ARGUMENT naming every problem of its SKILL.md.
func (s *Server) buildRevision(skill, id string, in *agentregistry.SkillRevision, sk *agentregistry.Skill) (*agentregistry.SkillRevision, []byte, error) {
	if in.GcsSource != nil {
		return nil, nil, &apiError{HTTP: http.StatusNotImplemented, Status: "UNIMPLEMENTED",
			Message: "the bundled server cannot read Cloud Storage (gcsSource); upload the archive (archiveUploadSource) instead"}
	}
	if in.ArchiveUploadSource == nil || in.ArchiveUploadSource.ArchiveContent == "" {
		return nil, nil, errViolations("a revision needs archive_upload_source.archive_content",
			[]fieldViolation{{"archive_upload_source.archive_content", "required: a base64 ZIP or TAR of the skill folder"}})
	}
	archive, err := decodeBase64(in.ArchiveUploadSource.ArchiveContent)
	if err != nil {
		return nil, nil, errViolations("archive_upload_source.archive_content is not base64", []fieldViolation{{"archive_upload_source.archive_content", err.Error()}})
	}
	fm, err := revisionFrontmatter(archive)
	if err != nil {
		return nil, nil, err
	}
	rev := &agentregistry.SkillRevision{
		Name: skill + "/revisions/" + id, Uid: newUID(), CreateTime: s.timestamp(), State: "ACTIVE",
		Frontmatter: fm, Sha256Hash: skillHash(archive), SizeBytes: int64(len(archive)),
		ScanResult: &agentregistry.ScanResult{ScanState: "DISABLED"},
	}
	if sk.ScanningConfig == nil || sk.ScanningConfig.Policy != "DISABLED" {
		rev.ScanResult.ErrorMessage = notScanned
	}
	return rev, archive, nil
}

// revisionFrontmatter reads and validates the SKILL.md of an archive.
func revisionFrontmatter(archive []byte) (*agentregistry.Frontmatter, error) {
	md, folder, err := skillpkg.ReadSkillFile(archive)
	if err != nil {
		return nil, errViolations("invalid skill archive: "+err.Error(), []fieldViolation{{"archive_upload_source.archive_content", err.Error()}})
	}
	fm, err := skillpkg.ParseFrontmatter(md, folder)
	var ve *skillpkg.ValidationError
	if errors.As(err, &ve) {
		v := make([]fieldViolation, len(ve.Problems))
		for i, p := range ve.Problems {
			v[i] = fieldViolation{"frontmatter." + p.Field, p.String()}
		}
		return nil, errViolations(violationMessage("SKILL.md", v), v)
	}
	if err != nil {
		return nil, errInvalid("%v", err)
	}
	return &agentregistry.Frontmatter{Name: fm.Name, Description: fm.Description, License: fm.License,
		Compatibility: fm.Compatibility, Metadata: fm.Metadata}, nil
}

// nextRevisionID is r<N>, N one more than the highest numbered revision of
// the skill, so ids are short, ordered by age and never reused while kept.
func (s *Server) nextRevisionID(skill string) string {
	n := 0
	for _, name := range s.skills.revisions.order[skill] {
		if v, err := strconv.Atoi(strings.TrimPrefix(lastSegment(name), "r")); err == nil && v > n {
			n = v
		}
	}
	return "r" + strconv.Itoa(n+1)
}

// createRevision adds a revision and makes it the skill's default (the
// floating track follows the newest upload). The operation's response is
// the revision.
func (s *Server) createRevision(w http.ResponseWriter, r *http.Request, skill string) {
	q := r.URL.Query()
	id, reqID := q.Get("skillRevisionId"), q.Get("requestId")
	var in agentregistry.SkillRevision
	if err := readJSONLimit(w, r, &in, maxSkillBodyBytes); err != nil {
		s.writeError(w, err)
		return
	}
	if id != "" {
		if err := revisionRule.check(id); err != nil {
			s.writeError(w, err)
			return
		}
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if op, err := s.replay(reqID, "create", skill+"/revisions"); err != nil || op != nil {
		s.respondOp(w, op, err)
		return
	}
	sk, ok := s.skills.skills.get(skill)
	if !ok {
		s.writeError(w, errNotFound("Skill %q was not found.", skill))
		return
	}
	if len(s.skills.revisions.order[skill]) >= maxRevisionsPerSkill {
		s.writeError(w, errExhausted("the bundled server keeps at most %d revisions per skill; delete old ones first", maxRevisionsPerSkill))
		return
	}
	if id == "" {
		id = s.nextRevisionID(skill)
	}
	if _, exists := s.skills.revisions.get(skill + "/revisions/" + id); exists {
		s.writeError(w, errAlreadyExists("Skill revision %q already exists.", skill+"/revisions/"+id))
		return
	}
	rev, archive, err := s.buildRevision(skill, id, &in, sk)
	if err != nil {
		s.writeError(w, err)
		return
	}
	updated := *sk
	updated.DefaultRevision, updated.Frontmatter, updated.UpdateTime = rev.Name, rev.Frontmatter, s.timestamp()
	skb, err := jsonBytes(&updated)
	if err == nil {
		var resp []byte
		if resp, err = withType(typeSkillRevision, rev); err == nil {
			ms := append(revisionMutations(rev, archive), mutation{Bucket: bucketSkills, Key: skill, Value: skb})
			s.commitSkillOp(w, "create", rev.Name, reqID, resp, ms, func() {
				s.skills.revisions.put(rev.Name, rev)
				s.skills.skills.put(skill, &updated)
			})
			return
		}
	}
	s.writeError(w, err)
}

func (s *Server) listRevisions(w http.ResponseWriter, r *http.Request, skill string) {
	s.mu.RLock()
	_, ok := s.skills.skills.get(skill)
	s.mu.RUnlock()
	if !ok {
		s.writeError(w, errNotFound("Skill %q was not found.", skill))
		return
	}
	page, next, err := listPage(s, r, s.skills.revisions, skill, "revisions", "", nil)
	if err != nil {
		s.writeError(w, err)
		return
	}
	writeJSON(w, http.StatusOK, &agentregistry.ListSkillRevisionsResponse{SkillRevisions: page, NextPageToken: next})
}

// deleteRevision removes a revision that is not the skill's default: the
// default is what the skill serves, so it must be moved first.
func (s *Server) deleteRevision(w http.ResponseWriter, r *http.Request, name string) {
	reqID := r.URL.Query().Get("requestId")
	s.mu.Lock()
	defer s.mu.Unlock()
	if op, err := s.replay(reqID, "delete", name); err != nil || op != nil {
		s.respondOp(w, op, err)
		return
	}
	if _, ok := s.skills.revisions.get(name); !ok {
		s.writeError(w, errNotFound("Skill revision %q was not found.", name))
		return
	}
	skill := name[:strings.LastIndex(name, "/revisions/")]
	if sk, ok := s.skills.skills.get(skill); ok && sk.DefaultRevision == name {
		s.writeError(w, &apiError{HTTP: http.StatusBadRequest, Status: "FAILED_PRECONDITION",
			Message: fmt.Sprintf("revision %q is the skill's default revision; make another the default first", name)})
		return
	}
	resp, _ := withType(typeEmpty, struct{}{})
	ms := []mutation{{Bucket: bucketSkillRevisions, Key: name}, {Bucket: bucketSkillArchives, Key: name}}
	s.commitSkillOp(w, "delete", name, reqID, resp, ms, func() { s.skills.revisions.delete(name) })
}
