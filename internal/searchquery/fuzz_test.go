package searchquery

import (
	"errors"
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
