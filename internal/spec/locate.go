package spec

import (
	"encoding/json"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file maps JSON pointers to line:column positions in the caller's
// original text. It runs only when a document has problems, with one pass
// over the text that descends only into the values on the way to a wanted
// pointer.

// target is one position to find: the value at ptr, or (key) the member name
// that introduces it.
type target struct {
	ptr string
	key bool
}

type locator struct {
	doc     []byte
	want    map[target]int // -> byte offset, -1 when not found
	prefix  map[string]bool
	lineIdx []int // byte offsets of line starts
}

func newLocator(doc []byte, targets []target) *locator {
	l := &locator{doc: doc, want: make(map[target]int, len(targets)), prefix: map[string]bool{"": true}}
	for _, t := range targets {
		l.want[t] = -1
		p := t.ptr
		for {
			l.prefix[p] = true
			i := strings.LastIndexByte(p, '/')
			if i < 0 {
				break
			}
			p = p[:i]
		}
	}
	i := skipWS(doc, 0)
	if i < len(doc) {
		l.walk(i, "")
	}
	return l
}

// offset returns the byte offset of a target, or -1.
func (l *locator) offset(t target) int {
	if off, ok := l.want[t]; ok {
		return off
	}
	return -1
}

// lineCol converts a byte offset to a 1-based line and column (columns count
// characters, not bytes).
func (l *locator) lineCol(off int) (int, int) {
	if off < 0 {
		return 0, 0
	}
	if l.lineIdx == nil {
		l.lineIdx = lineStarts(l.doc)
	}
	return lineColAt(l.doc, l.lineIdx, off)
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

func lineColAt(doc []byte, starts []int, off int) (int, int) {
	if off > len(doc) {
		off = len(doc)
	}
	line := sort.Search(len(starts), func(i int) bool { return starts[i] > off }) - 1
	if line < 0 {
		line = 0
	}
	return line + 1, utf8.RuneCount(doc[starts[line]:off]) + 1
}

// offsetLineCol converts a byte offset to line and column without a locator.
func offsetLineCol(doc []byte, off int) (int, int) {
	return lineColAt(doc, lineStarts(doc), off)
}

// walk records the value starting at doc[i] under pointer ptr and descends
// when a wanted pointer lies below it. It returns the offset after the value.
func (l *locator) walk(i int, ptr string) int {
	if _, ok := l.want[target{ptr, false}]; ok {
		l.want[target{ptr, false}] = i
	}
	if i >= len(l.doc) {
		return i
	}
	switch l.doc[i] {
	case '{':
		i = skipWS(l.doc, i+1)
		if i < len(l.doc) && l.doc[i] == '}' {
			return i + 1
		}
		for i < len(l.doc) {
			keyStart := i
			end := skipString(l.doc, i)
			child := ptr + "/" + escapePointer(decodeKey(l.doc[keyStart:end]))
			if _, ok := l.want[target{child, true}]; ok {
				l.want[target{child, true}] = keyStart
			}
			i = skipWS(l.doc, end)
			if i < len(l.doc) && l.doc[i] == ':' {
				i = skipWS(l.doc, i+1)
			}
			if l.prefix[child] {
				i = l.walk(i, child)
			} else {
				i = skipValue(l.doc, i)
			}
			i = skipWS(l.doc, i)
			if i < len(l.doc) && l.doc[i] == ',' {
				i = skipWS(l.doc, i+1)
				continue
			}
			if i < len(l.doc) && l.doc[i] == '}' {
				i++
			}
			return i
		}
		return i
	case '[':
		i = skipWS(l.doc, i+1)
		if i < len(l.doc) && l.doc[i] == ']' {
			return i + 1
		}
		for n := 0; i < len(l.doc); n++ {
			child := ptr + "/" + strconv.Itoa(n)
			if l.prefix[child] {
				i = l.walk(i, child)
			} else {
				i = skipValue(l.doc, i)
			}
			i = skipWS(l.doc, i)
			if i < len(l.doc) && l.doc[i] == ',' {
				i = skipWS(l.doc, i+1)
				continue
			}
			if i < len(l.doc) && l.doc[i] == ']' {
				i++
			}
			return i
		}
		return i
	default:
		return skipValue(l.doc, i)
	}
}

func skipWS(doc []byte, i int) int {
	for i < len(doc) {
		switch doc[i] {
		case ' ', '\t', '\n', '\r':
			i++
		default:
			return i
		}
	}
	return i
}

// skipString returns the offset after the string starting at doc[i] (a '"').
func skipString(doc []byte, i int) int {
	i++
	for i < len(doc) {
		switch doc[i] {
		case '\\':
			i += 2
		case '"':
			return i + 1
		default:
			i++
		}
	}
	return len(doc)
}

// skipValue returns the offset after the (syntactically valid) value at doc[i].
func skipValue(doc []byte, i int) int {
	if i >= len(doc) {
		return i
	}
	switch doc[i] {
	case '"':
		return skipString(doc, i)
	case '{', '[':
		depth := 0
		for i < len(doc) {
			switch doc[i] {
			case '"':
				i = skipString(doc, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return i
	default:
		for i < len(doc) {
			switch doc[i] {
			case ',', '}', ']', ' ', '\t', '\n', '\r':
				return i
			}
			i++
		}
		return i
	}
}

// decodeKey decodes a JSON string token (with its quotes).
func decodeKey(raw []byte) string {
	if len(raw) >= 2 && !containsByte(raw, '\\') && utf8.Valid(raw) {
		return string(raw[1 : len(raw)-1])
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return string(raw)
	}
	return s
}

func containsByte(b []byte, c byte) bool {
	for _, x := range b {
		if x == c {
			return true
		}
	}
	return false
}

// escapePointer escapes one RFC 6901 reference token.
func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// splitPointer splits a JSON pointer into its unescaped tokens.
func splitPointer(p string) []string {
	if p == "" {
		return nil
	}
	parts := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, s := range parts {
		if strings.Contains(s, "~") {
			parts[i] = strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
		}
	}
	return parts
}
