package tooltext

import (
	"fmt"
	"strings"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/mtibben/confusables"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/termsafe"
)

// invisibleChars are the characters that draw nothing: a model reads them, a
// reviewer does not see them. The ranges are Unicode's
// Default_Ignorable_Code_Point characters that are used to hide text
// (Unicode 15, DerivedCoreProperties.txt), plus the Hangul fillers, which
// render blank.
var invisibleChars = &unicode.RangeTable{
	R16: []unicode.Range16{
		{Lo: 0x00ad, Hi: 0x00ad, Stride: 1}, {Lo: 0x034f, Hi: 0x034f, Stride: 1}, {Lo: 0x061c, Hi: 0x061c, Stride: 1},
		{Lo: 0x115f, Hi: 0x1160, Stride: 1}, {Lo: 0x17b4, Hi: 0x17b5, Stride: 1}, {Lo: 0x180b, Hi: 0x180f, Stride: 1},
		{Lo: 0x200b, Hi: 0x200f, Stride: 1}, {Lo: 0x202a, Hi: 0x202e, Stride: 1}, {Lo: 0x2060, Hi: 0x206f, Stride: 1},
		{Lo: 0x3164, Hi: 0x3164, Stride: 1}, {Lo: 0xfe00, Hi: 0xfe0f, Stride: 1}, {Lo: 0xfeff, Hi: 0xfeff, Stride: 1},
		{Lo: 0xffa0, Hi: 0xffa0, Stride: 1}, {Lo: 0xfff9, Hi: 0xfffb, Stride: 1},
	},
	R32: []unicode.Range32{
		{Lo: 0x1d173, Hi: 0x1d17a, Stride: 1}, {Lo: 0xe0000, Hi: 0xe0fff, Stride: 1},
	},
	LatinOffset: 1,
}

// isInvisible: the first invisible character is U+00AD, so the ASCII of
// most text costs one comparison, not a look-up.
func isInvisible(r rune) bool { return r >= 0xad && unicode.Is(invisibleChars, r) }

func isTagChar(r rune) bool { return r >= 0xe0000 && r <= 0xe007f }
func isVariationSelector(r rune) bool {
	return (r >= 0xfe00 && r <= 0xfe0f) || (r >= 0xe0100 && r <= 0xe01ef)
}

// isBidiControl: the embeddings, overrides and isolates that reorder what is
// shown (Trojan Source, CVE-2021-42574). The marks (U+200E, U+200F, U+061C)
// reorder nothing by themselves and count as invisible only.
func isBidiControl(r rune) bool {
	return (r >= 0x202a && r <= 0x202e) || (r >= 0x2066 && r <= 0x2069)
}

// isZeroWidth: invisible characters that are neither bidirectional controls,
// tags nor variation selectors.
func isZeroWidth(r rune) bool {
	return isInvisible(r) && !isBidiControl(r) && !isTagChar(r) && !isVariationSelector(r)
}

// isEscape: ESC and the C1 controls, which start terminal escape sequences
// (colours, cursor moves, window titles, a cleared screen).
func isEscape(r rune) bool { return r == 0x1b || (r >= 0x80 && r <= 0x9f) }

// charReport is what one pass over a string's characters found: the first
// place of each kind, as a byte offset (-1 when none).
type charReport struct {
	tag, bidi, zeroWidth, zeroWidthNearASCII, vsRun, escape, control int
	invisibleRun, padding                                            int
}

// The lengths that make a run a finding: four characters that draw nothing
// in a row (spaces between them aside) hide text; 64 blank characters (or 16
// blank lines) with text after them push that text out of view.
const (
	invisibleRunLength = 4
	paddingLength      = 64
	paddingLines       = 16
)

// scanChars reads a string's characters once.
func scanChars(s string) charReport {
	rep := charReport{tag: -1, bidi: -1, zeroWidth: -1, zeroWidthNearASCII: -1, vsRun: -1, escape: -1, control: -1, invisibleRun: -1, padding: -1}
	var prev rune
	var run blankRun
	vs := 0
	flag := false // inside an emoji flag's tag sequence (U+1F3F4 then tags)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		next, _ := utf8.DecodeRuneInString(s[i+size:])
		rep.note(r, prev, next, i, &flag)
		vs = countIf(isVariationSelector(r), 0, vs)
		if vs == 2 {
			first(&rep.vsRun, i)
		}
		run.step(&rep, r, i, flag)
		prev = r
		i += size
	}
	return rep
}

// blankRun follows a run of blank characters (spaces, line breaks and
// characters that draw nothing): how long it is, how many lines and
// invisible characters it holds, and where it started.
type blankRun struct {
	blank, lines, invisible, start int
}

