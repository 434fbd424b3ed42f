package registryserver

// skills:search. KEYWORD uses the grammar of agents:search (internal/searchquery)
// over the fields below, results in name order. SEMANTIC is not semantic: the
// bundled server has no embedding model, so it ranks lexically with Okapi
// BM25 (k1 = 1.2, b = 0.75) over the words of each skill's id, display name,
// description and default revision's front matter (name, description,
// compatibility, metadata values), best score first, ties by name; skills
// sharing no word with the query are left out. Clients get a stable, explainable
// order, and nothing claims an understanding of meaning the server lacks.

import (
	"encoding/base64"
	"encoding/json"
	"math"
	"net/http"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
)

var skillFields = searchquery.Skills

func skillDoc(sk *agentregistry.Skill) docFields {
	d := docFields{"skillId": {sk.SkillId}, "name": {sk.Name}, "displayName": {sk.DisplayName}, "description": {sk.Description}}
	if fm := sk.Frontmatter; fm != nil {
		d["frontmatter.name"], d["frontmatter.description"] = []string{fm.Name}, []string{fm.Description}
		d["frontmatter.license"], d["frontmatter.compatibility"] = []string{fm.License}, []string{fm.Compatibility}
		keys := make([]string, 0, len(fm.Metadata))
		for k := range fm.Metadata {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			d["frontmatter.metadata"] = append(d["frontmatter.metadata"], fm.Metadata[k])
		}
	}
	return d
}

// listSkills serves skills.list (filter in the same grammar) and skills:search.
func (s *Server) listSkills(w http.ResponseWriter, r *http.Request, parent string, search bool) {
	q := r.URL.Query()
	size, err := queryPageSize(r)
	if err != nil {
		s.writeError(w, err)
		return
	}
	query, mode := q.Get("filter"), "list"
	if search {
		query, mode = q.Get("searchString"), q.Get("searchType")
		if mode == "" || mode == "SEARCH_TYPE_UNSPECIFIED" {
			mode = "KEYWORD"
		}
		if mode != "KEYWORD" && mode != "SEMANTIC" {
			s.writeError(w, errViolations("search_type must be KEYWORD or SEMANTIC, got "+strconv.Quote(mode),
				[]fieldViolation{{"search_type", "KEYWORD or SEMANTIC"}}))
			return
		}
		if f := q.Get("filter"); f != "" {
			query = "(" + f + ") " + query // keyword filters narrow either search
		}
	}
	qh := queryHash("skills", parent, mode, query)
	offset, err := decodeOffset(q.Get("pageToken"), qh)
	if err != nil {
		s.writeError(w, err)
		return
	}
	var hits []*agentregistry.Skill
	if mode == "SEMANTIC" {
		hits, err = s.rankSkills(parent, q.Get("searchString"), q.Get("filter"))
	} else {
		hits, err = s.matchSkills(parent, query)
	}
	if err != nil {
		s.writeError(w, err)
		return
	}
	page := hits[min(offset, len(hits)):min(offset+size, len(hits))]
	next := ""
	if offset+size < len(hits) {
		next = encodeOffset(offset+size, qh)
	}
	if search {
		writeJSON(w, http.StatusOK, &agentregistry.SearchSkillsResponse{Skills: page, NextPageToken: next})
		return
	}
	writeJSON(w, http.StatusOK, &agentregistry.ListSkillsResponse{Skills: page, NextPageToken: next})
}

// skillsOf returns a snapshot of the skills of parent, in name order. The
// count is bounded by maxSkillsPerParent, so a scan is bounded too.
func (s *Server) skillsOf(parent string) []*agentregistry.Skill {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, sks := s.skills.skills.page(parent, "", maxSkillsPerParent)
	return sks
}

func queryError(field string, err error) error {
	return errViolations("invalid "+field+": "+err.Error(), []fieldViolation{{field, err.Error()}})
}

func (s *Server) matchSkills(parent, query string) ([]*agentregistry.Skill, error) {
	node, err := parseQuery(query, skillFields)
	if err != nil {
		return nil, queryError("search_string", err)
	}
	var out []*agentregistry.Skill
	for _, sk := range s.skillsOf(parent) {
		if matchDoc(node, skillFields, skillDoc(sk)) {
			out = append(out, sk)
		}
	}
	return out, nil
}

// rankSkills is the BM25 ranking described at the top of the file.
func (s *Server) rankSkills(parent, query, filter string) ([]*agentregistry.Skill, error) {
	if utf8.RuneCountInString(query) > searchquery.MaxLength {
		return nil, errViolations("search_string is too long", []fieldViolation{{"search_string", "at most " + strconv.Itoa(searchquery.MaxLength) + " characters"}})
	}
	cands, err := s.matchSkills(parent, filter)
	if err != nil {
		return nil, err
	}
	terms := uniqueWords(tokenize(query))
	if len(terms) == 0 {
		return cands, nil
	}
	docs := make([][]string, len(cands))
	df := map[string]int{}
	total := 0
	for i, sk := range cands {
		docs[i] = skillWords(sk)
		total += len(docs[i])
		for _, t := range uniqueWords(docs[i]) {
			df[t]++
		}
	}
	avg := float64(total) / float64(max(len(cands), 1))
	type scored struct {
		sk    *agentregistry.Skill
		score float64
	}
	var ranked []scored
	for i, sk := range cands {
		if sc := bm25(terms, docs[i], df, len(cands), avg); sc > 0 {
			ranked = append(ranked, scored{sk, sc})
		}
	}
	sort.SliceStable(ranked, func(i, j int) bool { return ranked[i].score > ranked[j].score })
	out := make([]*agentregistry.Skill, len(ranked))
	for i, r := range ranked {
		out[i] = r.sk
	}
	return out, nil
}

func skillWords(sk *agentregistry.Skill) []string {
	var words []string
	for f, vs := range skillDoc(sk) {
		if f == "name" || f == "frontmatter.license" {
			continue // the resource name repeats the id; a licence says nothing of the skill
		}
		for _, v := range vs {
			words = append(words, tokenize(v)...)
		}
	}
	return words
}

func bm25(terms, doc []string, df map[string]int, n int, avg float64) float64 {
	const k1, b = 1.2, 0.75
	tf := map[string]int{}
	for _, w := range doc {
		tf[w]++
	}
	score := 0.0
	for _, t := range terms {
		f := float64(tf[t])
		if f == 0 {
			continue
		}
		idf := math.Log(1 + (float64(n)-float64(df[t])+0.5)/(float64(df[t])+0.5))
		score += idf * f * (k1 + 1) / (f + k1*(1-b+b*float64(len(doc))/avg))
	}
	return score
}

func uniqueWords(ws []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, w := range ws {
		if !seen[w] {
			seen[w] = true
			out = append(out, w)
		}
	}
	return out
}

// Offset page tokens: a ranked result has no stable "after" key.
type offsetToken struct {
	Offset int    `json:"o"`
	Query  uint64 `json:"q"`
}

func encodeOffset(off int, qh uint64) string {
	b, _ := json.Marshal(offsetToken{off, qh})
	return base64.RawURLEncoding.EncodeToString(b)
}

func decodeOffset(tok string, qh uint64) (int, error) {
	if tok == "" {
		return 0, nil
	}
	var t offsetToken
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err == nil {
		err = json.Unmarshal(b, &t)
	}
	if err != nil || t.Offset < 0 {
		return 0, errInvalid("page_token %q is not a token this server issued", tok)
	}
	if t.Query != qh {
		return 0, errInvalid("page_token was issued for a different query or parent; the other parameters must be identical to those of the call that returned it")
	}
	return t.Offset, nil
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
