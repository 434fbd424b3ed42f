package tooltext

import (
	"strings"
	"unicode"
)

// Schema smuggling: a parameter whose name asks for what a model should not
// hand over, a sentence where a name is expected.

// identifierFindings: a sentence (four or more words) where a name is
// expected: a property name, a required entry, a type or a format.
func (a *analysis) identifierFindings(item textItem, words []word) {
	if item.kind != kindIdentifier || len(words) < 4 || !strings.ContainsRune(item.text, ' ') {
		return
	}
	switch item.keyword {
	case "properties", "required", "type", "format":
		a.add(item.tool, item.pointer, "sentence-as-identifier", quote(escapeHidden(item.text)))
	}
}

// identWords splits a name into lowercase words at separators and at
// lower-to-upper case changes: systemPrompt is "system", "prompt".
func identWords(name string) []string {
	var out []string
	var b strings.Builder
	var prev rune
	flush := func() {
		if b.Len() > 0 {
			out = append(out, b.String())
			b.Reset()
		}
	}
	for _, r := range name {
		switch {
		case unicode.IsLetter(r) || unicode.IsDigit(r):
			if unicode.IsUpper(r) && unicode.IsLower(prev) {
				flush()
			}
			b.WriteRune(unicode.ToLower(r))
		default:
			flush()
		}
		prev = r
	}
	flush()
	return out
}

// sensitiveParamWords: a parameter named with one of these words, or with
// both words of a pair, asks for what a model should not hand over.
var (
	sensitiveParamWords = []string{"sidenote", "idrsa", "rsa", "chathistory", "systemprompt"}
	sensitiveParamPairs = [][2]string{{"side", "note"}, {"private", "key"}, {"ssh", "key"}, {"chat", "history"},
		{"conversation", "history"}, {"conversation", "context"},
		{"system", "prompt"}, {"previous", "message"}, {"previous", "messages"}, {"last", "messages"},
		{"mcp", "json"}, {"api", "keys"}}
)

// checkParameterName applies sensitive-parameter to a property's name; only
// the properties of a tool's input (at the schema's top level or one level
// down) are parameters the model fills in.
func (a *analysis) checkParameterName(i int, pointer, name string, depth int) {
	if depth > 2 {
		return
	}
	a.info[i].params[name] = true
	words := identWords(name)
	has := map[string]bool{}
	for _, w := range words {
		has[w] = true
	}
	hit := false
	for _, w := range sensitiveParamWords {
		hit = hit || has[w]
	}
	for _, p := range sensitiveParamPairs {
		hit = hit || has[p[0]] && has[p[1]]
	}
	if hit {
		a.add(i, pointer, "sensitive-parameter", quote(escapeHidden(name)))
	}
}
