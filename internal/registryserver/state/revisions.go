package state

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/skillpkg"
)

// upload is a checked revision archive: the expensive part of a revision
// create, done before the server's lock is taken.
type upload struct {
	archive     []byte
	frontmatter *resource.Frontmatter
	sha256      string
}

// readUpload decodes an uploaded revision and checks its archive and
// SKILL.md, or returns an INVALID_ARGUMENT naming its problems. It takes no
// lock: decoding, unpacking, parsing and hashing an archive of up to
// MaxArchiveBytes costs time, during which every other request goes on.
func readUpload(in *resource.SkillRevision) (*upload, error) {
	if in.GcsSource != nil {
		return nil, Errorf(Unimplemented, "the bundled server cannot read Cloud Storage (gcsSource); upload the archive (archiveUploadSource) instead")
	}
	if in.ArchiveUploadSource == nil || in.ArchiveUploadSource.ArchiveContent == "" {
		return nil, Violations("a revision needs archive_upload_source.archive_content",
			[]FieldViolation{{"archive_upload_source.archive_content", "required: a base64 ZIP or TAR of the skill folder"}})
	}
	archive, err := decodeBase64(in.ArchiveUploadSource.ArchiveContent)
	if err != nil {
		return nil, Violations("archive_upload_source.archive_content is not base64", []FieldViolation{{"archive_upload_source.archive_content", err.Error()}})
	}
	in.ArchiveUploadSource = nil // the encoded copy is not needed any more
	fm, err := revisionFrontmatter(archive)
	if err != nil {
		return nil, err
	}
	return &upload{archive: archive, frontmatter: fm, sha256: skillHash(archive)}, nil
}

// newRevision is the record of an upload stored as name, a revision of sk;
// uid names its archive too.
func (s *State) newRevision(name, uid string, up *upload, sk *resource.Skill) *resource.SkillRevision {
	rev := &resource.SkillRevision{
		Name: name, Uid: uid, CreateTime: s.timestamp(), State: "ACTIVE",
		Frontmatter: up.frontmatter, Sha256Hash: up.sha256, SizeBytes: int64(len(up.archive)),
		ScanResult: &resource.ScanResult{ScanState: "DISABLED"},
	}
	if sk.ScanningConfig == nil || sk.ScanningConfig.Policy != "DISABLED" {
		rev.ScanResult.ErrorMessage = notScanned
	}
	return rev
}

// revisionFrontmatter reads and validates the SKILL.md of an archive. Its
// problems are field violations: at most skillpkg.MaxProblems of them and
// one that counts the rest, so that an answer stays small whatever the input.
func revisionFrontmatter(archive []byte) (*resource.Frontmatter, error) {
	md, folder, err := skillpkg.ReadSkillFile(archive)
	if err != nil {
		return nil, Violations("invalid skill archive: "+err.Error(), []FieldViolation{{"archive_upload_source.archive_content", err.Error()}})
	}
	fm, err := skillpkg.ParseFrontmatter(md, folder)
	var ve *skillpkg.ValidationError
	if errors.As(err, &ve) {
		v := make([]FieldViolation, len(ve.Problems), len(ve.Problems)+1)
		for i, p := range ve.Problems {
			v[i] = FieldViolation{"frontmatter." + p.Field, p.String()}
		}
		if ve.Omitted > 0 {
			v = append(v, FieldViolation{"frontmatter", ve.OmittedLine()})
		}
		return nil, Violations(violationMessage("SKILL.md", v), v)
	}
	if err != nil {
		return nil, errInvalid("%v", err)
	}
	return &resource.Frontmatter{Name: fm.Name, Description: fm.Description, License: fm.License,
		Compatibility: fm.Compatibility, Metadata: fm.Metadata}, nil
}

// maxRevisionNumber bounds the N of automatic revision ids (rev-N): a
// larger N in an id a client chose is not counted, so numbering cannot
// overflow.
const maxRevisionNumber = 1_000_000_000_000_000

// revisionNumber is the N of an automatic revision id, rev-N, or of r<N>,
// the form earlier versions of the server made; false for any other id.
func revisionNumber(id string) (uint64, bool) {
	digits, ok := strings.CutPrefix(id, "rev-")
	if !ok {
		digits, ok = strings.CutPrefix(id, "r")
	}
	n, err := strconv.ParseUint(digits, 10, 64)
	return n, ok && err == nil && n <= maxRevisionNumber
}

// nextRevisionID is rev-N, N one more than the highest numbered revision of
// the skill, so ids are short, ordered by age and never reused while kept.
// When a client took the highest number itself (rev-1000000000000000), it
// is the smallest number no revision has: one of the first
// maxRevisionsPerSkill+1 is always free. Call with s.mu held.
func (s *State) nextRevisionID(skill string) string {
	var highest uint64
	used := map[uint64]bool{}
	for _, name := range s.skills.revisions.order[skill] {
		if n, ok := revisionNumber(LastSegment(name)); ok {
			used[n], highest = true, max(highest, n)
		}
	}
	next := highest + 1
	if highest >= maxRevisionNumber {
		for next = 1; used[next]; next++ {
		}
	}
	return "rev-" + strconv.FormatUint(next, 10)
}

