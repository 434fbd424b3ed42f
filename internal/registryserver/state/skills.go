package state

// Standalone skills (skills and skills/*/revisions of the v1 API). A skill is
// a container with a user-managed target state; its content lives in
// revisions, each created from an uploaded ZIP or TAR archive of an Agent
// Skills folder. The server checks the archive's SKILL.md with the same
// package the provider uses at plan (internal/skillpkg), records its
// SHA-256, size and front matter, and makes the newest revision the skill's
// default. It stores the archive (beside the data file) but never scans it: every
// revision's scanResult says so, with no findings.

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/skillpkg"
)

const (
	typeSkill         = "type.googleapis.com/google.cloud.agentregistry.v1.Skill"
	typeSkillRevision = "type.googleapis.com/google.cloud.agentregistry.v1.SkillRevision"

	bucketSkills         = "skills"
	bucketSkillRevisions = "skillRevisions"
	// bucketSkillArchives held the archives in data files of earlier
	// versions; they are files of their own now (archives.go).
	bucketSkillArchives = "skillArchives"

	// MaxSkillsPerParent and maxRevisionsPerSkill bound what one client can
	// make the server hold (and a search scan) in memory.
	MaxSkillsPerParent   = 10000
	maxRevisionsPerSkill = 100
	maxSkillDisplayName  = 128
	maxSkillDescription  = 2048

	// MaxSkillBodyBytes admits a revision carrying a MaxArchiveBytes archive,
	// base64-encoded (4/3 larger) inside a JSON body.
	MaxSkillBodyBytes = skillpkg.MaxArchiveBytes/3*4 + 64<<10

	// notScanned is the plain statement every revision's scan result makes.
	notScanned = "not scanned: the bundled registry server has no scanner; it stores the package as uploaded and reports no findings"
)

// The store buckets of skills are registered here, beside their code, so
// that the store's own list stays that of the services.
func init() {
	allBuckets = append(allBuckets, bucketSkills, bucketSkillRevisions, bucketSkillArchives)
}

var (
	SkillRule = IDRule{"skill_id", regexp.MustCompile(`^[a-z-]{4,64}$`), 64,
		"4 to 64 lower-case letters and hyphens"}
	// RevisionRule is what a revision id in a path may be: it admits the
	// r1, r2... that earlier versions of the server made, so that their
	// revisions stay reachable. A new id follows newRevisionRule, the
	// discovery document's.
	RevisionRule = IDRule{"skill_revision_id", regexp.MustCompile(`^[a-z0-9]([a-z0-9-]*[a-z0-9])?$`), 63,
		"lower-case letters, digits and hyphens, not starting or ending with a hyphen, at most 63 characters"}
	newRevisionRule = IDRule{"skill_revision_id", regexp.MustCompile(`^[a-z][a-z0-9-]{2,61}[a-z0-9]$`), 63,
		"4 to 63 lower-case letters, digits and hyphens, starting with a letter and not ending with a hyphen"}
	targetStates = map[string]string{
		"TARGET_STATE_DRAFT": "STATE_DRAFT", "TARGET_STATE_ACTIVE": "STATE_ACTIVE", "TARGET_STATE_DISABLED": "STATE_DISABLED",
		"TARGET_STATE_DEPRECATED": "STATE_DEPRECATED", "TARGET_STATE_DECOMMISSIONED": "STATE_DECOMMISSIONED",
	}
	scanPolicies = map[string]bool{"": true, "POLICY_UNSPECIFIED": true, "DISABLED": true, "ENABLED_BLOCKING": true, "ENABLED_NONBLOCKING": true}
)

// skillState is the skills part of the state, guarded by State.mu
// (uploads aside: it is a semaphore of its own).
type skillState struct {
	skills    *collection[*resource.Skill]
	revisions *collection[*resource.SkillRevision] // grouped by skill name
	uploads   chan struct{}                        // one token per upload being handled
	archives  *archiveStore                        // nil in memory; safe without Server.mu
}

// newSkillState returns empty skills with maxUploads upload slots (0:
// defaultMaxUploads).
func newSkillState(maxUploads int) *skillState {
	if maxUploads <= 0 {
		maxUploads = defaultMaxUploads
	}
	return &skillState{
		skills:    newCollection[*resource.Skill]("/skills/"),
		revisions: newCollection[*resource.SkillRevision]("/revisions/"),
		uploads:   make(chan struct{}, maxUploads),
	}
}

