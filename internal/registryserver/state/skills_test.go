package state

// Skills and their revisions: the caps, the uploads checked outside the
// lock, and the numbering of revisions.

import (
	"context"
	"encoding/base64"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/skillpkg"
)

// A location holds at most MaxSkillsPerParent skills; the create that would
// pass it is RESOURCE_EXHAUSTED, and another location has its own count.
// All but the last skill below the limit are put in the collection
// directly: ten thousand creates would cost every test run seconds.
func TestSkillsPerLocationLimit(t *testing.T) {
	s := open(t, Options{})
	// Ids in name order ("seed-aaaa", "seed-aaab", ...), so that each put
	// appends to the collection's order.
	letters := func(i int) string {
		b := []byte("aaaa")
		for k := 3; k >= 0; k, i = k-1, i/26 {
			b[k] = byte('a' + i%26)
		}
		return string(b)
	}
	s.mu.Lock()
	for i := range MaxSkillsPerParent - 1 {
		name := parent + "/skills/seed-" + letters(i)
		s.skills.skills.put(name, &resource.Skill{Name: name, Type: "SIMPLE", TargetState: "TARGET_STATE_ACTIVE", State: "STATE_ACTIVE"})
	}
	s.mu.Unlock()
	if _, err := s.CreateSkill("", parent, "the-last-one", activeSkill()); err != nil {
		t.Fatalf("skill %d of %d: %v", MaxSkillsPerParent, MaxSkillsPerParent, err)
	}
	_, err := s.CreateSkill("", parent, "one-too-many", activeSkill())
	wantCode(t, err, ResourceExhausted)
	if _, err := s.CreateSkill("", "projects/p1/locations/elsewhere", "one-too-many", activeSkill()); err != nil {
		t.Fatalf("another location: %v", err)
	}
}

