package tooltext

import (
	"fmt"
	"strings"
)

// phrases is the phrase table, indexed once.
var phrases = buildPhraseIndex(phraseTable)

// instructionRules are the phrase rules that, in a schema value or a name,
// also make an instruction-in-schema finding.
var instructionRules = map[string]bool{"override-instructions": true, "concealment": true, "coercion": true,
	"precondition": true, "credential-harvest": true, "conversation-capture": true, "cross-tool-override": true}

// scan applies every rule that reads one string.
func (a *analysis) scan(item textItem) {
	if a.stopped {
		return
	}
	a.strings++
	if a.strings > MaxStrings {
		a.unchecked(item.tool, item.pointer, fmt.Sprintf("the document has more than %d strings", MaxStrings))
		return
	}
	s := item.text
	a.charFindings(item, scanChars(s))
	words := foldWords(s)
	for _, h := range phrases.match(words) {
		quoted := `"` + escapeHidden(joinWords(words, h.start, h.end)) + `"`
		a.add(item.tool, item.pointer, h.rule, quoted)
		if item.kind != kindProse && instructionRules[h.rule] {
			a.add(item.tool, item.pointer, "instruction-in-schema", quoted)
		}
	}
	lower := strings.ToLower(s)
	a.tagFindings(item, lower)
	a.urlFindings(item, lower)
	a.secretFindings(item, lower, words)
	a.blobFindings(item)
	a.recipientFindings(item, lower, words)
	a.identifierFindings(item, words)
	if item.kind == kindProse {
		a.collectReferences(item)
	}
}

// charFindings turns what one pass over the characters found into findings.
func (a *analysis) charFindings(item textItem, rep charReport) {
	s := item.text
	for _, c := range []struct {
		rule string
		i    int
	}{
		{"unicode-tags", rep.tag}, {"bidi-control", rep.bidi}, {"invisible-run", rep.invisibleRun},
		{"variation-selector-run", rep.vsRun}, {"terminal-escape", rep.escape}, {"control-character", rep.control},
		{"padding", rep.padding},
	} {
		if c.i >= 0 {
			a.add(item.tool, item.pointer, c.rule, quote(excerpt(s, c.i)))
		}
	}
	switch {
	case rep.zeroWidth >= 0 && item.kind != kindProse && item.kind != kindValue:
		a.add(item.tool, item.pointer, "zero-width-in-identifier", quote(excerpt(s, rep.zeroWidth)))
	case rep.zeroWidthNearASCII >= 0:
		a.add(item.tool, item.pointer, "zero-width-in-text", quote(excerpt(s, rep.zeroWidthNearASCII)))
	}
	if (item.kind == kindToolName || item.keyword == "properties") && confusableName(s) {
		a.add(item.tool, item.pointer, "confusable-name", fmt.Sprintf("%s reads as %q", quote(escapeHidden(s)), skeleton(s)))
	}
}

// quote puts already escaped text in double quotes.
func quote(escaped string) string { return `"` + escaped + `"` }

// instructionTagNames are tag names (folded: lowercase, "-" as "_") that
// address the model; a tag whose name contains one of instructionTagParts
// does too.
var (
	instructionTagNames = map[string]bool{"important": true, "system": true, "sys": true, "secret": true,
		"hidden": true, "admin": true, "critical": true, "override": true, "inst": true, "im_start": true,
		"assistant": true, "context_for_ai": true, "ai_instructions": true}
	instructionTagParts = []string{"instruction", "system_", "hidden", "secret", "override", "directive", "prompt"}
)

// tagFindings finds <IMPORTANT>, </system>, <SYSTEM_REQUIREMENT priority=...>,
// <|im_start|>, <<SYS>>, and bracketed capitals such as [SYSTEM DIRECTIVE]:
// one pass over the '<' and '[' of the text. A bracket in lowercase ("[system
// settings]") or a Markdown link ("[Secret Manager](...)") is prose.
func (a *analysis) tagFindings(item textItem, lower string) {
	for i := 0; i < len(lower); i++ {
		c := lower[i]
		if c != '<' && c != '[' {
			continue
		}
		name, end := tagName(lower, i+1, c == '[')
		if name == "" || !instructionTag(name) {
			continue
		}
		if c == '[' && (strings.ToUpper(item.text[i:end]) != item.text[i:end] || strings.HasPrefix(lower[end:], "](")) && name != "inst" {
			continue
		}
		a.add(item.tool, item.pointer, "instruction-tag", quote(escapeHidden(item.text[i:min(end+1, len(item.text))])))
		return
	}
}

// tagName reads the name of a tag that starts at i, after its '<' or '[':
// optional "/", "<", "|" or "[", then letters, digits, "_" and "-" (as "_"),
// and, in brackets, words separated by spaces (as "_"); it ends at '>', ']',
// '|', ':', '=' or, in angle brackets, a space (an attribute follows). It
// returns "" for anything else, and the offset where the name ends.
func tagName(s string, i int, bracket bool) (string, int) {
	// At most three opening marks ("<</", "[[["): a text of nothing but
	// them is then read in linear time.
	for n := 0; n < 3 && i < len(s) && (s[i] == '/' || s[i] == '<' || s[i] == '|' || s[i] == '['); n++ {
		i++
	}
	var b strings.Builder
	for start := i; i < len(s) && i-start < 48; i++ {
		switch tagByte(s[i], bracket, b.Len() > 0) {
		case tagNameByte:
			b.WriteByte(s[i])
		case tagSeparator:
			b.WriteByte('_')
		case tagEnd:
			if b.Len() == 0 {
				return "", i
			}
			return b.String(), i
		default:
			return "", i
		}
	}
	return "", i
}

// What a byte is to a tag's name.
const (
	tagOther = iota
	tagNameByte
	tagSeparator
	tagEnd
)

func tagByte(c byte, bracket, started bool) int {
	switch {
	case c >= 'a' && c <= 'z', c >= '0' && c <= '9', c == '_':
		return tagNameByte
	case c == '-' || (c == ' ' && bracket && started):
		return tagSeparator
	case c == '>' || c == ']' || c == '|' || c == ':' || c == '=' || (c == ' ' && !bracket):
		return tagEnd
	}
	return tagOther
}

func instructionTag(name string) bool {
	if instructionTagNames[name] {
		return true
	}
	for _, p := range instructionTagParts {
		if strings.Contains(name, p) {
			return true
		}
	}
	return false
}
