package search

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
)

// agentFields are the fields of the agents' index.
var agentFields = searchquery.Agents

// randomCorpus builds documents from a small vocabulary so that queries hit.

var vocab = []string{"travel", "plan", "planner", "planning", "book", "booking", "hotel", "flight", "invoice", "billing", "test", "rome", "día"}

func randomDoc(r *rand.Rand, i int) docFields {
	words := func(n int) string {
		var w []string
		for range n {
			w = append(w, vocab[r.IntN(len(vocab))])
		}
		return strings.Join(w, " ")
	}
	d := docFields{
		"agentId":     {fmt.Sprintf("agent-%d", i)},
		"name":        {fmt.Sprintf("projects/p/locations/l/agents/agent-%d", i)},
		"displayName": {words(2)},
		"description": {words(5)},
	}
	for range r.IntN(4) {
		d["skills.id"] = append(d["skills.id"], vocab[r.IntN(len(vocab))]+"-id")
		d["skills.name"] = append(d["skills.name"], words(2))
		d["skills.description"] = append(d["skills.description"], words(4))
		d["skills.tags"] = append(d["skills.tags"], vocab[r.IntN(len(vocab))], vocab[r.IntN(len(vocab))])
		d["skills.examples"] = append(d["skills.examples"], words(3))
	}
	return d
}

