// Package redact blanks secrets out of text before it leaves the provider: an
// error, a diagnostic (which Terraform also writes to its trace log), the end
// of a process's stderr, an answer a peer sent. It is the one place where that
// is done. A caller registers each secret value once (the values of a live data
// source's env and headers, an OAuth client secret, private key or assertion,
// a Google refresh token, the registry's access token) and passes every text
// that may quote one through Blank.
//
// Peers seldom echo a secret verbatim. Blank finds a value in a text that
// holds it, which is one rule with four parts:
//   - the text is read without its line breaks (a line break, and the spaces or
//     tabs that indent the next line, anywhere inside a value);
//   - it is read again with what peers escape decoded (views.go): JSON escapes
//     (\/ as PHP writes it, \u002B or \u002b as .NET does, a string of nothing
//     but \uXXXX), percent-encoding of any byte in either case (a query or
//     path escape, Python's quote, JavaScript's encodeURIComponent, every
//     byte %XX), and runs of hex digits (either case, either alignment);
//   - in each reading, the value is searched as is and base64-encoded, in the
//     standard and URL alphabets, with and without padding, alone or inside a
//     longer encoded text (the "user:password" of HTTP Basic authentication);
//   - a reading may begin with the end of a value or end with its start: a
//     quoted excerpt (the last 2 KiB of stderr, the start of a body) may be
//     cut inside one. Such a fragment is blanked when it is at least
//     MinFragment bytes long.
//
// Decoding the text, rather than listing each encoding of each value, is what
// makes the rule hold for an encoder not met yet; its cost stays linear in the
// text (a view is built only when the text has a backslash, a percent sign or
// a long hex run). Ordinary text is left as it is: only a registered value, at
// least MinLength bytes long, or a fragment of one at an end, is blanked.
//
// Values shorter than MinLength bytes are not registered: blanking every "1" or
// "true" would blank the message itself.
package redact

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"net/url"
	"regexp"
	"slices"
	"strings"
	"sync"
)

const (
	// MinLength is the shortest value that is blanked, in bytes.
	MinLength = 6
	// MinFragment is the shortest part of a value, cut at an end of a text,
	// that is blanked.
	MinFragment = 4
)

// Secrets is a set of values to blank. The zero value is an empty set, ready
// to use; a nil *Secrets blanks nothing. It is safe for concurrent use.
type Secrets struct {
	mu sync.RWMutex
	// forms are what Blank searches each view of a text for: every value, its
	// spaces as "+", and its base64 forms.
	forms []form
	// spellings are forms and the encodings a view decodes, for Strings.
	spellings []string
	seen      map[string]bool
}

// form is one spelling of a secret value and the placeholder it becomes.
type form struct {
	text        string
	placeholder string
}

// Add registers value. label names it in the placeholder that replaces it:
// Add("a value of env", v) blanks v as "(a value of env)". A value shorter
// than MinLength bytes (after removing line breaks) is ignored.
func (s *Secrets) Add(label, value string) {
	if len(flatten(value).text) < MinLength {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	placeholder := "(" + label + ")"
	for _, f := range searchedForms(value) {
		if s.register(f) {
			s.forms = append(s.forms, form{text: flatten(f).text, placeholder: placeholder})
		}
	}
	for _, f := range encodedForms(value) {
		s.register(f)
	}
}

// register adds a spelling to the set's spellings, once, and tells whether
// it was new and long enough to be blanked.
func (s *Secrets) register(spelling string) bool {
	f := flatten(spelling).text
	if len(f) < MinLength || s.seen[f] {
		return false
	}
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	s.seen[f] = true
	s.spellings = append(s.spellings, f)
	return true
}

// Strings returns every spelling registered (the values and their encoded
// forms), for loggers that mask exact strings, such as tflog.MaskMessageStrings.
func (s *Secrets) Strings() []string {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	return slices.Clone(s.spellings)
}

// Blank returns text with every registered value replaced by its placeholder.
func (s *Secrets) Blank(text string) string {
	if s == nil || text == "" {
		return text
	}
	s.mu.RLock()
	forms := s.forms
	s.mu.RUnlock()
	if len(forms) == 0 {
		return text
	}
	var spans []span
	for _, v := range views(text) {
		for _, f := range forms {
			spans = append(spans, found(v, f)...)
		}
	}
	if len(spans) == 0 {
		return text
	}
	return replace(text, merged(spans))
}

// Error returns err with its message blanked: err itself when there is nothing
// to blank, else an error that carries the blanked message only (unwrapping
// it would give the secret back).
func (s *Secrets) Error(err error) error {
	if err == nil {
		return nil
	}
	msg := err.Error()
	if b := s.Blank(msg); b != msg {
		return errors.New(b)
	}
	return err
}

// searchedForms are the spellings of value that Blank searches each view
// for: the value, its spaces written "+" (as a query escape writes them: the
// one escape a view cannot decode, a "+" being a "+" too) and its base64
// encodings, which no view decodes (a base64 text is also ordinary text).
func searchedForms(value string) []string {
	out := []string{value}
	if strings.Contains(value, " ") {
		out = append(out, strings.ReplaceAll(value, " ", "+"))
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		out = append(out, enc.EncodeToString([]byte(value)))
		out = append(out, base64Cores(enc.WithPadding(base64.NoPadding), value)...)
	}
	return out
}

// encodedForms are spellings that a view decodes, for Strings only: a
// logger that masks exact strings decodes nothing.
func encodedForms(value string) []string {
	out := []string{jsonEscaped(value, true), jsonEscaped(value, false)}
	for _, esc := range []string{url.QueryEscape(value), url.PathEscape(value)} {
		out = append(out, esc, lowerHex.ReplaceAllStringFunc(esc, strings.ToLower))
	}
	h := hex.EncodeToString([]byte(value))
	return append(out, h, strings.ToUpper(h))
}

var lowerHex = regexp.MustCompile(`%[0-9A-F]{2}`)

func jsonEscaped(value string, escapeHTML bool) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(escapeHTML)
	_ = enc.Encode(value) // a string always encodes
	return strings.TrimSuffix(strings.TrimPrefix(strings.TrimSpace(b.String()), `"`), `"`)
}

