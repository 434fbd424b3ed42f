package redact

// The views of a text that Blank searches: the text as it reads once line
// breaks are gone, and the same text with what peers escape decoded. A peer
// that echoes a secret may write it in JSON escapes (PHP's "\/", .NET's
// "\u002B", a string of nothing but "\uXXXX"), percent-encoded (every byte or
// only some, by any library's rule of what is safe), or as hex. Listing each
// library's encoding of each value would never end and would miss the next
// one; decoding the text once and matching the plain value covers all of them.
// Each byte of a view remembers the bytes of the text it was decoded from, so
// that what is found in a view is blanked in the text.

import (
	"regexp"
	"strings"
)

// view is a text as Blank searches it. Byte i of text was decoded from the
// bytes [start[i], end[i]) of the original text; a nil end means that each
// byte is one of the original's (end[i] is start[i]+1), and a nil start too
// that text is the original itself.
type view struct {
	text       string
	start, end []int32 // int32: half the memory of int, and no text is 2 GiB
	// inside and beforeEnd tell that the view does not begin at the start
	// of the text, or does not end at its end: no fragment is searched there.
	inside, beforeEnd bool
}

// toText is the range of the original text that the view's bytes [from, to)
// come from.
func (v view) toText(from, to int) (int, int) {
	switch {
	case v.start == nil:
		return from, to
	case v.end == nil:
		return int(v.start[from]), int(v.start[to-1]) + 1
	}
	return int(v.start[from]), int(v.end[to-1])
}

// viewBuilder writes a view byte by byte.
type viewBuilder struct {
	b          []byte
	start, end []int32
}

func newViewBuilder(n int) *viewBuilder {
	return &viewBuilder{b: make([]byte, 0, n), start: make([]int32, 0, n), end: make([]int32, 0, n)}
}

// put appends c, decoded from the original text's bytes [from, to).
func (w *viewBuilder) put(c byte, from, to int) {
	w.b = append(w.b, c)
	w.start = append(w.start, int32(from))
	w.end = append(w.end, int32(to))
}

func (w *viewBuilder) view() view { return view{text: string(w.b), start: w.start, end: w.end} }

// views are the views of text worth searching: the text without its line
// breaks, always; decoded from JSON escapes and percent-encoding when it holds
// a backslash or a percent sign; and its runs of hex digits long enough to
// encode a fragment, decoded at both alignments.
func views(text string) []view {
	flat := flatten(text)
	out := []view{flat}
	if strings.ContainsAny(text, `\%`) {
		out = append(out, unescaped(flat))
	}
	if runs := hexRuns(flat.text); len(runs) > 0 {
		out = append(out, unhexed(flat, runs, 0), unhexed(flat, runs, 1))
	}
	return out
}

// isLineBreak tells the bytes that end a line.
func isLineBreak(c byte) bool { return c == '\r' || c == '\n' }

// skipIndent is the position after the spaces and tabs that indent the line
// at i in text.
func skipIndent(text string, i int) int {
	for i < len(text) && (text[i] == ' ' || text[i] == '\t') {
		i++
	}
	return i
}

// flatten removes line breaks (CR, LF, CRLF, and a run of them) and the
// spaces and tabs that start the next line, so that a value wrapped over
// lines reads whole again.
func flatten(text string) view {
	if !strings.ContainsAny(text, "\r\n") {
		return view{text: text}
	}
	b := make([]byte, 0, len(text))
	start := make([]int32, 0, len(text))
	for i := 0; i < len(text); {
		if isLineBreak(text[i]) {
			i = skipIndent(text, i+1)
			continue
		}
		b = append(b, text[i])
		start = append(start, int32(i))
		i++
	}
	return view{text: string(b), start: start}
}

// unescaped is flat with JSON escapes (\" \\ \/ \b \f \n \r \t \uXXXX, a
// surrogate pair as one character) and percent-encoded bytes (%XX, either
// case) decoded; an escaped line break ("\n", "%0A") is removed as flatten
// removes one, with the indent after it: a PEM key quoted in JSON reads as its
// lines joined. What is not a valid escape is kept as it is, but for the
// start of one cut by the end of the text (an excerpt's last bytes), which is
// left out so that a value cut there ends the view. A "+" stays a "+": Add
// also registers a value's spaces as "+", the one spelling decoding cannot
// undo.
func unescaped(flat view) view {
	text := flat.text
	w := newViewBuilder(len(text))
	for i := 0; i < len(text); {
		decoded, n := decodeAt(text, i)
		if n == 0 && cutEscape(text[i:]) {
			break
		}
		if n == 0 {
			decoded, n = text[i:i+1], 1
		}
		if len(decoded) == 1 && isLineBreak(decoded[0]) {
			i = skipIndent(text, i+n)
			continue
		}
		from, to := flat.toText(i, i+n)
		for j := 0; j < len(decoded); j++ {
			w.put(decoded[j], from, to)
		}
		i += n
	}
	return w.view()
}

