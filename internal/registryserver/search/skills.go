package search

// skills.list and skills:search. KEYWORD uses the grammar of agents:search
// (internal/searchquery) over the fields below, results in name order.
// SEMANTIC is not semantic: the bundled server has no embedding model, so it
// ranks lexically with Okapi BM25 (k1 = 1.2, b = 0.75) over the words of each
// skill's id, display name, description and default revision's front matter
// (name, description, compatibility, metadata values), best score first, ties
// by name; skills sharing no word with the query are left out. Clients get a
// stable, explainable order, and nothing claims an understanding of meaning
// the server lacks.

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strconv"
	"unicode/utf8"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
)

var skillFields = searchquery.Skills

func skillDoc(sk *resource.Skill) docFields {
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

// SkillOrder are the fields skills.list orders by.
var SkillOrder = []string{"name", "displayName", "description", "state", "targetState", "createTime", "updateTime"}

func skillValues(sk *resource.Skill) SortValues {
	return SortValues{"name": sk.Name, "displayName": sk.DisplayName, "description": sk.Description, "state": sk.State,
		"targetState": sk.TargetState, "createTime": TimeKey(sk.CreateTime), "updateTime": TimeKey(sk.UpdateTime)}
}

// Skills evaluates a skills.list or skills:search over skills (a parent's,
// in name order): mode SEMANTIC ranks them by query, KEYWORD (and a list,
// whose query is "") matches them in name order; filter (nil: none) selects
// among them, and order (skills.list only) sorts what is selected. A scan
// stopped by ctx returns ctx's error; a query the grammar refuses is a
// *FieldError on search_string.
func Skills(ctx context.Context, skills []*resource.Skill, mode, query string, filter SkillFilter, order Ordering) ([]*resource.Skill, error) {
	var hits []*resource.Skill
	var err error
	if mode == "SEMANTIC" {
		hits, err = rankSkills(ctx, skills, query, filter)
	} else {
		hits, err = matchSkills(ctx, skills, query, filter)
	}
	if err != nil {
		return nil, err
	}
	if len(order) > 0 {
		hits = sortKeyed(hits, order, skillValues, func(sk *resource.Skill) string { return sk.Name })
	}
	return hits, nil
}

// OffsetPage returns the page of hits at offset and the offset of the next
// page (0 when this one is the last). An offset past the end (the results
// shrank since the token was issued) is an empty last page.
func OffsetPage[T any](hits []T, offset, size int) ([]T, int) {
	if offset >= len(hits) {
		return nil, 0
	}
	end := offset + min(size, len(hits)-offset)
	if end == len(hits) {
		return hits[offset:end], 0
	}
	return hits[offset:end], end
}

// checkEvery is how many skills a scan evaluates between two looks at its
// context.
const checkEvery = 64

// matchSkills returns the skills that the KEYWORD query and the filter
// select, in name order.
func matchSkills(ctx context.Context, skills []*resource.Skill, query string, filter SkillFilter) ([]*resource.Skill, error) {
	node, err := parseQuery(query, skillFields)
	if err != nil {
		return nil, invalidField("search_string", err.Error())
	}
	var out []*resource.Skill
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
	sk     *resource.Skill
	length int
	tf     []int
	score  float64
}

// rankSkills is the BM25 ranking described at the top of the file, of the
// skills the filter selects.
func rankSkills(ctx context.Context, skills []*resource.Skill, query string, filter SkillFilter) ([]*resource.Skill, error) {
	terms, err := queryTerms(query)
	if err != nil {
		return nil, err
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
		c.count(skillWords(sk), index, df)
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
	out := make([]*resource.Skill, len(hits))
	for i, c := range hits {
		out[i] = c.sk
	}
	return out, nil
}

// queryTerms are the different words of a skill search, refused past the
// search grammar's bounds.
func queryTerms(query string) ([]string, error) {
	if utf8.RuneCountInString(query) > searchquery.MaxLength {
		return nil, &FieldError{Field: "search_string", Message: "search_string is too long", Description: "at most " + strconv.Itoa(searchquery.MaxLength) + " characters"}
	}
	terms := uniqueWords(tokenize(query))
	if len(terms) > searchquery.MaxTerms {
		return nil, &FieldError{Field: "search_string", Message: fmt.Sprintf("search_string has %d different words; the limit is %d", len(terms), searchquery.MaxTerms),
			Description: "at most " + strconv.Itoa(searchquery.MaxTerms) + " different words"}
	}
	return terms, nil
}

// count sets c's length to the number of words and, for each query term
// (its position in index), how often they hold it; df[t] counts the skills
// that hold term t. c.tf stays nil when the skill holds no term.
func (c *ranked) count(words []string, index map[string]int, df []int) {
	for _, w := range words {
		c.length++
		if t, ok := index[w]; ok {
			if c.tf == nil {
				c.tf = make([]int, len(df))
			}
			if c.tf[t]++; c.tf[t] == 1 {
				df[t]++
			}
		}
	}
}

func skillWords(sk *resource.Skill) []string {
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
