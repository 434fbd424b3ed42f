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
		{"and or not", `(("and" AND "or") AND "not")`},
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
