package searchquery

// Edges the mutation run (make mutation) found untested: what an error says
// it found, the depth counted for the canonical form, and nesting that ends
// (a NOT or a group closes its level).

import (
	"strings"
	"testing"
)

func TestErrorMessagesNameWhatWasFound(t *testing.T) {
	for _, tt := range []struct{ q, want string }{
		{"(a b", `position 1: "(" is not closed: expected ")", found the end of the query at position 5`},
		{"OR a", `position 1: expected a search term, found the operator "OR"`},
		{"name:)", `position 6: expected a value after name:, found ")"`},
		{`name:"x"a`, `position 9: expected a space, ")" or the end of the query after the value, found "a"`},
		{`name:"x"ab cd`, `position 9: expected a space, ")" or the end of the query after the value, found "ab"`},
		// At most 20 characters are quoted.
		{`name:"x"abcdefghijklmnopqrstuvwxyz0123`, `position 9: expected a space, ")" or the end of the query after the value, found "abcdefghijklmnopqrst"`},
		{`name:"x"` + strings.Repeat("b", 20), `position 9: expected a space, ")" or the end of the query after the value, found "` + strings.Repeat("b", 20) + `"`},
	} {
		_, err := Parse(tt.q, Agents)
		if err == nil || err.Error() != tt.want {
			t.Errorf("Parse(%q) = %v\nwant %s", tt.q, err, tt.want)
		}
	}
}

// maxParens is the deepest nesting of parentheses in s.
func maxParens(s string) int {
	d, m := 0, 0
	for _, c := range s {
		switch c {
		case '(':
			d++
			m = max(m, d)
		case ')':
			d--
		}
	}
	return m
}

func TestPrintedDepth(t *testing.T) {
	for _, tt := range []struct {
		q    string
		want int
	}{
		{"a", 0},
		{"a b", 1},
		{"a b c", 1},
		{"a (b OR c)", 2},
		{"(a OR b) c", 2},
		{"a OR (b c)", 2},
		{"(a b) OR c", 2},
		{"a OR b OR c", 1},
		{"a OR (b OR (c d))", 3},
		{"NOT a", 1},
		{"NOT (a OR b)", 2},
		{"NOT NOT (a OR (b c))", 4},
		{"a (NOT b)", 2},
		{"(NOT a) OR b", 2},
	} {
		q, err := Parse(tt.q, Agents)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tt.q, err)
		}
		got := printedDepth(q.Root)
		if got != tt.want {
			t.Errorf("printedDepth(%s) = %d, want %d", q, got, tt.want)
		}
		if s := q.String(); !strings.Contains(s, "NOT") && maxParens(s) != got {
			t.Errorf("printedDepth(%s) = %d, but it nests %d parentheses", s, got, maxParens(s))
		}
	}
}

// A NOT or a group gives its level back once it ends: many of them one after
// the other stay one level deep.
func TestNestingEndsWithTheGroup(t *testing.T) {
	for _, q := range []string{
		strings.TrimSuffix(strings.Repeat("NOT a AND ", MaxDepth+8), " AND "),
		strings.Repeat("(a) ", MaxDepth+8),
	} {
		if _, err := Parse(q, Agents); err != nil {
			t.Errorf("%.40q...: %v", q, err)
		}
	}
}

// In a quoted value only \" and \\ are escapes; a backslash before anything
// else, or last, is itself.
func TestQuotedValueEscapes(t *testing.T) {
	for _, tt := range []struct{ q, want string }{
		{`name:"x\\\\y"`, `x\\y`},
		{`name:"a\\"`, `a\`},
		{`name:"a\"b"`, `a"b`},
		{`name:"a\b"`, `a\b`},
		{`name:"x\\\"y"`, `x\"y`},
	} {
		q, err := Parse(tt.q, Agents)
		if err != nil {
			t.Errorf("Parse(%s): %v", tt.q, err)
			continue
		}
		if term, ok := q.Root.(*Term); !ok || term.Value != tt.want {
			t.Errorf("Parse(%s) = %#v, want the value %s", tt.q, q.Root, tt.want)
		}
	}
	for _, q := range []string{`name:"a\`, `name:"\`, `"a\`} {
		_, err := Parse(q, Agents)
		if err == nil || !strings.Contains(err.Error(), "the quoted value is not closed") {
			t.Errorf("Parse(%s) = %v, want the quoted value not closed", q, err)
		}
	}
}
