package search

import (
	"context"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
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

// newSkill is a skill of parent projects/p1/locations/global as the state
// holds it: its name, its id (a URN), its description.
func newSkill(id, desc string) *resource.Skill {
	return &resource.Skill{Name: "projects/p1/locations/global/skills/" + id, SkillId: "urn:skill:projects-p1:locations:global:" + id,
		Description: desc, State: "STATE_ACTIVE", TargetState: "TARGET_STATE_ACTIVE"}
}

// ids are the ids of skills, comma-separated, in their order.
func ids(skills []*resource.Skill) string {
	var out []string
	for _, sk := range skills {
		out = append(out, sk.Name[strings.LastIndexByte(sk.Name, '/')+1:])
	}
	return strings.Join(out, ",")
}

// SEMANTIC ranks by Okapi BM25 (k1 = 1.2, b = 0.75) over a skill's words (its id, display name,
// description and front matter, never its resource name or licence), best
// first, ties by name, leaving out the skills that share no word with the
// query; the scores are those worked out in each case.
func TestSkillsSemanticRanking(t *testing.T) {
	filler := strings.Repeat(" filler", 36)
	for _, c := range []struct {
		name   string
		skills [][2]string // id, description
		query  string
		want   string
	}{{
		// Equal scores (same words, same length): name order.
		name:   "ties by name",
		skills: [][2]string{{"alfa", "shared words"}, {"bravo", "shared words"}, {"charlie", "shared words"}},
		query:  "shared",
		want:   "alfa,bravo,charlie",
	}, {
		// idf = ln(1 + (n - df + 0.5)/(df + 0.5)) stays positive for a
		// word in every skill (here ln 1.2), so they are all found.
		name:   "a word every skill has",
		skills: [][2]string{{"alfa", "common"}, {"bravo", "common"}},
		query:  "common",
		want:   "alfa,bravo",
	}, {
		// idf(rare) = ln 4 = 1.386 and idf(common) = ln(4/3) = 0.288, all
		// skills 4 words long: alfa scores 1.386, bravo (common 3 times)
		// 0.288 * 6.6/4.2 = 0.452, the rest 0.288.
		name: "a rare word outweighs a common one repeated",
		skills: [][2]string{{"alfa", "rare filler filler"}, {"bravo", "common common common"},
			{"charlie", "common filler filler"}, {"delta", "common filler filler"}, {"echo", "common filler filler"}},
		query: "rare common",
		want:  "alfa,bravo,charlie,delta,echo",
	}, {
		// Length normalisation against the average length (21 words):
		// alfa says pdf 3 times in 40 words, 6.6/(3 + 1.2*(0.25 + 0.75*40/21))
		// = 1.316; bravo once in 2, 2.2/(1 + 1.2*(0.25 + 0.75*2/21)) = 1.588.
		name:   "a short skill above a long one with more hits",
		skills: [][2]string{{"alfa", "pdf pdf pdf" + filler}, {"bravo", "pdf"}},
		query:  "pdf",
		want:   "bravo,alfa",
	}, {
		// The same, but the long skill only a little above the average
		// (5 words): alfa, pdf 3 times in 8 words, 6.6/(3 + 1.2*(0.25 +
		// 0.75*8/5)) = 1.392; bravo, once in 2, 2.2/(1 + 1.2*(0.25 +
		// 0.75*2/5)) = 1.325.
		name:   "more hits above a shorter skill near the average length",
		skills: [][2]string{{"alfa", "pdf pdf pdf" + strings.Repeat(" filler", 4)}, {"bravo", "pdf"}},
		query:  "pdf",
		want:   "alfa,bravo",
	}, {
		// Words of similar frequency, all skills 5 words long: idf(rare, in
		// 2 of 5) = ln 2.4 = 0.875 and idf(common, in 3) = ln(12/7) =
		// 0.539; bravo, common 4 times, scores 0.539 * 8.8/5.2 = 0.912,
		// above alfa and charlie (rare once, 0.875).
		name: "a common word repeated outweighs a slightly rarer one",
		skills: [][2]string{{"alfa", "rare filler filler filler"}, {"bravo", "common common common common"},
			{"charlie", "rare filler filler filler"}, {"delta", "common filler filler filler"}, {"echo", "common filler filler filler"}},
		query: "rare common",
		want:  "bravo,alfa,charlie,delta,echo",
	}, {
		name:   "no shared word, no hit; the resource name and the licence are no words",
		skills: [][2]string{{"alfa", "pdf"}, {"bravo", "other"}},
		query:  "pdf skills apache",
		want:   "alfa",
	}, {
		name:   "a query of no words is every skill, by name",
		skills: [][2]string{{"bravo", "x"}, {"alfa", "y"}},
		query:  " ... ",
		want:   "bravo,alfa",
	}} {
		var skills []*resource.Skill
		for _, sk := range c.skills {
			s := newSkill(sk[0], sk[1])
			s.Frontmatter = &resource.Frontmatter{License: "Apache"}
			skills = append(skills, s)
		}
		got, err := Skills(context.Background(), skills, "SEMANTIC", c.query, nil, nil)
		if err != nil || ids(got) != c.want {
			t.Errorf("%s: %q ranks %s (%v), want %s", c.name, c.query, ids(got), err, c.want)
		}
	}
}

// A SEMANTIC search string is bounded as a KEYWORD one is: its length, and
// its different words (a word repeated counts once); past either it is a
// *FieldError on search_string.
func TestSkillsSemanticQueryBounds(t *testing.T) {
	skills := []*resource.Skill{newSkill("alfa", "w1 words")}
	words := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = "w" + strconv.Itoa(i)
		}
		return strings.Join(w, " ")
	}
	for query, bad := range map[string]string{
		strings.Repeat("é", searchquery.MaxLength):   "",
		strings.Repeat("é", searchquery.MaxLength+1): "search_string is too long",
		words(searchquery.MaxTerms):                  "",
		words(searchquery.MaxTerms) + " w1 w1 w2":    "",
		words(searchquery.MaxTerms + 1):              "search_string has 65 different words; the limit is 64",
	} {
		_, err := Skills(context.Background(), skills, "SEMANTIC", query, nil, nil)
		var fe *FieldError
		switch {
		case bad == "" && err != nil:
			t.Errorf("%.40q: %v", query, err)
		case bad != "" && (!errors.As(err, &fe) || fe.Field != "search_string" || fe.Message != bad):
			t.Errorf("%.40q: %v, want a field error on search_string: %s", query, err, bad)
		}
	}
}

