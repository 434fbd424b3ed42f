package registryserver

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"sort"
	"strings"
	"testing"
)

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
func indexSearch(t testing.TB, sn *snapshot, n queryNode) []string {
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
	r := rand.New(rand.NewPCG(1, 2))
	ix := newIndex(agentFields)
	docs := map[string]docFields{}
	for i := range 300 {
		d := randomDoc(r, i)
		name := d["name"][0]
		docs[name] = d
		ix = ix.put(name, d, nil)
	}
	for i := 0; i < 300; i += 3 {
		name := fmt.Sprintf("projects/p/locations/l/agents/agent-%d", i)
		delete(docs, name)
		ix = ix.remove(name)
	}
	for i := 1; i < 300; i += 7 {
		d := randomDoc(r, i)
		docs[d["name"][0]] = d
		ix = ix.put(d["name"][0], d, nil)
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
			if got := indexSearch(t, ix.snapshot(), n); !slices.Equal(got, want) {
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
		ix = ix.put(name, d, nil)
	}
	if ix.dead != 0 || ix.len() != len(docs) || len(ix.names) != len(docs) {
		t.Fatalf("rebuilt index: %d dead, %d live, %d ids; want 0, %d, %d", ix.dead, ix.len(), len(ix.names), len(docs), len(docs))
	}
	check("after the rebuild")
}

// TestSnapshotIsolation: a search sees the index as it was when the search
// started, whatever is written meanwhile, a rebuild included.
func TestSnapshotIsolation(t *testing.T) {
	ix := newIndex(agentFields)
	doc := func(name, desc string) docFields {
		return docFields{"name": {name}, "description": {desc}}
	}
	ix = ix.put("a", doc("a", "travel planner"), nil)
	ix = ix.put("b", doc("b", "invoice helper"), nil)
	sn := ix.snapshot()
	ix = ix.put("c", doc("c", "travel booking"), nil) // added
	ix = ix.put("a", doc("a", "expense report"), nil) // replaced
	ix = ix.remove("b")                               // removed
	for i := 0; i < 2*compactAfter; i++ {             // enough churn to rebuild
		ix = ix.put("d", doc("d", fmt.Sprint("travel ", i)), nil)
	}
	for q, want := range map[string]string{`"travel planner"`: "a", "travel": "a", "invoice": "b", "expense": "", "": "a b"} {
		n, _ := parseQuery(q, agentFields)
		if got := strings.Join(indexSearch(t, sn, n), " "); got != want {
			t.Errorf("snapshot, %q: got %q, want %q", q, got, want)
		}
	}
	for q, want := range map[string]string{"travel": "c d", "invoice": "", "expense": "a", `"travel booking"`: "c"} {
		n, _ := parseQuery(q, agentFields)
		if got := strings.Join(indexSearch(t, ix.snapshot(), n), " "); got != want {
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
	ix := newIndex(agentFields)
	docs := map[string]docFields{}
	for i := range 40 {
		d := randomDoc(r, i)
		docs[d["name"][0]] = d
		ix = ix.put(d["name"][0], d, nil)
	}
	f.Fuzz(func(t *testing.T, q string) {
		n, err := parseQuery(q, agentFields)
		if err != nil {
			if _, ok := err.(*QueryError); !ok {
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
		got := indexSearch(t, ix.snapshot(), n)
		if want := scan(docs, n); !slices.Equal(got, want) {
			t.Fatalf("%q: index %v scan %v", q, got, want)
		}
	})
}
