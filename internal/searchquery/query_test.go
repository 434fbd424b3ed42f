package searchquery

import (
	"slices"
	"strings"
	"testing"
)

func TestParseQuery(t *testing.T) {
	cases := []struct{ in, want string }{
		{"", "<nil>"},
		{"   ", "<nil>"},
		{"travel", `"travel"`},
		{"travel booking", `("travel" AND "booking")`},
		{"a AND b OR c", `(("a" AND "b") OR "c")`},
		{"a OR b c", `("a" OR ("b" AND "c"))`},
		{"NOT a b", `(NOT "a" AND "b")`},
		{"NOT NOT a", `NOT NOT "a"`},
		{"(a OR b) AND c", `(("a" OR "b") AND "c")`},
		{"skills.tags:test", `skills.tags:"test"`},
		{"SKILLS.TAGS:test", `skills.tags:"test"`},
		{"display_name = \"My Agent\"", `displayName="My Agent"`},
		{`agentId="urn:agent:p:1"`, `agentId="urn:agent:p:1"`},
		{`agentId=urn:agent:p:1`, `agentId="urn:agent:p:1"`},
		{"displayName:works*", `displayName:"works"*`},
		{`"multi word"`, `"multi word"`},
		{`"multi wo"*`, `"multi wo"*`},
		{`"multi wo*"`, `"multi wo"*`},
		{`"say \"hi\""`, `"say \"hi\""`},
		{"and or not", `("and" AND "or" AND "not")`},
		{"a AND (b AND c)", `("a" AND ("b" AND "c"))`},
		{"a OR b OR c d", `("a" OR "b" OR ("c" AND "d"))`},
		{"ANDROID", `"ANDROID"`},
		{"(a)", `"a"`},
		{"a(b)", `("a" AND "b")`},
	}
	for _, c := range cases {
		n, err := parseQuery(c.in, Agents)
		if err != nil {
			t.Errorf("%q: %v", c.in, err)
			continue
		}
		got := "<nil>"
		if n != nil {
			got = n.String()
		}
		if got != c.want {
			t.Errorf("%q: got %s, want %s", c.in, got, c.want)
		}
	}
}

func TestParseQueryErrors(t *testing.T) {
	cases := []struct {
		in  string
		pos int
		msg string
	}{
		{"a AND", 6, "expected a search term, found the end of the query"},
		{"a OR", 5, "expected a search term"},
		{"OR a", 1, "found the operator"},
		{"(a", 1, "\"(\" is not closed"},
		{"()", 2, "inside the parentheses"},
		{"a)", 2, "unexpected \")\""},
		{"colour:red", 1, "unknown field \"colour\""},
		{"skills.tags:", 13, "expected a value after skills.tags:"},
		{"skills.tags: )", 14, "expected a value"},
		{`"open`, 1, "not closed"},
		{"ab*c", 3, "only allowed at the end"},
		{"*", 1, "lone *"},
		{"---", 1, "no letters or digits"},
		{":x", 1, "expected a field name"},
		{"agentId=", 9, "expected a value"},
		{`"a"b`, 4, "expected a space"},
		{"NOT", 4, "expected a search term"},
		{`agentId=""`, 9, "expected a non-empty value after \"=\""},
	}
	for _, c := range cases {
		_, err := parseQuery(c.in, Agents)
		qe, ok := err.(*Error)
		if !ok {
			t.Errorf("%q: want an *Error, got %v", c.in, err)
			continue
		}
		if qe.Pos != c.pos || !strings.Contains(qe.Msg, c.msg) {
			t.Errorf("%q: got position %d %q, want position %d containing %q", c.in, qe.Pos, qe.Msg, c.pos, c.msg)
		}
	}
}

func TestTokenize(t *testing.T) {
	got := Tokenize("Plan-a TRIP: día 2, urn:agent:x")
	want := []string{"plan", "a", "trip", "día", "2", "urn", "agent", "x"}
	if !slices.Equal(got, want) {
		t.Fatalf("got %v", got)
	}
}

