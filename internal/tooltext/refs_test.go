package tooltext

import "testing"

// unknown-tool-reference: a quoted name is a reference when "call",
// "invoke" or "tool" is within two words of it, on either side, at the
// start or the end of the text too.
func TestReferences_invocationWithinTwoWords(t *testing.T) {
	for text, want := range map[string]bool{
		"`multiply` then call":         true,
		"`multiply` and then call":     false,
		"Call it: `multiply`.":         true,
		"Call it now: `multiply`.":     false,
		"Then call `multiply`":         true,
		"`multiply`":                   false,
		"Use `json` as the format.":    false,
		"Use the tool `json` to parse": true,
	} {
		if got := fires(t, described(text), "unknown-tool-reference"); got != want {
			t.Errorf("%q: unknown-tool-reference fired %v, want %v", text, got, want)
		}
	}
}

// An unquoted word is a tool's name when it can be nothing else: letters
// joined by "_" (three characters or more), or camelCase that starts in
// lower case; a name of no tool of the document, next to "call", is an
// unknown reference.
func TestReferences_nameLikeWords(t *testing.T) {
	for word, want := range map[string]bool{
		"a_b":       true,
		"ab":        false,
		"foo_":      false,
		"3_d":       false,
		"ab_3":      false,
		"dataSet":   true,
		"getID":     true,
		"fizzBuzz":  true,
		"fooAbc":    true,
		"fooZip":    true,
		"ab1cd":     false,
		"AbcDef":    false,
		"zetaFn":    true,
		"read-only": false,
		"list.json": false,
	} {
		if got := fires(t, described("Then call "+word+" now."), "unknown-tool-reference"); got != want {
			t.Errorf("%q: unknown-tool-reference fired %v, want %v", word, got, want)
		}
	}
}