// base64Cores are the characters of the base64 encoding of value that do not
// depend on the bytes around it, for each of the three positions value may
// start at within a longer encoded text (modulo 3 bytes). A character encodes
// 6 bits: with k bytes before value, the characters from ceil(8k/6) to
// floor(8(k+n)/6) encode value's bits only.
func base64Cores(enc *base64.Encoding, value string) []string {
	var out []string
	for k := range 3 {
		padded := append(make([]byte, k), value...)
		encoded := enc.EncodeToString(padded)
		// value has at least MinLength bytes: from < to.
		from, to := (8*k+5)/6, 8*(k+len(value))/6
		out = append(out, encoded[from:to])
	}
	return out
}

// span is a range of bytes [from, to) to blank, and its placeholder.
type span struct {
	from, to    int
	placeholder string
}

// found are the ranges of the original text where v shows f: whole, or cut
// at an end of the text.
func found(v view, f form) []span {
	spans := append(occurrences(v.text, f), edgeFragments(v, f)...)
	for i, s := range spans {
		spans[i].from, spans[i].to = v.toText(s.from, s.to)
	}
	return spans
}

func occurrences(text string, f form) []span {
	var out []span
	for at := 0; ; {
		i := strings.Index(text[at:], f.text)
		if i < 0 {
			return out
		}
		out = append(out, span{at + i, at + i + len(f.text), f.placeholder})
		at += i + len(f.text)
	}
}

// edgeFragments finds a part of f at either end of v: its end at the start
// of v, or its start at the end of v, where these are the text's.
func edgeFragments(v view, f form) []span {
	text := v.text
	if len(text) < MinFragment {
		return nil
	}
	var out []span
	// A fragment holds the first (last) MinFragment bytes of text: checking
	// that first spares the linear search for almost every form.
	if !v.inside && strings.Contains(f.text, text[:MinFragment]) {
		if n := overlap(f.text, text); n >= MinFragment {
			out = append(out, span{0, n, f.placeholder})
		}
	}
	if !v.beforeEnd && strings.Contains(f.text, text[len(text)-MinFragment:]) {
		if n := overlap(text, f.text); n >= MinFragment {
			out = append(out, span{len(text) - n, len(text), f.placeholder})
		}
	}
	return out
}

// overlap is the length of the longest suffix of a that is a prefix of b,
// found in linear time with the prefix function of b + separator + a (a
// quadratic search would let a long secret cost seconds per message).
func overlap(a, b string) int {
	n := min(len(a), len(b))
	a, b = a[len(a)-n:], b[:n]
	var seq []int
	for i := range n {
		seq = append(seq, int(b[i]))
	}
	seq = append(seq, separator)
	for i := range n {
		seq = append(seq, int(a[i]))
	}
	pi := make([]int, len(seq))
	for i := 1; i < len(seq); i++ {
		k := pi[i-1]
		for k > 0 && seq[i] != seq[k] {
			k = pi[k-1]
		}
		if seq[i] == seq[k] {
			k++
		}
		pi[i] = k
	}
	return pi[len(seq)-1]
}

// separator is a value no byte equals.
const separator = 256

// merged sorts spans and merges those that overlap or touch: the placeholder
// of the longest that starts first (the value that holds the others) stays.
func merged(spans []span) []span {
	slices.SortFunc(spans, func(a, b span) int { return cmp.Or(cmp.Compare(a.from, b.from), cmp.Compare(b.to, a.to)) })
	out := spans[:1]
	for _, s := range spans[1:] {
		last := &out[len(out)-1]
		if s.from <= last.to {
			last.to = max(last.to, s.to)
			continue
		}
		out = append(out, s)
	}
	return out
}

// replace writes text with spans, sorted and apart, replaced.
func replace(text string, spans []span) string {
	var b strings.Builder
	prev := 0
	for _, s := range spans {
		b.WriteString(text[prev:s.from])
		b.WriteString(s.placeholder)
		prev = s.to
	}
	b.WriteString(text[prev:])
	return b.String()
}
