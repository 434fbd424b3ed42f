// Package redact blanks secrets out of text before it leaves the provider: an
// error, a diagnostic (which Terraform also writes to its trace log), the end
// of a process's stderr, an answer a peer sent. It is the one place where that
// is done. A caller registers each secret value once (the values of a live data
// source's env and headers; later an OAuth client secret, private key or access
// token) and passes every text that may quote one through Blank.
//
// Peers seldom echo a secret verbatim. Blank also finds a value:
//   - wrapped over lines (a line break, and the spaces or tabs that indent the
//     next line, anywhere inside it);
//   - base64-encoded, in the standard and URL alphabets, with and without
//     padding, alone or inside a longer encoded text (the "user:password" of
//     HTTP Basic authentication, say);
//   - URL-encoded, as a query value or a path segment, with upper or lower case
//     hex digits;
//   - escaped as a JSON string;
//   - cut at either end of the text: a quoted excerpt (the last 2 KiB of
//     stderr, the start of a body) may begin with the end of a secret or end
//     with its start. Such a fragment is blanked when it is at least
//     MinFragment bytes long.
//
// Values shorter than MinLength bytes are not registered: blanking every "1" or
// "true" would blank the message itself.
package redact

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/url"
	"regexp"
	"slices"
	"sort"
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
	mu    sync.RWMutex
	forms []form // every spelling of every value, flattened, longest first
	seen  map[string]bool
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
	flat, _ := flatten(value)
	if len(flat) < MinLength {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.seen == nil {
		s.seen = map[string]bool{}
	}
	for _, f := range spellings(value) {
		if f, _ = flatten(f); len(f) >= MinLength && !s.seen[f] {
			s.seen[f] = true
			s.forms = append(s.forms, form{text: f, placeholder: "(" + label + ")"})
		}
	}
	sort.SliceStable(s.forms, func(i, j int) bool { return len(s.forms[i].text) > len(s.forms[j].text) })
}

// Strings returns every spelling registered (the values and their encoded
// forms), for loggers that mask exact strings, such as tflog.MaskMessageStrings.
func (s *Secrets) Strings() []string {
	if s == nil {
		return nil
	}
	s.mu.RLock()
	defer s.mu.RUnlock()
	out := make([]string, len(s.forms))
	for i, f := range s.forms {
		out[i] = f.text
	}
	return out
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
	flat, offsets := flatten(text)
	var spans []span
	for _, f := range forms {
		spans = append(spans, occurrences(flat, f)...)
		spans = append(spans, edgeFragments(flat, f)...)
	}
	if len(spans) == 0 {
		return text
	}
	return replace(text, toOriginal(spans, offsets, len(text)))
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

// spellings are the ways value may be written in a message: as is, escaped
// in JSON, URL-encoded and base64-encoded.
func spellings(value string) []string {
	out := []string{value, jsonEscaped(value, true), jsonEscaped(value, false)}
	for _, esc := range []string{url.QueryEscape(value), url.PathEscape(value)} {
		out = append(out, esc, lowerHex.ReplaceAllStringFunc(esc, strings.ToLower))
	}
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		out = append(out, enc.EncodeToString([]byte(value)))
		out = append(out, base64Cores(enc.WithPadding(base64.NoPadding), value)...)
	}
	return out
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
		from, to := (8*k+5)/6, 8*(k+len(value))/6
		if from < to {
			out = append(out, encoded[from:to])
		}
	}
	return out
}

// flatten removes line breaks (CR, LF, CRLF) and the spaces and tabs that
// start the next line, so that a value wrapped over lines reads whole again.
// offsets[i] is the position in text of flat[i]; nil when nothing was removed.
func flatten(text string) (flat string, offsets []int) {
	if !strings.ContainsAny(text, "\r\n") {
		return text, nil
	}
	var b strings.Builder
	offsets = make([]int, 0, len(text))
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '\r' && c != '\n' {
			b.WriteByte(c)
			offsets = append(offsets, i)
			continue
		}
		for i+1 < len(text) && strings.IndexByte("\r\n \t", text[i+1]) >= 0 {
			i++
		}
	}
	return b.String(), offsets
}

// span is a range of bytes [from, to) to blank, and its placeholder.
type span struct {
	from, to    int
	placeholder string
}

func occurrences(flat string, f form) []span {
	var out []span
	for at := 0; ; {
		i := strings.Index(flat[at:], f.text)
		if i < 0 {
			return out
		}
		out = append(out, span{at + i, at + i + len(f.text), f.placeholder})
		at += i + len(f.text)
	}
}

// edgeFragments finds a part of f at either end of flat: its end at the start
// of flat, or its start at the end of flat.
func edgeFragments(flat string, f form) []span {
	if len(flat) < MinFragment {
		return nil
	}
	var out []span
	// A fragment holds the first (last) MinFragment bytes of flat: checking
	// that first spares the linear search for almost every form.
	if strings.Contains(f.text, flat[:MinFragment]) {
		if n := overlap(f.text, flat); n >= MinFragment {
			out = append(out, span{0, n, f.placeholder})
		}
	}
	if strings.Contains(f.text, flat[len(flat)-MinFragment:]) {
		if n := overlap(flat, f.text); n >= MinFragment {
			out = append(out, span{len(flat) - n, len(flat), f.placeholder})
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
	seq := make([]int, 0, 2*n+1)
	for i := range n {
		seq = append(seq, int(b[i]))
	}
	seq = append(seq, -1) // a separator no byte equals
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

// toOriginal maps spans of the flat text onto text, sorted and merged.
func toOriginal(spans []span, offsets []int, textLen int) []span {
	at := func(i int) int {
		switch {
		case offsets == nil:
			return i
		case i >= len(offsets):
			return textLen
		}
		return offsets[i]
	}
	for i, s := range spans {
		spans[i].from, spans[i].to = at(s.from), at(s.to-1)+1
	}
	slices.SortFunc(spans, func(a, b span) int { return a.from - b.from })
	merged := spans[:1]
	for _, s := range spans[1:] {
		last := &merged[len(merged)-1]
		if s.from <= last.to {
			last.to = max(last.to, s.to)
			continue
		}
		merged = append(merged, s)
	}
	return merged
}

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
