package termsafe

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
)

// Escape keeps text a reviewer must see exactly (a tool's name in a lock, a
// JSON pointer built from a peer's keys) in one visible line: every character
// that is not graphic is written as a JSON-style \u escape instead of being
// removed as Text and Line do. That covers the C0 and C1 controls (ESC, BEL,
// DEL, newlines...), the format characters (the bidirectional overrides
// U+202A-U+202E and isolates U+2066-U+2069, zero-width characters) and the
// line and paragraph separators; a character beyond U+FFFF is written as its
// UTF-16 surrogate pair, invalid UTF-8 as U+FFFD. Text needing no escape is
// returned as it is.
func Escape(s string) string {
	if !needsEscape(s) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		if unicode.IsGraphic(r) {
			b.WriteRune(r)
			continue
		}
		if r1, r2 := utf16.EncodeRune(r); r1 != unicode.ReplacementChar {
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		} else {
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

func needsEscape(s string) bool {
	for _, r := range s {
		if !unicode.IsGraphic(r) || r == unicode.ReplacementChar {
			return true
		}
	}
	return false
}
