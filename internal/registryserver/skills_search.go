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
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/url"
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

// listSkills serves skills.list and skills:search. Both take a snapshot of
// the parent's skills under the read lock and evaluate outside it, under
// the search deadline, so that no search holds up a write and a client that
// goes away stops the work.
func (s *Server) listSkills(w http.ResponseWriter, r *http.Request, parent string, search bool) {
	q := r.URL.Query()
	size, err := queryPageSize(r)
	if err != nil {
		s.writeError(w, err)
		return
	}
	query, mode, filter, order, err := skillQuery(q, search)
	if err != nil {
		s.writeError(w, err)
		return
	}
	qh := queryHash("skills", parent, mode, query, q.Get("filter"), q.Get("orderBy"))
	offset, err := decodeOffset(q.Get("pageToken"), qh)
	if err != nil {
		s.writeError(w, err)
		return
	}
	ctx, cancel := context.WithTimeout(r.Context(), s.searchTimeout())
	defer cancel()
	var hits []*agentregistry.Skill
	if mode == "SEMANTIC" {
		hits, err = rankSkills(ctx, s.skillsOf(parent), query, filter)
	} else {
		hits, err = matchSkills(ctx, s.skillsOf(parent), query, filter)
	}
	if errors.Is(err, context.DeadlineExceeded) || errors.Is(err, context.Canceled) {
		method := "skills list"
		if search {
			method = "skills search"
		}
		err = s.searchAborted(r, method, err)
	}
	if err != nil {
		s.writeError(w, err)
		return
	}
	if len(order) > 0 {
		hits = sortKeyed(hits, order, skillValues, func(sk *agentregistry.Skill) string { return sk.Name })
	}
	page, next := offsetPage(hits, offset, size)
	tok := ""
	if next > 0 {
		tok = encodeOffset(next, qh)
	}
	if search {
		writeJSON(w, http.StatusOK, &agentregistry.SearchSkillsResponse{Skills: page, NextPageToken: tok})
		return
	}
	writeJSON(w, http.StatusOK, &agentregistry.ListSkillsResponse{Skills: page, NextPageToken: tok})
}

// skillOrder are the fields skills.list orders by.
var skillOrder = []string{"name", "displayName", "description", "state", "targetState", "createTime", "updateTime"}

func skillValues(sk *agentregistry.Skill) sortValues {
	return sortValues{"name": sk.Name, "displayName": sk.DisplayName, "description": sk.Description, "state": sk.State,
		"targetState": sk.TargetState, "createTime": timeKey(sk.CreateTime), "updateTime": timeKey(sk.UpdateTime)}
}

// skillQuery parses the parameters of skills.list (search false) or
// skills:search: the search string and type ("list" for a list), the
// filter, and the order (lists only).
func skillQuery(q url.Values, search bool) (query, mode string, filter skillFilter, order ordering, err error) {
	mode = "list"
	if search {
		query, mode = q.Get("searchString"), q.Get("searchType")
		if mode == "" || mode == "SEARCH_TYPE_UNSPECIFIED" {
			mode = "KEYWORD"
		}
		if mode != "KEYWORD" && mode != "SEMANTIC" {
			return "", "", filter, nil, errViolations("search_type must be KEYWORD or SEMANTIC, got "+strconv.Quote(mode),
				[]fieldViolation{{"search_type", "KEYWORD or SEMANTIC"}})
		}
	}
	if filter, err = parseSkillFilter(q.Get("filter")); err != nil {
		return "", "", filter, nil, queryError("filter", err)
	}
	if !search {
		order, err = parseOrderBy(q.Get("orderBy"), skillOrder)
	}
	return query, mode, filter, order, err
}

// offsetPage returns the page of hits at offset and the offset of the next
// page (0 when this one is the last). An offset past the end (the results
// shrank since the token was issued) is an empty last page.
func offsetPage[T any](hits []T, offset, size int) ([]T, int) {
	if offset >= len(hits) {
		return nil, 0
	}
	end := offset + min(size, len(hits)-offset)
	if end == len(hits) {
		return hits[offset:end], 0
	}
	return hits[offset:end], end
}

