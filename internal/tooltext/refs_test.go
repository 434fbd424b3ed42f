package tooltext

import "testing"

// unknown-tool-reference: a quoted name is a reference when "call",
// "invoke" or "tool" is within two words of it, on either side, at the
// start or the end of the text too.
func TestReferences_invocationWithinTwoWords(t *testing.T) {
	checkDescriptions(t, "unknown-tool-reference", map[string]bool{
		"`multiply` then call":         true,
		"`multiply` and then call":     false,
		"Call it: `multiply`.":         true,
		"Call it now: `multiply`.":     false,
		"Then call `multiply`":         true,
		"`multiply`":                   false,
		"Use `json` as the format.":    false,
		"Use the tool `json` to parse": true,
	})
}

// An unquoted word is a tool's name when it can be nothing else: letters
// joined by "_" (three characters or more), or camelCase that starts in
// lower case; a name of no tool of the document, next to "call", is an
// unknown reference.
func TestReferences_nameLikeWords(t *testing.T) {
	checkDescriptions(t, "unknown-tool-reference", map[string]bool{
		"Then call a_b now.":       true,
		"Then call ab now.":        false,
		"Then call foo_ now.":      false,
		"Then call 3_d now.":       false,
		"Then call ab_3 now.":      false,
		"Then call dataSet now.":   true,
		"Then call getID now.":     true,
		"Then call fizzBuzz now.":  true,
		"Then call fooAbc now.":    true,
		"Then call fooZip now.":    true,
		"Then call ab1cd now.":     false,
		"Then call AbcDef now.":    false,
		"Then call zetaFn now.":    true,
		"Then call read-only now.": false,
		"Then call list.json now.": false,
	})
}