// loadSkills rebuilds the skills and revisions from the store and opens the
// archives folder (whose archives stay on disk), deleting the archives that
// no revision names.
func (s *State) loadSkills() error {
	err := s.store.load(bucketSkills, func(k, v []byte) error {
		var sk resource.Skill
		if err := json.Unmarshal(v, &sk); err != nil {
			return fmt.Errorf("skill %s: %w", k, err)
		}
		sk.SkillId = skillURN(ParentOf(sk.Name), LastSegment(sk.Name)) // files written before skill ids were URNs
		s.skills.skills.put(sk.Name, &sk)
		return nil
	})
	if err != nil {
		return err
	}
	uids := map[string]string{} // uid -> revision name
	err = s.store.load(bucketSkillRevisions, func(k, v []byte) error {
		var rev resource.SkillRevision
		if err := json.Unmarshal(v, &rev); err != nil {
			return fmt.Errorf("skill revision %s: %w", k, err)
		}
		s.skills.revisions.put(rev.Name, &rev)
		uids[rev.Uid] = rev.Name
		return nil
	})
	if err == nil {
		s.skills.archives, err = openArchives(s.opts.DataPath, func(uid string) bool { return uids[uid] != "" })
	}
	if err == nil {
		err = s.checkArchives(uids)
	}
	return err
}

// checkArchives refuses a data file with a revision whose archive is
// missing (neither in the archives folder nor, for files of earlier
// versions, in the data file): the server would serve a revision whose
// package is lost as if it were whole. The error names them (the first
// ten, and how many) and says what to do.
func (s *State) checkArchives(uids map[string]string) error {
	legacy := map[string]bool{}
	if err := s.store.load(bucketSkillArchives, func(k, _ []byte) error { legacy[string(k)] = true; return nil }); err != nil {
		return err
	}
	var missing []string
	for uid, name := range uids {
		if !legacy[name] && !s.skills.archives.has(uid) {
			missing = append(missing, name)
		}
	}
	if len(missing) == 0 {
		return nil
	}
	slices.Sort(missing)
	shown := missing[:min(10, len(missing))]
	return fmt.Errorf("%d skill revisions have no archive in %s (%s%s): the data file and its archives folder do not match; "+
		"restore the folder from the same backup as the data file, or start on a copy of the data file without those revisions",
		len(missing), s.skills.archives.dir, strings.Join(shown, ", "), map[bool]string{true: ", ...", false: ""}[len(missing) > len(shown)])
}

