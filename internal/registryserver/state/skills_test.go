package state

// Skills and their revisions: the caps, the uploads checked outside the
// lock, and the numbering of revisions.

import (
	"encoding/base64"
	"slices"
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