func scan(docs map[string]docFields, n queryNode) []string {
	var out []string
	for name, d := range docs {
		if matchDoc(n, agentFields, d) {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

// indexSearch returns every name the index matches, in order.
func indexSearch(t testing.TB, sn *Snapshot, n queryNode) []string {
	ids, more, err := sn.search(context.Background(), n, "", 1<<30)
	if err != nil || more {
		t.Fatalf("search %v: %v (more %v)", n, err, more)
	}
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = sn.names[id]
	}
	return names
}

// TestIndexMatchesScan checks the index against the reference semantics,
// including after removals and replacements, and after the rebuild that
// enough of them trigger.
func TestIndexMatchesScan(t *testing.T) {
	t.Parallel() // overlaps with the other slow tests: every mutant of make mutation runs the package
	r := rand.New(rand.NewPCG(1, 2))
	ix := NewIndex(agentFields)
	docs := map[string]docFields{}
	for i := range 300 {
		d := randomDoc(r, i)
		name := d["name"][0]
		docs[name] = d
		ix = ix.Put(name, d, nil, nil)
	}
	for i := 0; i < 300; i += 3 {
		name := fmt.Sprintf("projects/p/locations/l/agents/agent-%d", i)
		delete(docs, name)
		ix = ix.Remove(name)
	}
	for i := 1; i < 300; i += 7 {
		d := randomDoc(r, i)
		docs[d["name"][0]] = d
		ix = ix.Put(d["name"][0], d, nil, nil)
	}
	queries := []string{
		"", "travel", "plan*", "pla*", "skills.tags:booking", "skills:hotel", "skills.tags=billing", "skills.tags=bill*",
		`"travel plan"`, `description:"book hotel"*`, "travel OR invoice", "travel AND NOT hotel", "NOT (rome OR test)",
		"agentId=agent-10", "agentId:agent-1*", "displayName:planner", `skills.examples:"día rome"`, "name:agents", "día",
		"(travel booking) OR (invoice NOT billing)", "skills.id=travel-id", "description=x*",
		// Phrases of three words and more, with repeats and a prefix last.
		`"travel plan book"`, `skills:"book hotel fl"*`, `"travel travel"`, `description:"rome rome rome"`,
		`"plan planner planning"*`, `skills.examples:"test día rome hotel"`, `"hotel flight invoice billing"*`,
	}
	for range 200 {
		queries = append(queries, randomQuery(r, 3))
	}
	check := func(stage string) {
		t.Helper()
		for _, q := range queries {
			n, err := parseQuery(q, agentFields)
			if err != nil {
				t.Fatalf("%q: %v", q, err)
			}
			want := scan(docs, n)
			if got := indexSearch(t, ix.Snapshot(), n); !slices.Equal(got, want) {
				t.Fatalf("%s, %q: index %d results, scan %d\nindex %v\nscan  %v", stage, q, len(got), len(want), got, want)
			}
		}
	}
	check("after removals and replacements")
	// Replace every document until dead versions outnumber live ones by
	// enough to rebuild the index.
	names := slices.Sorted(maps.Keys(docs))
	for i, before := 0, ix; ix == before; i++ {
		name := names[i%len(names)]
		d := randomDoc(r, i)
		d["name"] = []string{name}
		docs[name] = d
		ix = ix.Put(name, d, nil, nil)
	}
	if ix.dead != 0 || ix.len() != len(docs) || len(ix.names) != len(docs) {
		t.Fatalf("rebuilt index: %d dead, %d live, %d ids; want 0, %d, %d", ix.dead, ix.len(), len(ix.names), len(docs), len(docs))
	}
	check("after the rebuild")
}

// TestSnapshotIsolation: a search sees the index as it was when the search
// started, whatever is written meanwhile, a rebuild included.
func TestSnapshotIsolation(t *testing.T) {
	ix := NewIndex(agentFields)
	doc := func(name, desc string) docFields {
		return docFields{"name": {name}, "description": {desc}}
	}
	ix = ix.Put("a", doc("a", "travel planner"), nil, nil)
	ix = ix.Put("b", doc("b", "invoice helper"), nil, nil)
	sn := ix.Snapshot()
	ix = ix.Put("c", doc("c", "travel booking"), nil, nil) // added
	ix = ix.Put("a", doc("a", "expense report"), nil, nil) // replaced
	ix = ix.Remove("b")                                    // removed
	for i := 0; i < 2*compactAfter; i++ {                  // enough churn to rebuild
		ix = ix.Put("d", doc("d", fmt.Sprint("travel ", i)), nil, nil)
	}
	for q, want := range map[string]string{`"travel planner"`: "a", "travel": "a", "invoice": "b", "expense": "", "": "a b"} {
		n, _ := parseQuery(q, agentFields)
		if got := strings.Join(indexSearch(t, sn, n), " "); got != want {
			t.Errorf("snapshot, %q: got %q, want %q", q, got, want)
		}
	}
	for q, want := range map[string]string{"travel": "c d", "invoice": "", "expense": "a", `"travel booking"`: "c"} {
		n, _ := parseQuery(q, agentFields)
		if got := strings.Join(indexSearch(t, ix.Snapshot(), n), " "); got != want {
			t.Errorf("now, %q: got %q, want %q", q, got, want)
		}
	}
}

func randomQuery(r *rand.Rand, depth int) string {
	if depth == 0 || r.IntN(3) == 0 {
		w := vocab[r.IntN(len(vocab))]
		if r.IntN(3) == 0 {
			rw := []rune(w)
			w = string(rw[:1+r.IntN(len(rw)-1)]) + "*"
		}
		switch r.IntN(4) {
		case 0:
			fields := agentFields.Names()
			return fields[r.IntN(len(fields))] + ":" + w
		case 1:
			return "skills.tags=" + w
		}
		return w
	}
	switch r.IntN(4) {
	case 0:
		return "NOT " + randomQuery(r, depth-1)
	case 1:
		return "(" + randomQuery(r, depth-1) + " OR " + randomQuery(r, depth-1) + ")"
	case 2:
		return randomQuery(r, depth-1) + " AND " + randomQuery(r, depth-1)
	}
	return randomQuery(r, depth-1) + " " + randomQuery(r, depth-1)
}

// FuzzParseQuery: the parser never panics; a parsed query prints to a form

// that parses back to the same query; and the index agrees with the scan.

func FuzzIndexMatchesScan(f *testing.F) {
	for _, s := range []string{
		"", "travel", "a AND b OR NOT c", "(a OR b) c", `skills.tags:"x y"*`, "agentId=urn:a:b", "displayName:wo*",
		`"unterminated`, "((a)", "a)", "*", "NOT", `"a\"b"`, "skills.tags:", "día:x", "\xff", "a\u00a0b", "x=\"\"*",
	} {
		f.Add(s)
	}
	r := rand.New(rand.NewPCG(7, 8))
	ix := NewIndex(agentFields)
	docs := map[string]docFields{}
	for i := range 40 {
		d := randomDoc(r, i)
		docs[d["name"][0]] = d
		ix = ix.Put(d["name"][0], d, nil, nil)
	}
	f.Fuzz(func(t *testing.T, q string) {
		n, err := parseQuery(q, agentFields)
		if err != nil {
			if _, ok := err.(*queryError); !ok {
				t.Fatalf("%q: error of type %T", q, err)
			}
			return
		}
		if n == nil {
			return
		}
		n2, err := parseQuery(n.String(), agentFields)
		if err != nil || n2.String() != n.String() {
			t.Fatalf("%q: printed as %s, reparsed as %v (%v)", q, n, n2, err)
		}
		got := indexSearch(t, ix.Snapshot(), n)
		if want := scan(docs, n); !slices.Equal(got, want) {
			t.Fatalf("%q: index %v scan %v", q, got, want)
		}
	})
}

// TestTermTableMerge: a term new to a table waits in recent until recent
// holds more than max(256, len(sorted)/8) terms, and is then merged into
// sorted, which stays in order (prefix lookups binary-search it). The bound
// keeps the linear scan of recent in a prefix lookup short; the fraction
// keeps a writer from sorting the whole dictionary for every new term. The
// terms arrive out of order, so that a merge has to interleave them.
func TestTermTableMerge(t *testing.T) {
	const n = 3000
	tt := newTermTable()
	seen := map[string]bool{}
	sorted, recent := 0, 0 // what the lists should hold
	for i := range n {
		// Every document has a term seen before, which is never new again.
		terms := map[string][]uint32{fmt.Sprintf("t%04d", i*7%n): nil, "every": nil}
		for term := range terms {
			if !seen[term] {
				seen[term] = true
				recent++
			}
		}
		tt.add(uint32(i), terms)
		if recent > max(256, sorted/8) {
			sorted, recent = sorted+recent, 0
		}
		if len(tt.sorted) != sorted || len(tt.recent) != recent {
			t.Fatalf("after %d terms: %d sorted and %d recent, want %d and %d", len(seen), len(tt.sorted), len(tt.recent), sorted, recent)
		}
		if !slices.IsSortedFunc(tt.sorted, func(a, b *posting) int { return strings.Compare(a.term, b.term) }) {
			t.Fatalf("after %d terms: the sorted terms are out of order", len(seen))
		}
	}
	if recent == 0 || sorted/8 <= 256 {
		t.Fatalf("%d sorted and %d recent terms: the test no longer reaches the fraction with terms waiting", sorted, recent)
	}
	// Prefix lookups find the terms in both lists.
	for prefix, want := range map[string]int{"t": n, "t1": 1000, "t01": 100, "t2999": 1, "ev": 1} {
		got := 0
		tt.postings(prefix, true, func(*posting) { got++ })
		if got != want {
			t.Errorf("prefix %q: %d terms, want %d", prefix, got, want)
		}
	}
}

// TestIndexRebuild: a removal marks an id dead; the index is rebuilt, with
// dense ids and none dead, once the dead ids are at least compactAfter and
// outnumber the live ones, and not before. With 2*compactAfter-1 documents
// the dead reach compactAfter as they pass the live ones; with
// 2*compactAfter they equal the live ones there.
func TestIndexRebuild(t *testing.T) {
	name := func(i int) string { return fmt.Sprintf("projects/p/locations/l/agents/agent-%05d", i) }
	for _, n := range []int{2*compactAfter - 1, 2 * compactAfter} {
		ix := NewIndex(agentFields)
		for i := range n {
			ix = ix.Put(name(i), docFields{"name": {name(i)}}, nil, nil)
		}
		dead := 0
		for i := range n {
			before := ix
			ix = ix.Remove(name(i))
			dead++
			live := n - 1 - i
			rebuild := dead >= compactAfter && dead > live
			if rebuild {
				dead = 0
			}
			if (ix != before) != rebuild || ix.dead != dead || ix.len() != live || len(ix.names) != live+dead {
				t.Fatalf("%d documents, %d removed: rebuilt %v, %d dead, %d live, %d ids; want rebuilt %v, %d dead, %d live, %d ids",
					n, i+1, ix != before, ix.dead, ix.len(), len(ix.names), rebuild, dead, live, live+dead)
			}
		}
	}
}

// TestIndexRebuildByBytes: the index is also rebuilt once its dead versions
// weigh at least compactBytes and outweigh the live ones, and not before,
// whatever their count (one here).
func TestIndexRebuildByBytes(t *testing.T) {
	doc := func(ix *Index, name string, weight int) *Index { // weight: docBytes of the version
		return ix.Put(name, docFields{"name": {name}}, make([]byte, weight-len(name)), nil)
	}
	for _, tt := range []struct {
		dead, live int
		rebuild    bool
	}{
		{compactBytes, 10, true},
		{compactBytes - 1, 10, false},
		{compactBytes, compactBytes, false},
		{compactBytes + 1, compactBytes, true},
	} {
		ix := doc(doc(NewIndex(agentFields), "live", tt.live), "dead", tt.dead)
		before := ix
		if ix = ix.Remove("dead"); (ix != before) != tt.rebuild || ix.len() != 1 {
			t.Errorf("%d dead bytes beside %d live: rebuilt %v (%d live), want %v", tt.dead, tt.live, ix != before, ix.len(), tt.rebuild)
		}
	}
}

// TestPhraseGoesOnAfterAPoll: a phrase whose middle word is in ctxEvery
// documents polls its context while it extends the matches, and a poll that
// finds the context alive keeps them.
func TestPhraseGoesOnAfterAPoll(t *testing.T) {
	ix := NewIndex(agentFields)
	for i := range ctxEvery {
		name := fmt.Sprintf("agent-%05d", i)
		ix = ix.Put(name, docFields{"name": {name}, "description": {"first common last"}}, nil, nil)
	}
	n, _ := parseQuery(`"first common last"`, agentFields)
	if got, err := ix.Snapshot().eval(context.Background(), n); err != nil || len(members(got)) != ctxEvery {
		t.Errorf("%d documents (%v), want %d", len(members(got)), err, ctxEvery)
	}
}

// TestSnapshotCutsLaterDocuments: the first document written after a
// snapshot gets the id that is the snapshot's length, and the snapshot cuts it
// from every posting it reads: here that id starts a new word of the
// snapshot's bitsets (64 documents), and it is in the postings of both words
// of the phrase.
func TestSnapshotCutsLaterDocuments(t *testing.T) {
	ix := NewIndex(agentFields)
	for i := range 64 {
		name := fmt.Sprintf("agent-%02d", i)
		ix = ix.Put(name, docFields{"name": {name}, "description": {"travel planner"}}, nil, nil)
	}
	sn := ix.Snapshot()
	ix.Put("late", docFields{"name": {"late"}, "description": {"travel planner"}}, nil, nil)
	for _, q := range []string{"travel", "planner", `"travel planner"`} {
		n, _ := parseQuery(q, agentFields)
		if got := indexSearch(t, sn, n); len(got) != 64 || slices.Contains(got, "late") {
			t.Errorf("%s: the snapshot found %d documents (late among them: %v), want the 64 of its capture", q, len(got), slices.Contains(got, "late"))
		}
	}
}

// pollCounter is a context that is never done and counts how often a search
// asks it whether it is.
type pollCounter struct {
	context.Context
	polls int
}

func (c *pollCounter) Err() error { c.polls++; return c.Context.Err() }

// TestSearchPollsItsContext: a search asks its context whether to stop at
// every node of the query and once every ctxEvery posting entries it reads,
// which is often enough to stop soon and seldom enough to cost nothing; and a
// phrase whose first words never meet stops there, without reading the
// postings of the rest.
func TestSearchPollsItsContext(t *testing.T) {
	ix := NewIndex(agentFields)
	for i := range ctxEvery {
		name := fmt.Sprintf("agent-%05d", i)
		desc := "common almost" // almost is in ctxEvery-1 documents, common in ctxEvery
		if i == 0 {
			desc = "beta alpha common"
		}
		ix = ix.Put(name, docFields{"name": {name}, "description": {desc}}, nil, nil)
	}
	for _, c := range []struct {
		q     string
		polls int
	}{
		{"almost", 1}, // the node
		{"common", 2}, // the node, and ctxEvery entries
		// The node, and common's entries as the phrase's candidates. No
		// "alpha beta" is left after the second word, so common's postings
		// are not read again.
		{`"alpha beta common"`, 2},
		// The node, common's entries as the candidates, and common's
		// entries again as the phrase's second word: exactly ctxEvery of
		// them is a poll.
		{`"almost common"`, 3},
	} {
		ctx := &pollCounter{Context: context.Background()}
		n, _ := parseQuery(c.q, agentFields)
		if _, err := ix.Snapshot().eval(ctx, n); err != nil || ctx.polls != c.polls {
			t.Errorf("%s: %d polls (%v), want %d", c.q, ctx.polls, err, c.polls)
		}
	}
	// A poll that finds the context alive goes on with the search: the
	// results are whole however much work the search did.
	for q, want := range map[string]int{"almost": ctxEvery - 1, "common": ctxEvery, `"beta alpha common"`: 1, `"common almost"`: ctxEvery - 1} {
		n, _ := parseQuery(q, agentFields)
		if got, err := ix.Snapshot().eval(context.Background(), n); err != nil || len(members(got)) != want {
			t.Errorf("%s: %d documents (%v), want %d", q, len(members(got)), err, want)
		}
	}
}

// len is the number of live documents in the index.
func (ix *Index) len() int { return len(ix.ids) }

// pageNames pages through the records of sn that n matches, ordered by o,
// at size a page, and returns their names and each page's length.
func pageNames(t *testing.T, sn *Snapshot, n queryNode, o Ordering, size int) (names []string, pages []int) {
	t.Helper()
	var after *Position
	for range 100 {
		ids, next, err := sn.Page(context.Background(), n, o, after, size)
		if err != nil {
			t.Fatal(err)
		}
		for _, id := range ids {
			var rec struct{ Name string }
			if err := json.Unmarshal(sn.Record(id), &rec); err != nil {
				t.Fatalf("record %d: %s", id, sn.Record(id))
			}
			names = append(names, rec.Name)
		}
		pages = append(pages, len(ids))
		if next == nil {
			return names, pages
		}
		if next.Name != names[len(names)-1] {
			t.Errorf("a page ends at %s, its next position is %+v", names[len(names)-1], next)
		}
		after = next
	}
	t.Fatal("more than 100 pages")
	return nil, nil
}

// A snapshot's page is the records that match, after the position the
// last page ended at, by name or by an order; it holds at most
// MaxPageBytes of records (one at least), and the last page has no next
// position.
func TestSnapshotPage(t *testing.T) {
	ix := NewIndex(agentFields)
	for i, desc := range []string{"travel", "travel", "invoice", "travel", "travel"} {
		name := fmt.Sprintf("agent-%d", i)
		head := fmt.Sprintf(`{"name":%q,"pad":"`, name)
		rec := head + strings.Repeat("x", MaxPageBytes/4-len(head)-2) + `"}` // four fill a page exactly
		ix = ix.Put(name, docFields{"name": {name}, "description": {desc}}, []byte(rec), SortValues{"displayName": strconv.Itoa(9 - i)})
	}
	sn := ix.Snapshot()
	travel, _ := ParseQuery("travel", agentFields)
	if names, pages := pageNames(t, sn, travel, nil, 2); strings.Join(names, " ") != "agent-0 agent-1 agent-3 agent-4" || !slices.Equal(pages, []int{2, 2}) {
		t.Errorf("travel by name, 2 a page: %v in pages of %v", names, pages)
	}
	if names, pages := pageNames(t, sn, nil, nil, 100); len(names) != 5 || !slices.Equal(pages, []int{4, 1}) {
		t.Errorf("everything by name, 100 a page of records a quarter of the bound: %v in pages of %v", names, pages)
	}
	o, _ := ParseOrderBy("displayName", []string{"displayName"})
	if names, pages := pageNames(t, sn, travel, o, 3); strings.Join(names, " ") != "agent-4 agent-3 agent-1 agent-0" || !slices.Equal(pages, []int{3, 1}) {
		t.Errorf("travel by displayName, 3 a page: %v in pages of %v", names, pages)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	for _, o := range []Ordering{nil, o} {
		if _, _, err := sn.Page(ctx, travel, o, nil, 10); !errors.Is(err, context.Canceled) {
			t.Errorf("a page of a cancelled search (order %v): %v", o, err)
		}
	}
	if versions, deadBytes := ix.Held(); versions != 5 || deadBytes != 0 {
		t.Errorf("the index holds %d versions and %d dead bytes, want 5 and 0", versions, deadBytes)
	}
}

// A search keeps the smallest names of what matches, whatever the order of
// their ids: documents added in the reverse order of their names give the
// first names, and say that more follow.
func TestSnapshotSearchKeepsTheSmallestNames(t *testing.T) {
	ix := NewIndex(agentFields)
	for i := 9; i >= 0; i-- {
		name := fmt.Sprintf("agent-%d", i)
		ix = ix.Put(name, docFields{"name": {name}, "description": {"travel"}}, []byte(`{"name":"`+name+`"}`), nil)
	}
	travel, _ := ParseQuery("travel", agentFields)
	for _, c := range []struct {
		after string
		limit int
		want  string
		more  bool
	}{
		{"", 2, "agent-0 agent-1", true},
		{"agent-1", 3, "agent-2 agent-3 agent-4", true},
		{"agent-6", 3, "agent-7 agent-8 agent-9", false},
		{"", 10, "agent-0 agent-1 agent-2 agent-3 agent-4 agent-5 agent-6 agent-7 agent-8 agent-9", false},
	} {
		ids, more, err := ix.Snapshot().search(context.Background(), travel, c.after, c.limit)
		var names []string
		for _, id := range ids {
			names = append(names, ix.names[id])
		}
		if err != nil || strings.Join(names, " ") != c.want || more != c.more {
			t.Errorf("after %q, %d: %v (more %v, %v), want %s (more %v)", c.after, c.limit, names, more, err, c.want, c.more)
		}
	}
}