func newUID() string {
	b := make([]byte, 16)
	_, _ = rand.Read(b)
	b[6], b[8] = b[6]&0x0f|0x40, b[8]&0x3f|0x80
	h := hex.EncodeToString(b)
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// validateSkill checks the writable fields of a skill.
func validateSkill(sk *resource.Skill) []FieldViolation {
	var v []FieldViolation
	if n := utf8.RuneCountInString(sk.DisplayName); n > maxSkillDisplayName {
		v = append(v, FieldViolation{"display_name", fmt.Sprintf("is %d characters long; the limit is %d", n, maxSkillDisplayName)})
	}
	if n := utf8.RuneCountInString(sk.Description); n > maxSkillDescription {
		v = append(v, FieldViolation{"description", fmt.Sprintf("is %d characters long; the limit is %d", n, maxSkillDescription)})
	}
	if sk.Type != "SIMPLE" {
		v = append(v, FieldViolation{"type", fmt.Sprintf("must be SIMPLE, got %q", sk.Type)})
	}
	if _, ok := targetStates[sk.TargetState]; !ok {
		v = append(v, FieldViolation{"target_state", fmt.Sprintf("must be one of TARGET_STATE_DRAFT, TARGET_STATE_ACTIVE, TARGET_STATE_DISABLED, TARGET_STATE_DEPRECATED, TARGET_STATE_DECOMMISSIONED; got %q", sk.TargetState)})
	}
	if sk.ScanningConfig != nil && !scanPolicies[sk.ScanningConfig.Policy] {
		v = append(v, FieldViolation{"scanning_config.policy", fmt.Sprintf("must be DISABLED, ENABLED_BLOCKING or ENABLED_NONBLOCKING; got %q", sk.ScanningConfig.Policy)})
	}
	if sk.Publisher != "" {
		v = append(v, FieldViolation{"publisher", "publishers are not supported by the bundled server"})
	}
	return v
}

// Skill is the skill name, or NOT_FOUND.
func (s *State) Skill(name string) (*resource.Skill, error) {
	return get(s, s.skills.skills, name, "Skill")
}

// SkillsOf returns a snapshot of the skills of parent, in name order, which
// a search evaluates without the lock. The count is bounded by
// MaxSkillsPerParent, so a scan is bounded too; records are replaced, never
// changed in place, so the snapshot stays as it was.
func (s *State) SkillsOf(parent string) []*resource.Skill {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, sks := s.skills.skills.page(parent, "", MaxSkillsPerParent)
	return sks
}

// CreateSkill creates the skill id of parent that in describes, with its
// initial revision when in has one, under the request id requestID ("" for
// none). Call it holding an upload slot (UploadSlot): in may carry an
// archive.
func (s *State) CreateSkill(requestID, parent, id string, in *resource.Skill) (Operation, error) {
	if err := SkillRule.Check(id); err != nil {
		return nil, err
	}
	name := parent + "/skills/" + id
	sk, err := s.newSkill(parent, id, in)
	if err != nil {
		return nil, err
	}
	var rev *resource.SkillRevision
	ch := s.archiveChange()
	defer ch.finish()
	if in.InitialRevision != nil {
		up, err := readUpload(in.InitialRevision)
		if err != nil {
			return nil, err
		}
		rev = s.newRevision(name+"/revisions/rev-1", newUID(), up, sk)
		if err := ch.add(rev.Uid, up.archive); err != nil {
			return nil, err
		}
		sk.DefaultRevision, sk.Frontmatter = rev.Name, rev.Frontmatter
	}
	return s.write(writeReq{requestID, "create", name}, func() (*change, error) {
		rp := s.skillRepo()
		if err := rp.free(name); err != nil {
			return nil, err
		}
		c, err := rp.put("create", name, nil, sk, false)
		if err == nil && rev != nil {
			c.ms = append(c.ms, revisionMutation(rev))
			put := c.apply
			c.apply = func() { put(); s.skills.revisions.put(rev.Name, rev) }
		}
		if err == nil {
			c.files = ch
		}
		return c, err
	})
}

// skillRepo is the skills' part of the write pipeline.
func (s *State) skillRepo() *repo[*resource.Skill] {
	return &repo[*resource.Skill]{s: s, c: s.skills.skills, bucket: bucketSkills, typeURL: typeSkill, title: "Skill",
		plural: "skills", fam: familyAgentRegistry, max: MaxSkillsPerParent}
}

// newSkill is the skill id of parent that in describes, checked.
func (s *State) newSkill(parent, id string, in *resource.Skill) (*resource.Skill, error) {
	s.validating(parent + "/skills/" + id)
	now := s.timestamp()
	sk := &resource.Skill{
		Name: parent + "/skills/" + id, SkillId: skillURN(parent, id), Uid: newUID(), DisplayName: in.DisplayName, Description: in.Description,
		Type: in.Type, TargetState: in.TargetState, ScanningConfig: in.ScanningConfig, Publisher: in.Publisher,
		State: targetStates[in.TargetState], CreateTime: now, UpdateTime: now,
	}
	if v := validateSkill(sk); len(v) > 0 {
		return nil, Violations(violationMessage("skill", v), v)
	}
	return sk, nil
}

// defaultMaxUploads is the upload cap when Options.MaxUploads is 0.
const defaultMaxUploads = 4

// UploadSlot takes one of the upload slots for a skill or revision create,
// whose body (up to MaxSkillBodyBytes) and archive are held in memory while
// it is checked; when all are taken it fails with UNAVAILABLE and a
// Retry-After (clients retry), so that concurrent uploads cost at most the
// cap's worth of memory. release gives the slot back.
func (s *State) UploadSlot() (release func(), err error) {
	select {
	case s.skills.uploads <- struct{}{}:
		return func() { <-s.skills.uploads }, nil
	default:
		return nil, &Error{Code: Unavailable, RetryAfter: time.Second,
			Message: fmt.Sprintf("the server is handling %d skill uploads, its limit (-max-uploads); retry shortly", cap(s.skills.uploads))}
	}
}

func revisionMutation(rev *resource.SkillRevision) mutation {
	b, _ := json.Marshal(rev)
	return mutation{Bucket: bucketSkillRevisions, Key: rev.Name, Value: b}
}

// revisionDeletion deletes the revision name from the data file, and its
// archive where earlier versions of the server kept it (archives.go).
func revisionDeletion(name string) []mutation {
	return []mutation{{Bucket: bucketSkillRevisions, Key: name}, {Bucket: bucketSkillArchives, Key: name}}
}

// skillMutable are the fields a patch may change, by snake_case mask path.
var skillMutable = map[string]func(dst, src *resource.Skill){
	"display_name":     func(d, s *resource.Skill) { d.DisplayName = s.DisplayName },
	"description":      func(d, s *resource.Skill) { d.Description = s.Description },
	"target_state":     func(d, s *resource.Skill) { d.TargetState = s.TargetState },
	"scanning_config":  func(d, s *resource.Skill) { d.ScanningConfig = s.ScanningConfig },
	"default_revision": func(d, s *resource.Skill) { d.DefaultRevision = s.DefaultRevision },
}

// UpdateSkill applies the fields of in that the update mask names (mask
// as sent; AIP-134: every field present in in without one) to the skill
// name.
func (s *State) UpdateSkill(requestID, name, mask string, in *resource.Skill) (Operation, error) {
	paths := updatePaths(mask, []string{"display_name", "description", "target_state", "scanning_config", "default_revision"}, map[string]bool{
		"display_name": in.DisplayName != "", "description": in.Description != "", "target_state": in.TargetState != "",
		"scanning_config": in.ScanningConfig != nil, "default_revision": in.DefaultRevision != ""})
	return s.skillRepo().update(requestID, name, func(old *resource.Skill) (*resource.Skill, error) {
		return s.patchedSkill(old, in, paths)
	})
}

// patchedSkill is old with the masked fields of in, checked. Call with s.mu held.
func (s *State) patchedSkill(old, in *resource.Skill, paths []string) (*resource.Skill, error) {
	sk := *old
	for _, p := range paths {
		set, ok := skillMutable[p]
		if !ok {
			return nil, Violations(fmt.Sprintf("update_mask: %q is not a field that can be updated", p),
				[]FieldViolation{{"update_mask", "allowed: display_name, description, target_state, scanning_config, default_revision"}})
		}
		set(&sk, in)
	}
	v := validateSkill(&sk)
	if rev, ok := s.skills.revisions.get(sk.DefaultRevision); sk.DefaultRevision != old.DefaultRevision {
		if !ok || !strings.HasPrefix(sk.DefaultRevision, old.Name+"/revisions/") {
			v = append(v, FieldViolation{"default_revision", fmt.Sprintf("%q is not a revision of this skill", sk.DefaultRevision)})
		} else {
			sk.Frontmatter = rev.Frontmatter
		}
	}
	if len(v) > 0 {
		return nil, Violations(violationMessage("skill", v), v)
	}
	sk.State, sk.UpdateTime = targetStates[sk.TargetState], s.timestamp()
	return &sk, nil
}

// DeleteSkill deletes the skill name: a skill with revisions only with
// force, which deletes them too.
func (s *State) DeleteSkill(requestID, name string, force bool) (Operation, error) {
	ch := s.archiveChange()
	defer ch.finish()
	return s.write(writeReq{requestID, "delete", name}, func() (*change, error) {
		rp := s.skillRepo()
		old, err := rp.found(name)
		if err != nil {
			return nil, err
		}
		if n := len(s.skills.revisions.order[name]); n > 0 && !force {
			return nil, Errorf(FailedPrecondition, "Skill %q has %d revisions; delete them first or set force=true", name, n)
		}
		c, err := rp.remove(name, old)
		if err != nil {
			return nil, err
		}
		gone, revs := s.skills.revisions.page(name, "", maxRevisionsPerSkill+1)
		for i, n := range gone {
			c.ms = append(c.ms, revisionDeletion(n)...)
			ch.removed = append(ch.removed, revs[i].Uid)
		}
		del := c.apply
		c.apply = func() {
			del()
			for _, n := range gone {
				s.skills.revisions.delete(n)
			}
		}
		c.files = ch
		return c, nil
	})
}

// skillHash is the sha256Hash of an archive, as hex.
func skillHash(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