// CreateRevision adds the revision id (chosen by the state when "") of
// skill, uploaded in in, and makes it the skill's default (the floating
// track follows the newest upload). The operation's response is the
// revision. The archive is checked before the lock is taken. Call it holding
// an upload slot (UploadSlot).
func (s *State) CreateRevision(requestID, skill, id string, in *resource.SkillRevision) (Operation, error) {
	if id != "" {
		if err := newRevisionRule.Check(id); err != nil {
			return nil, err
		}
	}
	up, err := readUpload(in)
	if err != nil {
		return nil, err
	}
	// The revision's uid names its archive, which is written now, before
	// the lock; ch deletes it again unless the revision is committed.
	uid := newUID()
	ch := s.archiveChange()
	defer ch.finish()
	if err := ch.add(uid, up.archive); err != nil {
		return nil, err
	}
	// The request id is recorded against what the client named: the
	// revision when it chose the id, else the collection.
	replayTarget := skill + "/revisions"
	if id != "" {
		replayTarget += "/" + id
	}
	return s.write(writeReq{requestID, "create", replayTarget}, func() (*change, error) {
		return s.planRevision(skill, id, uid, up, ch)
	})
}

// planRevision is the change that adds the revision id (chosen by the
// server when "") of skill, whose archive ch holds, and makes it the
// skill's default. Call with s.mu held.
func (s *State) planRevision(skill, id, uid string, up *upload, ch *archiveChange) (*change, error) {
	sk, err := s.skillRepo().found(skill)
	if err != nil {
		return nil, err
	}
	if len(s.skills.revisions.order[skill]) >= maxRevisionsPerSkill {
		return nil, errExhausted("the bundled server keeps at most %d revisions per skill; delete old ones first", maxRevisionsPerSkill)
	}
	if id == "" {
		id = s.nextRevisionID(skill)
	}
	if _, exists := s.skills.revisions.get(skill + "/revisions/" + id); exists {
		return nil, errAlreadyExists("Skill revision %q already exists.", skill+"/revisions/"+id)
	}
	rev := s.newRevision(skill+"/revisions/"+id, uid, up, sk)
	updated := *sk
	updated.DefaultRevision, updated.Frontmatter, updated.UpdateTime = rev.Name, rev.Frontmatter, s.timestamp()
	skb, err := jsonBytes(&updated)
	if err != nil {
		return nil, err
	}
	resp, err := withType(typeSkillRevision, rev)
	if err != nil {
		return nil, err
	}
	return &change{fam: familyAgentRegistry, verb: "create", target: rev.Name, resp: resp, files: ch,
		ms: []mutation{revisionMutation(rev), {Bucket: bucketSkills, Key: skill, Value: skb}},
		apply: func() {
			s.skills.revisions.put(rev.Name, rev)
			s.skills.skills.put(skill, &updated)
		}}, nil
}

// Revision is the skill revision name, or NOT_FOUND.
func (s *State) Revision(name string) (*resource.SkillRevision, error) {
	return get(s, s.skills.revisions, name, "Skill revision")
}

// ListRevisions is the page of size of the revisions of skill after after
// (nil: the first page), by name, and where the next page starts after (nil
// when this one is the last). Call it once the skill is found (Skill).
func (s *State) ListRevisions(ctx context.Context, skill string, after *search.Position, size int) ([]*resource.SkillRevision, *search.Position, error) {
	return list(ctx, s, s.skills.revisions, skill, after, size, nil)
}

// DeleteRevision removes a revision that is not the skill's default: the
// default is what the skill serves, so it must be moved first.
func (s *State) DeleteRevision(requestID, name string) (Operation, error) {
	ch := s.archiveChange()
	defer ch.finish()
	return s.write(writeReq{requestID, "delete", name}, func() (*change, error) {
		rev, ok := s.skills.revisions.get(name)
		if !ok {
			return nil, errNotFound("Skill revision %q was not found.", name)
		}
		skill := name[:strings.LastIndex(name, "/revisions/")]
		if sk, ok := s.skills.skills.get(skill); ok && sk.DefaultRevision == name {
			return nil, Errorf(FailedPrecondition, "revision %q is the skill's default revision; make another the default first", name)
		}
		resp, err := withType(typeEmpty, struct{}{})
		ch.removed = []string{rev.Uid}
		return &change{fam: familyAgentRegistry, verb: "delete", target: name, resp: resp, files: ch, ms: revisionDeletion(name),
			apply: func() { s.skills.revisions.delete(name) }}, err
	})
}

// decodeBase64 accepts the encodings a JSON bytes field arrives in
// (standard or URL-safe alphabet, padded or not).
func decodeBase64(s string) ([]byte, error) {
	s = strings.TrimRight(s, "=")
	if strings.ContainsAny(s, "-_") {
		return base64.RawURLEncoding.DecodeString(s)
	}
	return base64.RawStdEncoding.DecodeString(s)
}

func jsonBytes(v any) ([]byte, error) { return json.Marshal(v) }
