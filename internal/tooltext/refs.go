package tooltext

import (
	"strings"
)

// invocationWords, next to an identifier, make it a tool the text tells
// the model to call.
// A quoted word that is not name-like ('json') needs a strong one (call,
// invoke, tool), since "use 'json'" names a format, not a tool.
var invocationWords = map[string]bool{"call": true, "calls": true, "calling": true, "called": true, "use": true,
	"using": true, "invoke": true, "invoked": true, "invoking": true, "tool": true, "before": true, "after": true,
	"run": true}

var strongInvocationWords = map[string]bool{"call": true, "calls": true, "calling": true, "called": true,
	"invoke": true, "invoked": true, "invoking": true, "tool": true}

// collectReferences records the identifiers a prose text names: a word in
// backquotes or quotes, or one that can only be a name (snake_case,
// kebab-case, camelCase), each with whether an invocation word is within two
// words of it.
func (a *analysis) collectReferences(item textItem) {
	toks := identTokens(item.text)
	for j, t := range toks {
		name := looksLikeName(t.text)
		if !t.quoted && !name {
			continue
		}
		invoked := false
		for k := max(0, j-2); k <= min(len(toks)-1, j+2); k++ {
			w := strings.ToLower(toks[k].text)
			invoked = invoked || (k != j && (strongInvocationWords[w] || name && invocationWords[w]))
		}
		a.refs = append(a.refs, reference{tool: item.tool, pointer: item.pointer, ident: t.text, invoked: invoked})
	}
}

type identToken struct {
	text   string
	quoted bool
}

// identTokens splits text into runs of ASCII letters, digits, "_", "-" and
// ".", trimmed of a trailing "." or "-", each marked quoted when a backquote
// or a quote is right before and after it.
func identTokens(s string) []identToken {
	var out []identToken
	for i := 0; i < len(s); {
		if !isIdentByte(s[i]) {
			i++
			continue
		}
		j := i
		for j < len(s) && isIdentByte(s[j]) {
			j++
		}
		text := strings.TrimRight(s[i:j], ".-")
		quoted := i > 0 && j < len(s) && strings.IndexByte("`'\"", s[i-1]) >= 0 && s[j] == s[i-1]
		if text != "" {
			out = append(out, identToken{text: text, quoted: quoted})
		}
		i = j
	}
	return out
}

func isIdentByte(c byte) bool { return isWordByte(c) || c == '-' || c == '.' }

// looksLikeName: an identifier no English word is: letters joined by "_",
// or camelCase starting in lower case. Kebab-case is left to quotes, since
// English writes "read-only" and "one-shot"; so are capitalised words.
func looksLikeName(t string) bool {
	if len(t) < 3 || strings.ContainsRune(t, '.') {
		return false
	}
	for i := 1; i < len(t)-1; i++ {
		c := t[i]
		if c == '_' && isLetter(t[i-1]) && isLetter(t[i+1]) {
			return true
		}
		if isUpper(c) && isLower(t[i-1]) && isLower(t[0]) {
			return true
		}
	}
	return false
}

// checkUnknownReferences: an identifier a description tells the model to
// call that is no tool of the document and no parameter of any of its tools.
func (a *analysis) checkUnknownReferences() {
	params := map[string]bool{}
	for _, t := range a.info {
		for p := range t.params {
			params[p] = true
		}
	}
	for _, r := range a.refs {
		if !r.invoked || a.names[r.ident] || params[r.ident] || !strings.HasSuffix(r.pointer, "/description") {
			continue
		}
		a.add(r.tool, r.pointer, "unknown-tool-reference", quote(escapeHidden(r.ident))+" is not a tool of this document")
	}
}
