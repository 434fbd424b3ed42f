package registryserver_test

import (
	"encoding/json"
	"net/http"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
)

// TestSkillSearchPages: skills.list and skills:search (both types) page by
// offset; a page that takes the last skill has no next_page_token, also
// when the skills exactly fill it.
func TestSkillSearchPages(t *testing.T) {
	e := start(t, registryserver.Options{})
	for _, id := range []string{"alfa", "bravo", "charlie"} {
		e.createSkill(t, id, "shared words", nil)
	}
	s := e.ar.Projects.Locations.Skills
	for _, mode := range []string{"list", "KEYWORD", "SEMANTIC"} {
		// page returns the ids of one page and its token.
		page := func(size int64, token string) (string, string) {
			t.Helper()
			var ids []string
			var next string
			if mode == "list" {
				r, err := s.List(parent).Filter("state=ACTIVE").PageSize(size).PageToken(token).Do()
				if err != nil {
					t.Fatalf("%s: %v", mode, err)
				}
				for _, sk := range r.Skills {
					ids = append(ids, filepath.Base(sk.Name))
				}
				next = r.NextPageToken
			} else {
				r, err := s.Search(parent).SearchString("shared").SearchType(mode).PageSize(size).PageToken(token).Do()
				if err != nil {
					t.Fatalf("%s: %v", mode, err)
				}
				for _, sk := range r.Skills {
					ids = append(ids, filepath.Base(sk.Name))
				}
				next = r.NextPageToken
			}
			return strings.Join(ids, ","), next
		}
		if ids, next := page(3, ""); ids != "alfa,bravo,charlie" || next != "" {
			t.Errorf("%s, page_size 3 over 3 skills: %s, token %q; want all and no token", mode, ids, next)
		}
		ids, next := page(2, "")
		if ids != "alfa,bravo" || next == "" {
			t.Fatalf("%s, page_size 2: %s, token %q; want alfa,bravo and a token", mode, ids, next)
		}
		if ids, next = page(2, next); ids != "charlie" || next != "" {
			t.Errorf("%s, second page: %s, token %q; want charlie and no token", mode, ids, next)
		}
	}
}

// TestSkillSemanticQueryLength: a SEMANTIC search_string is bounded like a
// KEYWORD one, at searchquery.MaxLength characters (two-byte ones here):
// one more is refused with a violation of search_string.
func TestSkillSemanticQueryLength(t *testing.T) {
	e := start(t, registryserver.Options{})
	e.createSkill(t, "alfa", "words", nil)
	search := e.ar.Projects.Locations.Skills.Search(parent).SearchType("SEMANTIC")
	if _, err := search.SearchString(strings.Repeat("é", searchquery.MaxLength)).Do(); err != nil {
		t.Errorf("%d characters: %v", searchquery.MaxLength, err)
	}
	_, err := search.SearchString(strings.Repeat("é", searchquery.MaxLength+1)).Do()
	if v := violations(t, asAPIErr(t, err, 400, "INVALID_ARGUMENT")); v["search_string"] == "" {
		t.Errorf("%d characters: violations %v", searchquery.MaxLength+1, v)
	}
	// The number of different words is bounded as a KEYWORD query's terms
	// are: at the limit it is answered, one more is refused by name.
	words := func(n int) string {
		w := make([]string, n)
		for i := range w {
			w[i] = "w" + strconv.Itoa(i)
		}
		return strings.Join(w, " ")
	}
	if _, err := search.SearchString(words(searchquery.MaxTerms)).Do(); err != nil {
		t.Errorf("%d words: %v", searchquery.MaxTerms, err)
	}
	_, err = search.SearchString(words(searchquery.MaxTerms + 1)).Do()
	if v := violations(t, asAPIErr(t, err, 400, "INVALID_ARGUMENT")); !strings.Contains(v["search_string"], "different words") {
		t.Errorf("%d words: violations %v", searchquery.MaxTerms+1, v)
	}
}

// TestSkillSemanticRanking: a SEMANTIC search answers in the search
// package's rank order (its BM25 cases are in search/skills_test.go), not
// in name order: here the short skill ranks above the long one with more
// hits, and a skill that shares no word is left out.
func TestSkillSemanticRanking(t *testing.T) {
	e := start(t, registryserver.Options{})
	e.createSkill(t, "alfa", "pdf pdf pdf"+strings.Repeat(" filler", 36), nil)
	e.createSkill(t, "bravo", "pdf", nil)
	e.createSkill(t, "charlie", "other", nil)
	r, err := e.ar.Projects.Locations.Skills.Search(parent).SearchString("pdf").SearchType("SEMANTIC").Do()
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, sk := range r.Skills {
		ids = append(ids, filepath.Base(sk.Name))
	}
	if got := strings.Join(ids, ","); got != "bravo,alfa" {
		t.Errorf("pdf: %s, want bravo,alfa", got)
	}
}

// skills.list orders by the fields it can and refuses others, as every
// other list does (orderBy was ignored once, even "bogus").
func TestSkillsListOrderBy(t *testing.T) {
	srv, err := registryserver.New(registryserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, sk := range []struct{ id, display string }{{"alpha", "Zed"}, {"beta", "Mid"}, {"gamma", "Ace"}} {
		body := `{"type":"SIMPLE","targetState":"TARGET_STATE_ACTIVE","displayName":"` + sk.display + `"}`
		if w := do(t, srv, "POST", "/v1/"+parent+"/skills?skillId="+sk.id, body); w.Code != http.StatusOK {
			t.Fatalf("create: %d %s", w.Code, w.Body)
		}
	}
	if w := do(t, srv, "GET", "/v1/"+parent+"/skills?orderBy=bogus", ""); w.Code != http.StatusBadRequest || !strings.Contains(w.Body.String(), "order_by") {
		t.Errorf("orderBy=bogus: %d %s, want 400 naming order_by", w.Code, w.Body)
	}
	for orderBy, want := range map[string]string{"displayName": "gamma beta alpha", "name desc": "gamma beta alpha", "display_name desc": "alpha beta gamma", "": "alpha beta gamma"} {
		var got []string
		tok := ""
		for {
			w := do(t, srv, "GET", "/v1/"+parent+"/skills?pageSize=2&orderBy="+strings.ReplaceAll(orderBy, " ", "%20")+"&pageToken="+tok, "")
			var resp struct {
				Skills        []struct{ Name string }
				NextPageToken string
			}
			if w.Code != http.StatusOK || json.Unmarshal(w.Body.Bytes(), &resp) != nil {
				t.Fatalf("orderBy=%q: %d %s", orderBy, w.Code, w.Body)
			}
			for _, sk := range resp.Skills {
				got = append(got, idOf(sk.Name))
			}
			if tok = resp.NextPageToken; tok == "" {
				break
			}
		}
		if strings.Join(got, " ") != want {
			t.Errorf("orderBy=%q: %v, want %s", orderBy, got, want)
		}
	}
}