// decodeAt decodes the escape that starts at text[i]: what it stands for and
// its length, or n == 0 when none starts there.
func decodeAt(text string, i int) (decoded string, n int) {
	switch text[i] {
	case '%':
		if b, ok := hexByte(text, i+1); ok {
			return string([]byte{b}), 3
		}
	case '\\':
		if i+1 < len(text) {
			return jsonEscape(text, i)
		}
	}
	return "", 0
}

// cutEscape tells whether rest, the end of a text, is the start of an
// escape cut short: a backslash, "\u" and up to three hex digits, "%" and up
// to one.
func cutEscape(rest string) bool {
	return len(rest) <= len(`\u000`) && cutEscapePattern.MatchString(rest)
}

var cutEscapePattern = regexp.MustCompile(`^(\\(u[0-9A-Fa-f]{0,3})?|%[0-9A-Fa-f]?)$`)

// jsonEscapes are the one-letter JSON escapes and what they stand for.
var jsonEscapes = map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// jsonEscape decodes the JSON escape at text[i] (a backslash followed by at
// least one byte).
func jsonEscape(text string, i int) (decoded string, n int) {
	if c, ok := jsonEscapes[text[i+1]]; ok {
		return string([]byte{c}), 2
	}
	r, ok := utf16Unit(text, i)
	if !ok {
		return "", 0
	}
	if r >= 0xD800 && r < 0xDC00 { // a high surrogate: one character with the low one after it
		if low, ok := utf16Unit(text, i+6); ok && low >= 0xDC00 && low < 0xE000 {
			return string(0x10000 + (r-0xD800)<<10 + (low - 0xDC00)), 12
		}
	}
	return string(r), 6
}

// utf16Unit reads "\uXXXX" at text[i].
func utf16Unit(text string, i int) (rune, bool) {
	if i+6 > len(text) || text[i] != '\\' || text[i+1] != 'u' {
		return 0, false
	}
	hi, ok1 := hexByte(text, i+2)
	lo, ok2 := hexByte(text, i+4)
	return rune(hi)<<8 | rune(lo), ok1 && ok2
}

// hexByte reads two hex digits, of either case, at text[i].
func hexByte(text string, i int) (byte, bool) {
	if i+2 > len(text) {
		return 0, false
	}
	hi, lo := hexDigit(text[i]), hexDigit(text[i+1])
	return hi<<4 | lo, hi < 16 && lo < 16
}

// hexDigit is the value of a hex digit, or 16 for another byte.
func hexDigit(c byte) byte {
	switch {
	case c >= '0' && c <= '9':
		return c - '0'
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10
	}
	return 16
}

// minHexRun is the shortest run of hex digits that is decoded: the encoding
// of a fragment (MinFragment bytes), the least that is blanked.
const minHexRun = 2 * MinFragment

// hexRuns are the runs of at least minHexRun hex digits of text, as [from, to).
func hexRuns(text string) [][2]int {
	var runs [][2]int
	start := 0
	for i := 0; i <= len(text); i++ {
		if i < len(text) && hexDigit(text[i]) < 16 {
			continue
		}
		if i-start >= minHexRun {
			runs = append(runs, [2]int{start, i})
		}
		start = i + 1
	}
	return runs
}

// unhexed is the runs of hex digits of flat decoded, two digits a byte, from
// each run's digit skip (0 or 1: a run may begin with a digit that belongs to
// the word before it, or with the second half of a byte an excerpt cut, so
// both alignments are tried), with a NUL between two runs so that no match
// spans two. Only the runs are kept: a value written in hex lies inside one,
// and the rest of the text is searched in the other views already. The view
// touches an end of the text only where a run does, so that a fragment is
// searched at a run that starts or ends the text and nowhere else.
func unhexed(flat view, runs [][2]int, skip int) view {
	w := newViewBuilder(len(flat.text))
	for k, run := range runs {
		if k > 0 {
			w.put(0, 0, 0) // never part of a match: where it maps to does not matter
		}
		for j := run[0] + skip; j+2 <= run[1]; j += 2 {
			b, _ := hexByte(flat.text, j)
			from, to := flat.toText(j, j+2)
			w.put(b, from, to)
		}
	}
	v := w.view()
	v.inside, v.beforeEnd = runs[0][0] > 0, runs[len(runs)-1][1] < len(flat.text)
	return v
}
