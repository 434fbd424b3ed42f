package spec

import (
	"bytes"
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
)

// This file maps JSON pointers to line:column positions in the caller's
// original text. It runs only when a document has problems. It reads the
// document with encoding/json's Decoder, which gives each token's end
// offset, and descends only into the values on the way to a wanted pointer.

// target is one position to find: the value at ptr, or (key) the member name
// that introduces it.
type target struct {
	ptr string
	key bool
}

// locate returns the byte offset of each target it finds in doc, a document
// jsoncanon.Decode accepted.
func locate(doc []byte, targets []target) map[target]int {
	l := locator{doc: doc, dec: json.NewDecoder(bytes.NewReader(doc)), found: map[target]int{}, want: map[target]bool{}, onPath: map[string]bool{"": true}}
	for _, t := range targets {
		l.want[t] = true
		for p := t.ptr; p != ""; p = p[:max(0, strings.LastIndexByte(p, '/'))] {
			l.onPath[p] = true
		}
	}
	_ = l.value("") // the text was decoded before: no error here
	return l.found
}

type locator struct {
	doc    []byte
	dec    *json.Decoder
	want   map[target]bool
	onPath map[string]bool // the wanted pointers and their ancestors
	found  map[target]int
}

// next returns the offset of the next token: the Decoder reports the end of
// the last one, and consumes the whitespace and separators before the next.
func (l *locator) next() int {
	i := int(l.dec.InputOffset())
	for i < len(l.doc) {
		switch l.doc[i] {
		case ' ', '\t', '\n', '\r', ',', ':':
			i++
		default:
			return i
		}
	}
	return i
}

func (l *locator) record(t target, off int) {
	if l.want[t] {
		l.found[t] = off
	}
}

// value reads the value at ptr, descending into it when a wanted pointer
// lies below.
func (l *locator) value(ptr string) error {
	l.record(target{ptr, false}, l.next())
	tok, err := l.dec.Token()
	if err != nil {
		return err
	}
	switch tok {
	case json.Delim('{'):
		for l.dec.More() {
			keyAt := l.next()
			key, err := l.dec.Token()
			if err != nil {
				return err
			}
			name, _ := key.(string)
			child := ptr + "/" + jsoncanon.EscapeToken(name)
			l.record(target{child, true}, keyAt)
			if err := l.member(child); err != nil {
				return err
			}
		}
	case json.Delim('['):
		for i := 0; l.dec.More(); i++ {
			if err := l.member(ptr + "/" + strconv.Itoa(i)); err != nil {
				return err
			}
		}
	default:
		return nil
	}
	_, err = l.dec.Token() // the closing delimiter
	return err
}

// member reads the value at ptr, or skips it when nothing wanted is there.
func (l *locator) member(ptr string) error {
	if l.onPath[ptr] {
		return l.value(ptr)
	}
	var skip json.RawMessage
	return l.dec.Decode(&skip)
}

func lineStarts(doc []byte) []int {
	idx := []int{0}
	for i, c := range doc {
		if c == '\n' {
			idx = append(idx, i+1)
		}
	}
	return idx
}

// lineCol converts a byte offset to a 1-based line and column (columns count
// characters, not bytes).
func lineCol(doc []byte, starts []int, off int) (int, int) {
	off = min(max(off, 0), len(doc))
	line := sort.Search(len(starts), func(i int) bool { return starts[i] > off }) - 1
	return line + 1, utf8.RuneCount(doc[starts[line]:off]) + 1
}