// skillsOf returns a snapshot of the skills of parent, in name order. The
// count is bounded by maxSkillsPerParent, so a scan is bounded too; records
// are replaced, never changed in place, so the snapshot stays as it was.
func (s *Server) skillsOf(parent string) []*agentregistry.Skill {
	s.mu.RLock()
	defer s.mu.RUnlock()
	_, sks := s.skills.skills.page(parent, "", maxSkillsPerParent)
	return sks
}

func queryError(field string, err error) error {
	return errViolations("invalid "+field+": "+err.Error(), []fieldViolation{{field, err.Error()}})
}

// checkEvery is how many skills a scan evaluates between two looks at its
// context.
const checkEvery = 64

// matchSkills returns the skills that the KEYWORD query and the filter
// select, in name order.
func matchSkills(ctx context.Context, skills []*agentregistry.Skill, query string, filter skillFilter) ([]*agentregistry.Skill, error) {
	node, err := parseQuery(query, skillFields)
	if err != nil {
		return nil, queryError("search_string", err)
	}
	var out []*agentregistry.Skill
	for i, sk := range skills {
		if i%checkEvery == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if (filter == nil || filter(sk)) && matchDoc(node, skillFields, skillDoc(sk)) {
			out = append(out, sk)
		}
	}
	return out, nil
}

// ranked is a skill that holds a query term: its length in words and how
// often it holds each term. Only these counts are kept, never a skill's
// words, so a search holds a few integers per skill whatever their text.
type ranked struct {
	sk     *agentregistry.Skill
	length int
	tf     []int
	score  float64
}

// rankSkills is the BM25 ranking described at the top of the file, of the
// skills the filter selects.
func rankSkills(ctx context.Context, skills []*agentregistry.Skill, query string, filter skillFilter) ([]*agentregistry.Skill, error) {
	if utf8.RuneCountInString(query) > searchquery.MaxLength {
		return nil, errViolations("search_string is too long", []fieldViolation{{"search_string", "at most " + strconv.Itoa(searchquery.MaxLength) + " characters"}})
	}
	terms := uniqueWords(tokenize(query))
	if len(terms) > searchquery.MaxTerms {
		return nil, errViolations(fmt.Sprintf("search_string has %d different words; the limit is %d", len(terms), searchquery.MaxTerms),
			[]fieldViolation{{"search_string", "at most " + strconv.Itoa(searchquery.MaxTerms) + " different words"}})
	}
	if len(terms) == 0 { // every skill the filter selects, in name order
		return matchSkills(ctx, skills, "", filter)
	}
	index := make(map[string]int, len(terms))
	for i, t := range terms {
		index[t] = i
	}
	var hits []*ranked
	df := make([]int, len(terms))
	n, total := 0, 0
	for i, sk := range skills {
		if i%checkEvery == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if filter != nil && !filter(sk) {
			continue
		}
		c := &ranked{sk: sk}
		for _, w := range skillWords(sk) {
			c.length++
			if t, ok := index[w]; ok {
				if c.tf == nil {
					c.tf = make([]int, len(terms))
				}
				if c.tf[t]++; c.tf[t] == 1 {
					df[t]++
				}
			}
		}
		n, total = n+1, total+c.length
		if c.tf != nil {
			hits = append(hits, c)
		}
	}
	avg := float64(total) / float64(max(n, 1))
	for _, c := range hits {
		c.score = bm25(c.tf, c.length, df, n, avg)
	}
	sort.SliceStable(hits, func(i, j int) bool { return hits[i].score > hits[j].score })
	out := make([]*agentregistry.Skill, len(hits))
	for i, c := range hits {
		out[i] = c.sk
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

// bm25 scores a document of length words holding each query term tf[i]
// times, among n documents of average length avg, df[i] of which hold term i.
func bm25(tf []int, length int, df []int, n int, avg float64) float64 {
	const k1, b = 1.2, 0.75
	score := 0.0
	for t, c := range tf {
		if c == 0 {
			continue
		}
		f := float64(c)
		idf := math.Log(1 + (float64(n)-float64(df[t])+0.5)/(float64(df[t])+0.5))
		score += idf * f * (k1 + 1) / (f + k1*(1-b+b*float64(length)/avg))
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
	// No result holds more than maxSkillsPerParent skills, so no token this
	// server issued points further.
	if err != nil || t.Offset < 0 || t.Offset > maxSkillsPerParent {
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