func isBlank(r rune) bool {
	return isInvisible(r) || r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == 0xa0 || r == 0x3000
}

// step takes the character r at i: a blank one extends the run (and an
// invisible run long enough is recorded), another ends it (and a padding
// run, now followed by text, is recorded).
func (b *blankRun) step(rep *charReport, r rune, i int, flag bool) {
	if !isBlank(r) {
		if b.blank >= paddingLength || b.lines >= paddingLines {
			first(&rep.padding, b.start)
		}
		*b = blankRun{}
		return
	}
	if b.blank == 0 {
		b.start = i
	}
	b.blank++
	b.lines = countIf(r == '\n', b.lines, b.lines)
	if isInvisible(r) && (!isTagChar(r) || !flag) && !isVariationSelector(r) {
		b.invisible++
		if b.invisible == invisibleRunLength {
			first(&rep.invisibleRun, b.start)
		}
	}
}

// countIf is n+1 when cond holds, else otherwise.
func countIf(cond bool, otherwise, n int) int {
	if cond {
		return n + 1
	}
	return otherwise
}

// note records the first place of each kind of character.
func (rep *charReport) note(r, prev, next rune, i int, flag *bool) {
	if r == 0x1f3f4 {
		*flag = true
	} else if !isTagChar(r) {
		*flag = false
	}
	switch {
	case isTagChar(r) && !*flag:
		first(&rep.tag, i)
	case isBidiControl(r):
		first(&rep.bidi, i)
	case isZeroWidth(r):
		first(&rep.zeroWidth, i)
		// Beside a letter of another script, or an emoji, a joiner is
		// writing; beside ASCII it hides something.
		if isASCIIText(prev) || isASCIIText(next) {
			first(&rep.zeroWidthNearASCII, i)
		}
	case isEscape(r):
		first(&rep.escape, i)
	case r != '\n' && r != '\t' && r != '\r' && termsafe.HasControl(string(r)):
		first(&rep.control, i)
	}
}

func isASCIIText(r rune) bool { return r > ' ' && r < 0x7f }

func first(at *int, i int) {
	if *at < 0 {
		*at = i
	}
}

// confusableName reports whether a name holds characters outside ASCII
// although its UTS #39 skeleton is plain ASCII: it reads as an ASCII name
// ("раypal" with Cyrillic р and а) while being another string. The skeleton is
// github.com/mtibben/confusables' (Unicode's confusables.txt, version 13),
// chosen because golang.org/x/text has no confusable data.
func confusableName(name string) bool {
	if isASCII(name) {
		return false
	}
	return isASCII(confusables.Skeleton(name))
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= 0x80 {
			return false
		}
	}
	return true
}

// skeleton is the name as UTS #39 compares it: names with the same skeleton
// look alike.
func skeleton(name string) string { return confusables.Skeleton(name) }

// escapeHidden writes every character that draws nothing as a \u escape
// (a UTF-16 pair beyond U+FFFF), then lets termsafe.Escape escape the
// control characters: a message shows \u200b, never the character itself.
func escapeHidden(s string) string {
	if !strings.ContainsFunc(s, isInvisible) {
		return termsafe.Escape(s)
	}
	var b strings.Builder
	for _, r := range s {
		if !isInvisible(r) {
			b.WriteRune(r)
			continue
		}
		if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
			fmt.Fprintf(&b, `\u%04x\u%04x`, r1, r2)
		} else {
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return termsafe.Escape(b.String())
}

// excerpt is up to about 60 characters of s around byte offset at, hidden
// characters escaped, with "..." where it was cut.
func excerpt(s string, at int) string {
	const before, after = 20, 40
	// At either end of s a rune decodes to size 0: the loops stop moving.
	start := at
	for range before {
		_, size := utf8.DecodeLastRuneInString(s[:start])
		start -= size
	}
	end := at
	for range after {
		_, size := utf8.DecodeRuneInString(s[end:])
		end += size
	}
	out := escapeHidden(s[start:end])
	if start > 0 {
		out = "..." + out
	}
	if end < len(s) {
		out += "..."
	}
	return out
}

// The ASCII classes the scanners of URLs, addresses, blobs and identifiers
// read bytes by (a byte of a multi-byte character is in none of them).
func isLower(c byte) bool    { return c >= 'a' && c <= 'z' }
func isUpper(c byte) bool    { return c >= 'A' && c <= 'Z' }
func isLetter(c byte) bool   { return isLower(c) || isUpper(c) }
func isDigit(c byte) bool    { return c >= '0' && c <= '9' }
func isHexDigit(c byte) bool { return isDigit(c) || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F' }
func isWordByte(c byte) bool { return isLetter(c) || isDigit(c) || c == '_' }