// TestMatch covers the reference semantics on a document given as Fields.
func TestMatch(t *testing.T) {
	doc := Fields{
		"agentId":     {"travel-agent"},
		"name":        {"projects/p/locations/l/agents/travel-agent"},
		"displayName": {"Travel Planner"},
		"description": {"Plans trips end to end."},
		"skills.id":   {"book-flight", "exchange"},
		"skills.name": {"Book a flight", "Travel money"},
		"skills.tags": {"travel", "flights", "fx"},
	}
	for q, want := range map[string]bool{
		"":                               true,
		"travel":                         true,
		"TRAVEL":                         true,
		"submarine":                      false,
		"skills.name:\"book a flight\"":  true,
		"skills.name:\"flight book\"":    false,
		"skills.name:\"book a fl\"*":     true,
		"skills.tags=FX":                 true,
		"skills.tags=f":                  false,
		"skills.tags=f*":                 true,
		"skills:exchange":                true,
		"displayName:plan*":              true,
		"displayName=\"travel planner\"": true,
		"displayName=travel":             false,
		"fx AND NOT weather":             true,
		"fx AND NOT travel":              false,
		"(weather OR flights) trips":     true,
		"agentId=travel-agent OR x":      true,
	} {
		parsed, err := Parse(q, Agents)
		if err != nil {
			t.Errorf("Parse(%q): %v", q, err)
			continue
		}
		if got := parsed.Match(doc); got != want {
			t.Errorf("%q on the document: got %v, want %v", q, got, want)
		}
	}
}

// TestQueryLimits: a query at each limit parses; one past it is an *Error
// that names the limit, found without reading the rest of a huge query.
func TestQueryLimits(t *testing.T) {
	nested := func(n int, opening, closing string) string {
		return strings.Repeat(opening, n) + "a" + strings.Repeat(closing, n)
	}
	terms := func(n int) string { return strings.TrimSpace(strings.Repeat("a OR ", n-1) + "a") }
	// groups nests n times an AND inside an OR: "((c z OR x) z OR x)", which
	// the canonical form writes "((((c AND z) OR x) AND z) OR x)".
	groups := func(n int) string {
		q := "c"
		for range n {
			q = "(" + q + " z OR x)"
		}
		return q
	}
	ok := []string{
		nested(MaxDepth, "(", ")"),
		nested(MaxDepth, "NOT ", ""),
		nested(MaxDepth/2, "NOT (", ")"),
		terms(MaxTerms),
		strings.Repeat("a", MaxLength-2), // "aaa...": the canonical form is at the limit
		strings.Repeat("é", MaxLength-2), // characters, not bytes
		groups(16),                       // 16 levels as written, 32 written out
	}
	for _, q := range ok {
		if _, err := Parse(q, Agents); err != nil {
			t.Errorf("%.40q... (%d chars): %v", q, len(q), err)
		}
	}
	bad := []struct {
		q        string
		pos      int
		contains string
	}{
		{nested(MaxDepth+1, "(", ")"), MaxDepth + 1, "nest more than 32 deep"},
		{nested(MaxDepth+1, "NOT ", ""), 4*MaxDepth + 1, "nest more than 32 deep"},
		{nested(MaxDepth/2+1, "NOT (", ")"), 5*(MaxDepth/2) + 1, "the limit is 32 levels"},
		{terms(MaxTerms + 1), 5*MaxTerms + 1, "more than 64 search terms"},
		{"skills.tags:x " + terms(MaxTerms), 15 + 5*(MaxTerms-1), "the limit is 64 terms"},
		{strings.Repeat("a", MaxLength+1), MaxLength + 1, "4097 characters long; the limit is 4096"},
		// Within the limits as written, but not in the canonical form, which
		// the provider sends when it rewrites a query.
		{strings.Repeat("a", MaxLength), 1, "4098 characters long once written in its canonical form"},
		{groups(17), 1, "nest 34 levels deep once the query is written"},
		// Hostile queries: 1 MiB of "(", 8,000 OR'd phrases.
		{strings.Repeat("(", 1<<20), MaxLength + 1, "the limit is 4096 characters"},
		{strings.Repeat("(", MaxLength), MaxDepth + 1, "nest more than 32 deep"},
		{strings.TrimSuffix(strings.Repeat(`"alpha bravo" OR `, 200), " OR "), 17*MaxTerms + 1, "more than 64 search terms"},
	}
	for _, c := range bad {
		_, err := Parse(c.q, Agents)
		qe, isErr := err.(*Error)
		if !isErr || qe.Pos != c.pos || !strings.Contains(qe.Msg, c.contains) {
			t.Errorf("%.40q... (%d chars): got %v, want position %d and %q", c.q, len(c.q), err, c.pos, c.contains)
		}
	}
}