// An upload's archive is decoded, unpacked and parsed before the state's
// lock is taken, so a slow upload never holds up another call. The test
// holds the write lock, as a long write would: an upload whose SKILL.md is
// invalid is still refused, which needs no lock. (createRevision did all of
// that under the write lock once: a 2 MB upload blocked reads for 4.5-6.2
// s, and this answer waited for the lock.)
func TestUploadCheckedOutsideTheLock(t *testing.T) {
	s := open(t, Options{})
	view(t)(s.CreateSkill("", parent, "pdf-tools", activeSkill()))
	archive, err := skillpkg.Zip(map[string][]byte{"SKILL.md": []byte("---\nname: Not Valid\n---\n")})
	if err != nil {
		t.Fatal(err)
	}
	rev := func() *resource.SkillRevision {
		return &resource.SkillRevision{ArchiveUploadSource: &resource.ArchiveUploadSource{ArchiveContent: base64.StdEncoding.EncodeToString(archive)}}
	}
	for what, upload := range map[string]func() error{
		"a revision": func() error { _, err := s.CreateRevision("", parent+"/skills/pdf-tools", "", rev()); return err },
		"a skill with its first revision": func() error {
			sk := activeSkill()
			sk.InitialRevision = rev()
			_, err := s.CreateSkill("", parent, "other-skill", sk)
			return err
		},
	} {
		s.mu.Lock()
		done := make(chan error, 1)
		go func() { done <- upload() }()
		select {
		case err := <-done:
			wantCode(t, err, InvalidArgument)
			if !slices.Contains(fields(err), "frontmatter.name") {
				t.Errorf("%s: %v, want frontmatter.name named", what, err)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("%s: the invalid upload was not refused while another call held the lock", what)
		}
		s.mu.Unlock()
	}
}

// nextRevisionID continues the highest rev-N or r<N> (the ids of earlier
// versions of the server); numbers over maxRevisionNumber are not counted,
// and when maxRevisionNumber itself is taken the smallest free number is.
func TestNextRevisionID(t *testing.T) {
	const skill = "projects/p1/locations/global/skills/pdf-tools"
	for _, c := range []struct {
		ids  []string
		want string
	}{
		{nil, "rev-1"},
		{[]string{"r1", "r2"}, "rev-3"},
		{[]string{"rev-7", "r3", "custom-id"}, "rev-8"},
		{[]string{"rev-07"}, "rev-8"},
		{[]string{"rev-1", "rev-1000000000000001", "r99999999999999999999"}, "rev-2"},
		{[]string{"rev-999999999999999"}, "rev-1000000000000000"},
		{[]string{"rev-1000000000000000", "rev-1", "r2"}, "rev-3"},
		{[]string{"rev-999999999999999", "rev-1000000000000000"}, "rev-1"},
		{[]string{"rev-x", "rev-", "r", "rev--1", "rev-+1"}, "rev-1"},
	} {
		s := open(t, Options{})
		for _, id := range c.ids {
			s.skills.revisions.put(skill+"/revisions/"+id, &resource.SkillRevision{})
		}
		got := s.nextRevisionID(skill)
		if got != c.want {
			t.Errorf("after %v: %s, want %s", c.ids, got, c.want)
		}
		if err := newRevisionRule.Check(got); err != nil {
			t.Errorf("the automatic id %s breaks the id rule: %v", got, err)
		}
	}
}

// skillUpload is the upload of a skill folder whose SKILL.md is md.
func skillUpload(t *testing.T, md string) *resource.SkillRevision {
	t.Helper()
	z, err := skillpkg.Zip(map[string][]byte{"SKILL.md": []byte(md), "scripts/a.sh": []byte("echo\n")})
	if err != nil {
		t.Fatal(err)
	}
	return &resource.SkillRevision{ArchiveUploadSource: &resource.ArchiveUploadSource{ArchiveContent: base64.StdEncoding.EncodeToString(z)}}
}

// A skill's id, type, target state, lengths, scanning policy and publisher
// are checked, and so is its first revision's archive and SKILL.md; what a
// create stores is a URN for an id, a uid, the state of its target, the
// first revision as the default with its front matter.
func TestSkillChecks(t *testing.T) {
	s := open(t, Options{})
	for _, id := range []string{"ab", "has9digit", strings.Repeat("a", 65), ""} {
		if _, err := s.CreateSkill("", parent, id, activeSkill()); violationsOf(t, err)["skill_id"] == "" {
			t.Errorf("id %q: %v", id, err)
		}
	}
	_, err := s.CreateSkill("", parent, "good-id", &resource.Skill{Type: "COMPOSITE", DisplayName: strings.Repeat("x", 129),
		ScanningConfig: &resource.ScanningConfig{Policy: "SOMETIMES"}, Publisher: "acme"})
	if v := violationsOf(t, err); v["type"] == "" || v["target_state"] == "" || v["display_name"] == "" || v["scanning_config.policy"] == "" || v["publisher"] == "" {
		t.Errorf("violations %v", v)
	}
	for i, c := range []struct {
		displayName, description, violation string
	}{
		{displayName: strings.Repeat("é", 128)},
		{displayName: strings.Repeat("é", 129), violation: "display_name"},
		{description: strings.Repeat("é", 2048)},
		{description: strings.Repeat("é", 2049), violation: "description"},
	} {
		sk := activeSkill()
		sk.DisplayName, sk.Description = c.displayName, c.description
		_, err := s.CreateSkill("", parent, "limit-"+string(rune('a'+i)), sk)
		if c.violation == "" && err != nil || c.violation != "" && len(violationsOf(t, err)) != 1 {
			t.Errorf("case %d: %v, want %q named", i, err, c.violation)
		}
	}
	bad := activeSkill()
	bad.InitialRevision = skillUpload(t, "---\nname: Bad--Name\ndescription: \n---\n")
	_, err = s.CreateSkill("", parent, "good-id", bad)
	if v := violationsOf(t, err); !strings.Contains(v["frontmatter.name"], "SKILL.md:2") || !strings.Contains(v["frontmatter.description"], "SKILL.md:3") {
		t.Errorf("violations %v", v)
	}
	for what, rev := range map[string]*resource.SkillRevision{
		"no archive":     {},
		"empty archive":  {ArchiveUploadSource: &resource.ArchiveUploadSource{}},
		"not base64":     {ArchiveUploadSource: &resource.ArchiveUploadSource{ArchiveContent: "!!!"}},
		"not an archive": {ArchiveUploadSource: &resource.ArchiveUploadSource{ArchiveContent: base64.StdEncoding.EncodeToString([]byte("nope"))}},
	} {
		sk := activeSkill()
		sk.InitialRevision = rev
		if _, err := s.CreateSkill("", parent, "good-id", sk); violationsOf(t, err)["archive_upload_source.archive_content"] == "" {
			t.Errorf("%s: %v", what, err)
		}
	}
	sk := activeSkill()
	sk.InitialRevision = &resource.SkillRevision{GcsSource: &resource.GcsSource{Uri: "gs://b/o"}}
	_, err = s.CreateSkill("", parent, "good-id", sk)
	wantCode(t, err, Unimplemented, "Cloud Storage")
	sk = activeSkill()
	sk.InitialRevision = skillUpload(t, "---\nname: pdf-tools\ndescription: Fill PDF forms.\nlicense: MIT\nmetadata:\n  team: docs\n---\n")
	view(t)(s.CreateSkill("", parent, "pdf-tools", sk))
	got, err := s.Skill(parent + "/skills/pdf-tools")
	if err != nil || got.SkillId != "urn:skill:projects-p1:locations:global:pdf-tools" || got.Uid == "" || got.State != "STATE_ACTIVE" ||
		got.DefaultRevision != parent+"/skills/pdf-tools/revisions/rev-1" || got.Frontmatter == nil || got.Frontmatter.License != "MIT" || got.Frontmatter.Metadata["team"] != "docs" {
		t.Fatalf("created %+v %v", got, err)
	}
	rev, err := s.Revision(got.DefaultRevision)
	if err != nil || rev.State != "ACTIVE" || len(rev.Sha256Hash) != 64 || rev.SizeBytes == 0 || rev.ScanResult == nil || rev.ScanResult.ErrorMessage != notScanned {
		t.Fatalf("first revision %+v %v", rev, err)
	}
	_, err = s.CreateSkill("", parent, "pdf-tools", activeSkill())
	wantCode(t, err, AlreadyExists)
	var names []string
	for _, sk := range s.SkillsOf(parent) {
		names = append(names, LastSegment(sk.Name))
	}
	if strings.Join(names, " ") != "limit-a limit-c pdf-tools" {
		t.Errorf("the skills of the location, in name order: %v", names)
	}
}

// A skill's update follows the mask rule (without a mask, the fields the
// update carries); its state follows its target state; its default
// revision is one of its revisions, whose front matter it takes; only the
// skill's own fields can be updated.
func TestSkillUpdates(t *testing.T) {
	s := open(t, Options{})
	sk := activeSkill()
	sk.DisplayName, sk.Description = "Old", "old"
	sk.ScanningConfig = &resource.ScanningConfig{Policy: "ENABLED_BLOCKING"}
	sk.InitialRevision = revision(t, "Fill PDF forms.")
	view(t)(s.CreateSkill("", parent, "pdf-tools", sk))
	name := parent + "/skills/pdf-tools"
	view(t)(s.CreateRevision("", name, "", revision(t, "Second.")))
	update := func(in *resource.Skill, mask string) *resource.Skill {
		t.Helper()
		view(t)(s.UpdateSkill("", name, mask, in))
		got, err := s.Skill(name)
		if err != nil {
			t.Fatal(err)
		}
		return got
	}
	got := update(&resource.Skill{DisplayName: "New"}, "")
	if got.DisplayName != "New" || got.Description != "old" || got.State != "STATE_ACTIVE" || got.ScanningConfig.Policy != "ENABLED_BLOCKING" ||
		got.DefaultRevision != name+"/revisions/rev-2" || got.Frontmatter.Description != "Second." {
		t.Errorf("without a mask, the display name only: %+v", got)
	}
	got = update(&resource.Skill{Description: "new", TargetState: "TARGET_STATE_DEPRECATED", ScanningConfig: &resource.ScanningConfig{Policy: "DISABLED"}, DefaultRevision: name + "/revisions/rev-1"}, "")
	if got.Description != "new" || got.State != "STATE_DEPRECATED" || got.ScanningConfig.Policy != "DISABLED" || got.DefaultRevision != name+"/revisions/rev-1" || got.Frontmatter.Description != "Fill PDF forms." {
		t.Errorf("without a mask, every other field: %+v", got)
	}
	for _, other := range []string{name + "/revisions/none", parent + "/skills/other/revisions/rev-1"} {
		_, err := s.UpdateSkill("", name, "", &resource.Skill{DefaultRevision: other})
		if violationsOf(t, err)["default_revision"] == "" {
			t.Errorf("a default_revision %s: %v", other, err)
		}
	}
	if got = update(&resource.Skill{}, ""); got.DisplayName != "New" || got.State != "STATE_DEPRECATED" {
		t.Errorf("an empty update: %+v", got)
	}
	if got = update(&resource.Skill{Description: "newer", TargetState: "TARGET_STATE_ACTIVE"}, "description"); got.Description != "newer" || got.State != "STATE_DEPRECATED" {
		t.Errorf("with mask description: %+v", got)
	}
	if got = update(&resource.Skill{TargetState: "TARGET_STATE_DISABLED"}, "target_state,displayName"); got.State != "STATE_DISABLED" || got.DisplayName != "" {
		t.Errorf("with mask target_state,displayName: %+v", got)
	}
	_, err := s.UpdateSkill("", name, "type", &resource.Skill{Type: "COMPOSITE"})
	if v := violationsOf(t, err); !strings.Contains(v["update_mask"], "allowed: display_name") {
		t.Errorf("an update of the type: %v", v)
	}
	_, err = s.UpdateSkill("", name, "targetState", &resource.Skill{TargetState: "TARGET_STATE_GONE"})
	if violationsOf(t, err)["target_state"] == "" {
		t.Errorf("an unknown target state: %v", err)
	}
}

// A revision's create picks the next id, keeps at most maxRevisionsPerSkill
// and moves the skill's default; a revision id follows its rule; the
// default revision cannot be deleted, another can; a skill with revisions
// is deleted only with force, with its revisions.
func TestSkillRevisionsAndDeletes(t *testing.T) {
	s := open(t, Options{})
	view(t)(s.CreateSkill("", parent, "pdf-tools", activeSkill()))
	name := parent + "/skills/pdf-tools"
	for _, id := range []string{"ab", "Rev-9", "9rev", strings.Repeat("r", 64)} {
		if _, err := s.CreateRevision("", name, id, revision(t, "d")); violationsOf(t, err)["skill_revision_id"] == "" {
			t.Errorf("revision id %q: %v", id, err)
		}
	}
	for range maxRevisionsPerSkill {
		view(t)(s.CreateRevision("", name, "", revision(t, "d")))
	}
	_, err := s.CreateRevision("", name, "", revision(t, "d"))
	wantCode(t, err, ResourceExhausted, "revisions per skill")
	sk, _ := s.Skill(name)
	if sk.DefaultRevision != name+"/revisions/rev-100" {
		t.Errorf("the default after 100 revisions: %s", sk.DefaultRevision)
	}
	revs, next, err := s.ListRevisions(context.Background(), name, nil, 60)
	if err != nil || len(revs) != 60 || next == nil {
		t.Fatalf("a page of 60 revisions: %d %v %v", len(revs), next, err)
	}
	_, err = s.DeleteRevision("", sk.DefaultRevision)
	wantCode(t, err, FailedPrecondition, "the skill's default revision")
	// A skill with the most revisions is deleted with all of them.
	view(t)(s.CreateSkill("", parent, "full-skill", activeSkill()))
	for range maxRevisionsPerSkill {
		view(t)(s.CreateRevision("", parent+"/skills/full-skill", "", revision(t, "d")))
	}
	view(t)(s.DeleteSkill("", parent+"/skills/full-skill", true))
	if n := len(s.skills.revisions.order[parent+"/skills/full-skill"]); n != 0 {
		t.Errorf("%d revisions left of a skill deleted with %d", n, maxRevisionsPerSkill)
	}
	view(t)(s.DeleteRevision("", name+"/revisions/rev-1"))
	_, err = s.DeleteRevision("", name+"/revisions/rev-1")
	wantCode(t, err, NotFound, "Skill revision")
	_, err = s.DeleteSkill("", name, false)
	wantCode(t, err, FailedPrecondition, "has 99 revisions")
	view(t)(s.DeleteSkill("", name, true))
	if _, err := s.Revision(name + "/revisions/rev-2"); err == nil {
		t.Error("a revision of a deleted skill is still there")
	}
	view(t)(s.CreateSkill("", parent, "bare-skill", activeSkill()))
	view(t)(s.DeleteSkill("", parent+"/skills/bare-skill", false))
	_, err = s.DeleteSkill("", parent+"/skills/bare-skill", false)
	wantCode(t, err, NotFound, "Skill")
}

// A revision of a skill whose scanning is DISABLED says nothing more; under
// any other policy, or none, it says it was not scanned: a revision created
// on its own and a skill's initial revision alike.
func TestSkillRevisionScanResult(t *testing.T) {
	s := open(t, Options{})
	for _, c := range []struct{ id, policy, msg string }{
		{"no-config", "", notScanned}, {"disabled", "DISABLED", ""},
		{"blocking", "ENABLED_BLOCKING", notScanned}, {"nonblocking", "ENABLED_NONBLOCKING", notScanned},
	} {
		sk := activeSkill()
		if c.policy != "" {
			sk.ScanningConfig = &resource.ScanningConfig{Policy: c.policy}
		}
		withInitial := *sk
		withInitial.InitialRevision = revision(t, "d")
		view(t)(s.CreateSkill("", parent, c.id, sk))
		view(t)(s.CreateRevision("", parent+"/skills/"+c.id, "only", revision(t, "d")))
		view(t)(s.CreateSkill("", parent, c.id+"-initial", &withInitial))
		for _, name := range []string{parent + "/skills/" + c.id + "/revisions/only", parent + "/skills/" + c.id + "-initial/revisions/rev-1"} {
			rev, err := s.Revision(name)
			if err != nil || rev.ScanResult.ScanState != "DISABLED" || rev.ScanResult.ErrorMessage != c.msg {
				t.Errorf("policy %q, %s: %+v %v", c.policy, name, rev, err)
			}
		}
	}
}

// The upload slots are a semaphore of MaxUploads (4 by default): past it a
// create is UNAVAILABLE, to retry after a second; a slot given back is free.
func TestUploadSlots(t *testing.T) {
	for _, c := range []struct{ max, want int }{{0, 4}, {2, 2}} {
		s := open(t, Options{MaxUploads: c.max})
		var releases []func()
		for range c.want {
			release, err := s.UploadSlot()
			if err != nil {
				t.Fatalf("max %d: slot %d: %v", c.max, len(releases)+1, err)
			}
			releases = append(releases, release)
		}
		_, err := s.UploadSlot()
		var e *Error
		if !errors.As(err, &e) || e.Code != Unavailable || e.RetryAfter != time.Second || !strings.Contains(e.Message, strconv.Itoa(c.want)+" skill uploads") {
			t.Errorf("max %d: one slot more: %v", c.max, err)
		}
		releases[0]()
		if release, err := s.UploadSlot(); err != nil {
			t.Errorf("max %d: a slot given back: %v", c.max, err)
		} else {
			release()
		}
	}
}
