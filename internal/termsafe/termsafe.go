// Package termsafe makes strings from peers (a registry, a live document, an
// MCP server) safe to print on a terminal: it removes C0 and C1 control
// characters, and whole escape sequences where it recognizes them, so that a
// display name or an error message cannot clear the screen, set the window
// title, move the cursor or print a fake "Apply complete!". It is the one
// place where that is done, and the one that says what a control character
// is: callers apply it where peer text enters a diagnostic, a list result's
// display name, or generated configuration (Text, Line), where a reviewer must
// see text exactly (Escape), and where a name holding a control character is
// refused (HasControl). The lint configuration (.golangci.yml, forbidigo)
// refuses unicode.IsControl and its kin outside this package.
package termsafe

import (
	"strings"
	"unicode/utf8"
)

const (
	esc = 0x1b
	bel = 0x07
	// C1 controls that open a string terminated by ST (ESC \) or BEL: DCS,
	// SOS, OSC, PM, APC; and CSI, which ends at a final byte.
	c1DCS = 0x90
	c1SOS = 0x98
	c1CSI = 0x9b
	c1ST  = 0x9c
	c1OSC = 0x9d
	c1PM  = 0x9e
	c1APC = 0x9f
)

// Text cleans multi-line text: newlines and tabs are kept, every other
// control character goes (a carriage return too, which could overwrite a
// line already printed).
func Text(s string) string { return clean(s, true) }

// Line cleans text meant for one line, such as a display name: every control
// character goes, newlines and tabs included (each becomes a space).
func Line(s string) string { return clean(s, false) }

// HasControl reports whether s holds a C0 or C1 control character, a
// newline or a tab included: what a name shown on a terminal (a path, an id)
// must not hold. They are the characters of Unicode's Cc category, those
// unicode.IsControl reports, decided here so that this package is the one
// place that says what a control character is.
func HasControl(s string) bool { return strings.ContainsFunc(s, isControl) }

// Truncate shortens s to at most n runes, marking a cut with "...".
func Truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	i := 0
	for pos := range s {
		if i == n {
			return s[:pos] + "..."
		}
		i++
	}
	return s
}

// opensString tells the C1 controls that open a control string: OSC, DCS,
// SOS, PM and APC.
func opensString(r rune) bool {
	return r == c1OSC || r == c1DCS || r == c1SOS || r == c1PM || r == c1APC
}

func isControl(r rune) bool {
	return r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f)
}

func clean(s string, multiline bool) string {
	if !needsCleaning(s, multiline) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		i = cleanNext(&b, s, i, multiline)
	}
	return b.String()
}

// cleanNext writes to b what is left of the character at i of s once
// cleaned (nothing for a control character or a whole escape sequence), and
// returns where the next one starts.
func cleanNext(b *strings.Builder, s string, i int, multiline bool) int {
	r, size := utf8.DecodeRuneInString(s[i:])
	switch {
	case r == utf8.RuneError && size == 1:
		b.WriteRune(utf8.RuneError) // invalid UTF-8 is shown, not passed raw
	case r == esc:
		return skipEscape(s, i+1)
	case r == c1CSI:
		return skipCSI(s, i+size)
	case opensString(r):
		return skipString(s, i+size)
	case (r == '\n' || r == '\t') && !multiline:
		b.WriteByte(' ')
	case r == '\n' || r == '\t' || !isControl(r):
		b.WriteString(s[i : i+size])
	}
	return i + size
}

func needsCleaning(s string, multiline bool) bool {
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size == 1) || (isControl(r) && (!multiline || (r != '\n' && r != '\t'))) {
			return true
		}
		i += size
	}
	return false
}

// skipEscape skips what follows an ESC at i: a CSI (ESC [), a control string
// (ESC ] OSC, ESC P DCS, ESC X SOS, ESC ^ PM, ESC _ APC), or one more
// character (a two-character sequence such as ESC c, which resets the terminal).
func skipEscape(s string, i int) int {
	if i >= len(s) {
		return i
	}
	switch s[i] {
	case '[':
		return skipCSI(s, i+1)
	case ']', 'P', 'X', '^', '_':
		return skipString(s, i+1)
	}
	// Intermediate bytes (0x20-0x2f), then one final byte.
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x2f {
		i++
	}
	if i < len(s) && s[i] >= 0x30 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipCSI skips a CSI's parameter and intermediate bytes and its final byte.
func skipCSI(s string, i int) int {
	for i < len(s) && s[i] >= 0x20 && s[i] <= 0x3f {
		i++
	}
	if i < len(s) && s[i] >= 0x40 && s[i] <= 0x7e {
		i++
	}
	return i
}

// skipString skips a control string up to and including its terminator (BEL,
// ESC \ or C1 ST), or to the end of s, or to the first newline (a string that
// never ends must not swallow the rest of a message).
func skipString(s string, i int) int {
	for i < len(s) {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch r {
		case bel, c1ST:
			return i + size
		case esc:
			if i+1 < len(s) && s[i+1] == '\\' {
				return i + 2
			}
			return i + 1
		case '\n':
			return i
		}
		i += size
	}
	return i
}
