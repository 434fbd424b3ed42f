package searchquery

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf8"
)

// FuzzParse: the provider's parser (run at plan time on user input) never
// panics; a malformed query is an *Error whose position lies within the
// query; a parsed query prints to a canonical form that parses back to
// itself; and matching never panics.
func FuzzParse(f *testing.F) {
	for _, s := range []string{
		"", "  ", "travel", "a AND b OR NOT c", "(a OR b) c", `skills.tags:"x y"*`, "agentId=urn:a:b",
		"displayName:wo*", `"unterminated`, "((a)", "a)", "*", "NOT", "AND", `"a\"b"`, "skills.tags:",
		"skills.tags=", "día:x", "\xff", "a\u00a0b", "x=\"\"*", "display_name:x", "SKILLS.TAGS=fx", "a\x00b",
		"tools.name:x", "colour:red", "NOT NOT a", "(((((a)))))", `a "b c" d*`,
	} {
		f.Add(s)
	}
	doc := Fields{
		"agentId": {"urn:agent:1"}, "name": {"projects/p/locations/l/agents/a"}, "displayName": {"Currency Agent"},
		"description": {"Converts currencies"}, "skills.id": {"convert"}, "skills.name": {"Convert"},
		"skills.description": {"Converts an amount"}, "skills.tags": {"fx", "currency"}, "skills.examples": {"100 USD in EUR?"},
		"mcpServerId": {"m"}, "tools.name": {"get_forecast"}, "tools.description": {"Gets a forecast"},
	}
	f.Fuzz(func(t *testing.T, q string) {
		for _, s := range []*Schema{Agents, McpServers} {
			parsed, err := Parse(q, s)
			if err != nil {
				var qe *Error
				if !errors.As(err, &qe) {
					t.Fatalf("%q: error of type %T: %v", q, err, err)
				}
				if qe.Pos < 1 || qe.Pos > utf8.RuneCountInString(q)+1 || qe.Msg == "" {
					t.Fatalf("%q: error position %d outside the query (or empty message): %v", q, qe.Pos, err)
				}
				continue
			}
			printed := parsed.String()
			again, err := Parse(printed, s)
			if err != nil || again.String() != printed {
				t.Fatalf("%q: printed as %q, which parses as %q (%v)", q, printed, again.String(), err)
			}
			_ = parsed.Match(doc)
			if parsed.Match(doc) != again.Match(doc) {
				t.Fatalf("%q: the printed form %q matches differently", q, printed)
			}
		}
	})
}

// FuzzParseLimits builds queries of fuzzed depth and size around a fuzzed
// term: whatever the input, parsing ends in an *Error or in a query within
// the limits (at most MaxTerms terms, NOT nested at most MaxDepth deep, at
// most MaxLength characters), and nesting deeper than MaxDepth or a query
// longer than MaxLength is always refused.
func FuzzParseLimits(f *testing.F) {
	f.Add("a", uint8(32), uint16(1), uint8(0))
	f.Add("a", uint8(33), uint16(1), uint8(0))
	f.Add(`"alpha bravo" OR`, uint8(0), uint16(8000), uint8(0))
	f.Add("t* OR", uint8(20), uint16(64), uint8(1))
	f.Add("x", uint8(17), uint16(2), uint8(2))
	f.Add("(", uint8(255), uint16(4096), uint8(0))
	opens := []struct{ open, close string }{{"(", ")"}, {"NOT ", ""}, {"NOT (", ")"}}
	f.Fuzz(func(t *testing.T, term string, depth uint8, repeat uint16, kind uint8) {
		o := opens[int(kind)%len(opens)]
		body := strings.Repeat(term+" ", int(repeat)%10000) + "a"
		q := strings.Repeat(o.open, int(depth)) + body + strings.Repeat(o.close, int(depth))
		nest := int(depth)
		if o.open == "NOT (" {
			nest *= 2
		}
		for _, s := range []*Schema{Agents, McpServers} {
			parsed, err := Parse(q, s)
			if err != nil {
				var qe *Error
				if !errors.As(err, &qe) || qe.Pos < 1 || qe.Pos > utf8.RuneCountInString(q)+1 {
					t.Fatalf("%.60q: %v", q, err)
				}
				continue
			}
			if n := utf8.RuneCountInString(q); n > MaxLength {
				t.Fatalf("a query of %d characters parsed", n)
			}
			if nest > MaxDepth {
				t.Fatalf("%.60q: nesting %d parsed", q, nest)
			}
			terms, nots := measure(parsed.Root)
			if terms > MaxTerms || nots > MaxDepth {
				t.Fatalf("%.60q parsed with %d terms and NOT nested %d deep", q, terms, nots)
			}
		}
	})
}

// measure returns the number of terms of a parsed query and how deep its NOTs nest.
func measure(n Node) (terms, nots int) {
	switch n := n.(type) {
	case *And:
		lt, ln := measure(n.L)
		rt, rn := measure(n.R)
		return lt + rt, max(ln, rn)
	case *Or:
		lt, ln := measure(n.L)
		rt, rn := measure(n.R)
		return lt + rt, max(ln, rn)
	case *Not:
		t, d := measure(n.X)
		return t, d + 1
	case *Term:
		return 1, 0
	}
	return 0, 0
}