// KEYWORD and a list match with the search grammar in name order; the
// filter narrows them, and a list's orderBy sorts what is kept; a query the
// grammar refuses is a *FieldError on search_string.
func TestSkillsKeywordAndList(t *testing.T) {
	skills := []*resource.Skill{newSkill("alfa", "pdf forms"), newSkill("bravo", "pdf merge"), newSkill("charlie", "csv")}
	skills[0].DisplayName, skills[1].DisplayName, skills[2].DisplayName = "Zed", "Ace", "Mid"
	skills[1].State = "STATE_DRAFT"
	active, err := ParseSkillFilter("state=ACTIVE")
	if err != nil {
		t.Fatal(err)
	}
	byDisplay, _ := ParseOrderBy("displayName", SkillOrder)
	for _, c := range []struct {
		mode, query string
		filter      SkillFilter
		order       Ordering
		want        string
	}{
		{"KEYWORD", "pdf", nil, nil, "alfa,bravo"},
		{"KEYWORD", "pdf", active, nil, "alfa"},
		{"KEYWORD", `skillId="urn:skill:projects-p1:locations:global:charlie"`, nil, nil, "charlie"},
		{"list", "", nil, nil, "alfa,bravo,charlie"},
		{"list", "", nil, byDisplay, "bravo,charlie,alfa"},
		{"list", "", active, byDisplay, "charlie,alfa"},
	} {
		got, err := Skills(context.Background(), skills, c.mode, c.query, c.filter, c.order)
		if err != nil || ids(got) != c.want {
			t.Errorf("%s %q (order %v): %s %v, want %s", c.mode, c.query, c.order, ids(got), err, c.want)
		}
	}
	_, err = Skills(context.Background(), skills, "KEYWORD", "(pdf", nil, nil)
	var fe *FieldError
	if !errors.As(err, &fe) || fe.Field != "search_string" || !strings.HasPrefix(fe.Message, "invalid search_string: position") {
		t.Errorf("a malformed query: %v", err)
	}
}

// A skill's search fields are its id, name, display name, description and
// front matter, the metadata values in the order of their keys.
func TestSkillDocFields(t *testing.T) {
	sk := newSkill("alfa", "d")
	sk.Frontmatter = &resource.Frontmatter{Name: "n", Description: "fd", License: "l", Compatibility: "c", Metadata: map[string]string{"z": "last", "a": "first", "m": "middle"}}
	d := skillDoc(sk)
	if got := d["frontmatter.metadata"]; !slices.Equal(got, []string{"first", "middle", "last"}) {
		t.Errorf("metadata values %v, want them in the order of their keys", got)
	}
	for f, want := range map[string]string{"skillId": sk.SkillId, "name": sk.Name, "description": "d", "frontmatter.name": "n",
		"frontmatter.description": "fd", "frontmatter.license": "l", "frontmatter.compatibility": "c"} {
		if got := d[f]; len(got) != 1 || got[0] != want {
			t.Errorf("%s = %v, want %s", f, got, want)
		}
	}
	if d := skillDoc(newSkill("bravo", "d")); d["frontmatter.name"] != nil {
		t.Errorf("a skill without front matter has front matter fields: %v", d)
	}
}

// A skills scan looks at its context before its first skill: a search
// whose context is done already evaluates nothing, however few the skills.
func TestSkillScansLookAtTheirContextFirst(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	skills := []*resource.Skill{newSkill("alfa", "word")}
	for _, mode := range []string{"KEYWORD", "SEMANTIC", "list"} {
		if got, err := Skills(ctx, skills, mode, "word", nil, nil); !errors.Is(err, context.Canceled) || got != nil {
			t.Errorf("%s: %v %v, want context.Canceled and nothing", mode, ids(got), err)
		}
	}
}
