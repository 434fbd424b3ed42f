package search

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
)

// OffsetPage: the page at an offset and the next offset, 0 on the last page;
// an offset at or past the end is an empty last page.
func TestOffsetPage(t *testing.T) {
	hits := []int{0, 1, 2, 3, 4}
	for _, c := range []struct {
		offset, size int
		want         []int
		next         int
	}{
		{0, 2, []int{0, 1}, 2},
		{2, 2, []int{2, 3}, 4},
		{4, 2, []int{4}, 0},
		{3, 2, []int{3, 4}, 0},
		{5, 2, nil, 0},
		{10000, 100, nil, 0}, // the most skills a location holds
		{0, 100, hits, 0},
	} {
		page, next := OffsetPage(hits, c.offset, c.size)
		if !slices.Equal(page, c.want) || next != c.next {
			t.Errorf("offset %d size %d: %v next %d, want %v next %d", c.offset, c.size, page, next, c.want, c.next)
		}
	}
}

// A skills scan looks at its context every checkEvery skills, not only when
// it starts: a search whose deadline passes in the middle of ten thousand
// skills stops there. The filter cancels the context at the 100th skill.
func TestSkillScansStopWhenCancelled(t *testing.T) {
	skills := make([]*resource.Skill, 1000)
	for i := range skills {
		skills[i] = &resource.Skill{Name: "projects/p1/locations/global/skills/s" + strconv.Itoa(i), Description: "word"}
	}
	scans := map[string]func(context.Context, SkillFilter) ([]*resource.Skill, error){
		"KEYWORD": func(ctx context.Context, f SkillFilter) ([]*resource.Skill, error) {
			return matchSkills(ctx, skills, "", f)
		},
		"SEMANTIC": func(ctx context.Context, f SkillFilter) ([]*resource.Skill, error) {
			return rankSkills(ctx, skills, "word", f)
		},
	}
	for name, scan := range scans {
		ctx, cancel := context.WithCancel(context.Background())
		calls := 0
		got, err := scan(ctx, func(*resource.Skill) bool {
			if calls++; calls == 100 {
				cancel()
			}
			return true
		})
		cancel()
		if !errors.Is(err, context.Canceled) || got != nil || calls > 100+checkEvery {
			t.Errorf("%s: %d skills, %v after %d filter calls; want context.Canceled within %d skills of the cancel", name, len(got), err, calls, checkEvery)
		}
	}
}

// rankSkills weighs a skill's length against the average length (BM25's
// length/avg): here alfa says pdf 3 times in 8 words and bravo once in 2,
// average 5, so alfa scores 0.254 and bravo 0.242. Length times the average
// would put bravo first (0.039 to 0.031).
func TestRankSkillsLengthAgainstTheAverage(t *testing.T) {
	skills := []*resource.Skill{
		{Name: "projects/p1/locations/global/skills/bravo", SkillId: "bravo", Description: "pdf"},
		{Name: "projects/p1/locations/global/skills/alfa", SkillId: "alfa", Description: "pdf pdf pdf filler filler filler filler"},
	}
	got, err := rankSkills(context.Background(), skills, "pdf", nil)
	if err != nil || len(got) != 2 || got[0].SkillId != "alfa" || got[1].SkillId != "bravo" {
		t.Fatalf("ranked %v (%v), want alfa then bravo", got, err)
	}
}
