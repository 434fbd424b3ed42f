package registryserver

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"testing"

	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/googleapi"
	"google.golang.org/api/option"
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
		srv.skills.skills.put(name, &agentregistry.Skill{Name: name, Type: "SIMPLE", TargetState: "TARGET_STATE_ACTIVE", State: "STATE_ACTIVE"})
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
