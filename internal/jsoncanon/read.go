package jsoncanon

import (
	"encoding/json"
	"fmt"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// Decode reads one JSON document into the values encoding/json gives with
// UseNumber: map[string]any, []any, string, json.Number (as written), bool
// and nil. Unlike encoding/json it refuses duplicate keys, invalid UTF-8 and
// unpaired surrogate escapes (ErrDuplicateKey, ErrInvalidUnicode) and nesting
// beyond MaxDepth (ErrDepth). Errors are *Error.
func Decode(doc []byte) (any, error) {
	r := reader{doc: doc, src: string(doc)}
	r.ws()
	if r.i >= len(doc) {
		return nil, r.errorAt(ErrSyntax, len(doc), "empty document: expected a JSON value")
	}
	v, err := r.value()
	if err != nil {
		return nil, err
	}
	r.ws()
	if r.i < len(doc) {
		return nil, r.errorAt(ErrSyntax, r.i, "unexpected data after the JSON value")
	}
	return v, nil
}

type reader struct {
	doc []byte
	// src is doc as a string, converted once: strings without escapes and
	// numbers are substrings of it rather than copies.
	src  string
	i    int
	path []pathToken // to the value being read; for error pointers
	// The members and elements of the objects and arrays being read.
	members []member
	elems   []any
}

func (r *reader) errorAt(kind error, off int, msg string) *Error {
	return &Error{Kind: kind, Offset: off, Msg: msg}
}

// fail reports a syntax error at the current byte, worded as encoding/json does.
func (r *reader) fail(context string) *Error {
	if r.i >= len(r.doc) {
		return r.errorAt(ErrSyntax, len(r.doc), "unexpected end of input")
	}
	return r.errorAt(ErrSyntax, r.i, "invalid character "+quoteChar(r.doc[r.i])+" "+context)
}

func quoteChar(c byte) string {
	switch c {
	case '\'':
		return `'\''`
	case '"':
		return `'"'`
	}
	s := strconv.Quote(string(rune(c)))
	return "'" + s[1:len(s)-1] + "'"
}

func (r *reader) ws() {
	for r.i < len(r.doc) {
		switch r.doc[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

// at reports whether the current byte is c.
func (r *reader) at(c byte) bool { return r.i < len(r.doc) && r.doc[r.i] == c }

func (r *reader) value() (any, error) {
	if r.i >= len(r.doc) {
		return nil, r.fail("")
	}
	switch c := r.doc[r.i]; {
	case c == '{':
		return r.object()
	case c == '[':
		return r.array()
	case c == '"':
		return r.string()
	case c == 't':
		return true, r.literal("true")
	case c == 'f':
		return false, r.literal("false")
	case c == 'n':
		return nil, r.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return r.number()
	}
	return nil, r.fail("looking for beginning of value")
}

func (r *reader) literal(lit string) error {
	for j := 0; j < len(lit); j++ {
		if !r.at(lit[j]) {
			return r.fail("in literal " + lit)
		}
		r.i++
	}
	return nil
}

// enter steps into an array or object at the current byte.
func (r *reader) enter() error {
	if len(r.path) >= MaxDepth {
		e := r.errorAt(ErrDepth, r.i, fmt.Sprintf("arrays and objects nested more than %d deep", MaxDepth))
		e.Pointer = pointer(r.path)
		return e
	}
	r.i++
	r.ws()
	return nil
}

// object reads an object. Its members gather on r.members until the end,
// so that the map is made at its final size.
func (r *reader) object() (any, error) {
	if err := r.enter(); err != nil {
		return nil, err
	}
	if r.at('}') {
		r.i++
		return map[string]any{}, nil
	}
	base := len(r.members)
	defer func() { r.members = r.members[:base] }()
	for {
		if !r.at('"') {
			return nil, r.fail("looking for beginning of object key string")
		}
		keyOff := r.i
		k, err := r.string()
		if err != nil {
			return nil, err
		}
		r.ws()
		if !r.at(':') {
			return nil, r.fail("after object key")
		}
		r.i++
		r.ws()
		r.path = append(r.path, pathToken{key: k, isKey: true})
		v, err := r.value()
		if err != nil {
			return nil, err
		}
		r.path = r.path[:len(r.path)-1]
		r.members = append(r.members, member{k, v, keyOff})
		r.ws()
		if r.at('}') {
			break
		}
		if !r.at(',') {
			return nil, r.fail("after object key:value pair")
		}
		r.i++
		r.ws()
	}
	r.i++ // }
	return r.makeObject(r.members[base:])
}

// member is an object member read but not yet in its map.
type member struct {
	key string
	val any
	off int // of the key, for a duplicate
}

func (r *reader) makeObject(ms []member) (any, error) {
	m := make(map[string]any, len(ms))
	for _, mb := range ms {
		if _, dup := m[mb.key]; dup {
			e := r.errorAt(ErrDuplicateKey, mb.off, fmt.Sprintf("duplicate key %q: an object may name a key once", mb.key))
			e.Pointer = pointer(append(r.path, pathToken{key: mb.key, isKey: true}))
			return nil, e
		}
		m[mb.key] = mb.val
	}
	return m, nil
}

// array reads an array; its elements gather on r.elems until the end.
func (r *reader) array() (any, error) {
	if err := r.enter(); err != nil {
		return nil, err
	}
	if r.at(']') {
		r.i++
		return []any{}, nil
	}
	base := len(r.elems)
	defer func() { r.elems = r.elems[:base] }()
	for {
		r.path = append(r.path, pathToken{index: len(r.elems) - base})
		v, err := r.value()
		if err != nil {
			return nil, err
		}
		r.path = r.path[:len(r.path)-1]
		r.elems = append(r.elems, v)
		r.ws()
		if r.at(']') {
			break
		}
		if !r.at(',') {
			return nil, r.fail("after array element")
		}
		r.i++
		r.ws()
	}
	r.i++ // ]
	return append(make([]any, 0, len(r.elems)-base), r.elems[base:]...), nil
}

// number reads a number as written (RFC 8259 grammar) and refuses one beyond
// the range of IEEE 754 doubles: I-JSON (RFC 7493 §2.2), on which RFC 8785
// builds, allows only numbers a double holds, so such a number has no
// canonical form, and the registry, which keeps numbers as doubles, could not
// store it. Refusing it here, where every validator, the tool lock and
// equality read documents, keeps them from disagreeing on it.
func (r *reader) number() (any, error) {
	start := r.i
	r.skip('-')
	switch {
	case r.at('0'):
		r.i++
	case r.digits() == 0:
		return nil, r.fail("in numeric literal")
	}
	if r.skip('.') && r.digits() == 0 {
		return nil, r.fail("after decimal point in numeric literal")
	}
	if r.skip('e') || r.skip('E') {
		if !r.skip('+') {
			r.skip('-')
		}
		if r.digits() == 0 {
			return nil, r.fail("in exponent of numeric literal")
		}
	}
	lit := r.src[start:r.i]
	if !inDoubleRange(lit) {
		e := r.errorAt(ErrNumber, start, fmt.Sprintf("number %s is beyond the range of an IEEE 754 double (at most "+
			"1.7976931348623157e308 in magnitude): I-JSON and RFC 8785 allow only numbers a double holds", shortLiteral(lit)))
		e.Pointer = pointer(r.path)
		return nil, e
	}
	return json.Number(lit), nil
}

// shortLiteral is a number literal as a message shows it: whole up to 40
// characters, else its first 40 and its length.
func shortLiteral(lit string) string {
	const most = 40
	if len(lit) <= most {
		return lit
	}
	return fmt.Sprintf("%s… (%d characters)", lit[:most], len(lit))
}

// skip consumes c when it is the current byte.
func (r *reader) skip(c byte) bool {
	if r.at(c) {
		r.i++
		return true
	}
	return false
}

func (r *reader) digits() int {
	n := 0
	for r.i < len(r.doc) && r.doc[r.i] >= '0' && r.doc[r.i] <= '9' {
		r.i++
		n++
	}
	return n
}

// string reads the string starting at the opening quote. A string without
// escapes is a substring of the input; the rest is decoded into a buffer.
func (r *reader) string() (string, error) {
	r.i++ // opening quote
	start := r.i
	for r.i < len(r.doc) {
		switch c := r.doc[r.i]; {
		case c == '"':
			r.i++
			return r.src[start : r.i-1], nil
		case c == '\\' || c < 0x20:
			return r.escapedString(start)
		case c < utf8.RuneSelf:
			r.i++
		default:
			if err := r.rune(); err != nil {
				return "", err
			}
		}
	}
	return "", r.fail("")
}

// rune steps over one multi-byte UTF-8 sequence.
func (r *reader) rune() error {
	rn, size := utf8.DecodeRune(r.doc[r.i:])
	if rn == utf8.RuneError && size == 1 {
		return r.errorAt(ErrInvalidUnicode, r.i, fmt.Sprintf("invalid UTF-8 byte 0x%02x in a string", r.doc[r.i]))
	}
	r.i += size
	return nil
}

// escapedString finishes a string that has escapes (or a control character,
// an error), its text starting at start.
func (r *reader) escapedString(start int) (string, error) {
	buf := append(make([]byte, 0, r.i-start+16), r.doc[start:r.i]...)
	for r.i < len(r.doc) {
		switch c := r.doc[r.i]; {
		case c == '"':
			r.i++
			return string(buf), nil
		case c < 0x20:
			return "", r.fail("in string literal")
		case c == '\\':
			var err error
			if buf, err = r.escape(buf); err != nil {
				return "", err
			}
		case c < utf8.RuneSelf:
			buf = append(buf, c)
			r.i++
		default:
			from := r.i
			if err := r.rune(); err != nil {
				return "", err
			}
			buf = append(buf, r.doc[from:r.i]...)
		}
	}
	return "", r.fail("")
}

var simpleEscapes = map[byte]byte{'"': '"', '\\': '\\', '/': '/', 'b': '\b', 'f': '\f', 'n': '\n', 'r': '\r', 't': '\t'}

// escape decodes the escape at the current backslash onto buf.
func (r *reader) escape(buf []byte) ([]byte, error) {
	at := r.i
	r.i++
	if r.i >= len(r.doc) {
		return nil, r.fail("")
	}
	if c, ok := simpleEscapes[r.doc[r.i]]; ok {
		r.i++
		return append(buf, c), nil
	}
	if r.doc[r.i] != 'u' {
		return nil, r.fail("in string escape code")
	}
	r.i++
	u, err := r.hex4()
	if err != nil {
		return nil, err
	}
	if !utf16.IsSurrogate(u) {
		return utf8.AppendRune(buf, u), nil
	}
	if r.i+1 < len(r.doc) && r.doc[r.i] == '\\' && r.doc[r.i+1] == 'u' {
		r.i += 2
		u2, err := r.hex4()
		if err != nil {
			return nil, err
		}
		if dec := utf16.DecodeRune(u, u2); dec != utf8.RuneError {
			return utf8.AppendRune(buf, dec), nil
		}
	}
	return nil, r.errorAt(ErrInvalidUnicode, at, fmt.Sprintf("unpaired surrogate \\u%04x in a string", u))
}

func (r *reader) hex4() (rune, error) {
	var u rune
	for range 4 {
		if r.i >= len(r.doc) {
			return 0, r.fail("")
		}
		c := r.doc[r.i]
		switch {
		case c >= '0' && c <= '9':
			u = u*16 + rune(c-'0')
		case c >= 'a' && c <= 'f':
			u = u*16 + rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			u = u*16 + rune(c-'A'+10)
		default:
			return 0, r.fail("in \\u hexadecimal character escape")
		}
		r.i++
	}
	return u, nil
}
