package registryserver

import (
	"context"
	"encoding/base64"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/skillpkg"
)

// TestSkillsPerLocationLimit: a location holds at most maxSkillsPerParent
// skills; the create that would pass it is RESOURCE_EXHAUSTED, and another
// location has its own count. All but the last skill below the limit are
// put in the collection directly: ten thousand creates would cost every test
// run seconds.
func TestSkillsPerLocationLimit(t *testing.T) {
	srv, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = srv.Close() })
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	ar, err := agentregistry.NewService(context.Background(), option.WithEndpoint(ts.URL+"/"), option.WithoutAuthentication())
	if err != nil {
		t.Fatal(err)
	}

	const parent = "projects/p1/locations/global"
	// Ids in name order ("seed-aaaa", "seed-aaab", ...), so that each put
	// appends to the collection's order.
	letters := func(i int) string {
		b := []byte("aaaa")
		for k := 3; k >= 0; k, i = k-1, i/26 {
			b[k] = byte('a' + i%26)
		}
		return string(b)
	}
	srv.mu.Lock()
	for i := range maxSkillsPerParent - 1 {
		name := parent + "/skills/seed-" + letters(i)
		srv.skills.skills.put(name, &resource.Skill{Name: name, Type: "SIMPLE", TargetState: "TARGET_STATE_ACTIVE", State: "STATE_ACTIVE"})
	}
	srv.mu.Unlock()

	create := func(parent, id string) error {
		_, err := ar.Projects.Locations.Skills.Create(parent, &agentregistry.Skill{Type: "SIMPLE", TargetState: "TARGET_STATE_ACTIVE"}).SkillId(id).Do()
		return err
	}
	if err := create(parent, "the-last-one"); err != nil {
		t.Fatalf("skill %d of %d: %v", maxSkillsPerParent, maxSkillsPerParent, err)
	}
	var ge *googleapi.Error
	if err := create(parent, "one-too-many"); !errors.As(err, &ge) || ge.Code != http.StatusTooManyRequests {
		t.Fatalf("skill %d: %v, want 429 RESOURCE_EXHAUSTED", maxSkillsPerParent+1, err)
	}
	if err := create("projects/p1/locations/elsewhere", "one-too-many"); err != nil {
		t.Fatalf("another location: %v", err)
	}
}

// TestSkillPageTokenOffsets: a skills page token carries the offset of the
// page it asks for and the hash of its query. Offset 0 (the first page) is
// a valid offset although the server never issues it (a page token follows
// a page of at least one); a negative one and a token of another query are
// refused.
func TestSkillPageTokenOffsets(t *testing.T) {
	qh := queryHash("skills", "projects/p1/locations/global", "KEYWORD", "pdf")
	for _, c := range []struct {
		token string
		want  int // -1: refused
	}{
		{"", 0},
		{encodeOffset(0, qh), 0},
		{encodeOffset(40, qh), 40},
		{encodeOffset(-1, qh), -1},
		{encodeOffset(maxSkillsPerParent, qh), maxSkillsPerParent},
		{encodeOffset(maxSkillsPerParent+1, qh), -1},
		{encodeOffset(0, qh+1), -1},
		{"not base64!", -1},
	} {
		got, err := decodeOffset(c.token, qh)
		if c.want < 0 {
			if err == nil {
				t.Errorf("token %q: offset %d, want refused", c.token, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("token %q: offset %d (%v), want %d", c.token, got, err, c.want)
		}
	}
}

// Item 2: an upload's archive is decoded, unpacked and parsed before the
// server's lock is taken, so a slow upload never holds up another request.
// The test holds the write lock, as a long write would: an upload whose
// SKILL.md is invalid is still answered, which needs no lock. On main
// createRevision did all of that under the write lock (a 2 MB upload
// blocked reads for 4.5-6.2 s), and this answer waited for the lock.
func TestUploadCheckedOutsideTheLock(t *testing.T) {
	srv, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	const parent = "projects/p1/locations/global"
	w := httptest.NewRecorder()
	srv.ServeHTTP(w, httptest.NewRequest("POST", "/v1/"+parent+"/skills?skillId=pdf-tools",
		strings.NewReader(`{"type":"SIMPLE","targetState":"TARGET_STATE_ACTIVE"}`)))
	if w.Code != http.StatusOK {
		t.Fatalf("create: %d %s", w.Code, w.Body)
	}
	archive, err := skillpkg.Zip(map[string][]byte{"SKILL.md": []byte("---\nname: Not Valid\n---\n")})
	if err != nil {
		t.Fatal(err)
	}
	rev := `{"archiveUploadSource":{"archiveContent":"` + base64.StdEncoding.EncodeToString(archive) + `"}}`
	for path, body := range map[string]string{
		"/v1/" + parent + "/skills/pdf-tools/revisions": rev,
		"/v1/" + parent + "/skills?skillId=other-skill": `{"type":"SIMPLE","targetState":"TARGET_STATE_ACTIVE","initialRevision":` + rev + `}`,
	} {
		srv.mu.Lock()
		done := make(chan *httptest.ResponseRecorder, 1)
		go func() {
			w := httptest.NewRecorder()
			srv.ServeHTTP(w, httptest.NewRequest("POST", path, strings.NewReader(body)))
			done <- w
		}()
		select {
		case w := <-done:
			if w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "frontmatter.name") {
				t.Errorf("%s: %d %s", path, w.Code, w.Body)
			}
		case <-time.After(10 * time.Second):
			t.Errorf("%s: the invalid upload was not answered while another request held the lock", path)
		}
		srv.mu.Unlock()
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
		srv, err := New(Options{})
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range c.ids {
			srv.skills.revisions.put(skill+"/revisions/"+id, &resource.SkillRevision{})
		}
		got := srv.nextRevisionID(skill)
		if got != c.want {
			t.Errorf("after %v: %s, want %s", c.ids, got, c.want)
		}
		if err := newRevisionRule.check(got); err != nil {
			t.Errorf("the automatic id %s breaks the id rule: %v", got, err)
		}
	}
}
