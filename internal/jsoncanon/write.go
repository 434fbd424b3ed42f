package jsoncanon

import (
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"
)

// Canonical returns the RFC 8785 (JCS) form of a document: object members
// sorted by the UTF-16 code units of their names, no whitespace, strings with
// JCS's minimal escaping, numbers in ECMAScript form (see appendES). Every
// document Decode accepts has one: its errors are Decode's (*Error).
func Canonical(doc []byte) ([]byte, error) {
	v, err := Decode(doc)
	if err != nil {
		return nil, err
	}
	w := writer{canonical: true, b: make([]byte, 0, len(doc))}
	w.value(v)
	return w.b, nil
}

// Compact returns the form of a document that is sent on the wire: the
// Canonical form except that numbers stay as written, so that no value is
// rounded before the registry sees it. A document whose numbers are already
// in ECMAScript form compacts to its canonical bytes. Errors are *Error.
func Compact(doc []byte) ([]byte, error) {
	v, err := Decode(doc)
	if err != nil {
		return nil, err
	}
	return AppendCompact(make([]byte, 0, len(doc)), v), nil
}

// AppendCompact appends the Compact form of a decoded value: one that Decode
// returns, or one built of the same types (map[string]any, []any, string,
// json.Number, bool, nil). Any other type is a programming error and panics.
func AppendCompact(b []byte, v any) []byte {
	w := writer{b: b}
	w.value(v)
	return w.b
}

type writer struct {
	b         []byte
	canonical bool
	keys      []string // the member names of the objects being written
}

func (w *writer) value(v any) {
	switch v := v.(type) {
	case nil:
		w.b = append(w.b, "null"...)
	case bool:
		w.b = appendBool(w.b, v)
	case string:
		w.b = appendString(w.b, v)
	case json.Number:
		w.number(v)
	case []any:
		w.array(v)
	case map[string]any:
		w.object(v)
	default:
		panic(fmt.Sprintf("jsoncanon: %T is not a decoded JSON value", v))
	}
}

func appendBool(b []byte, v bool) []byte {
	if v {
		return append(b, "true"...)
	}
	return append(b, "false"...)
}

func (w *writer) number(n json.Number) {
	if w.canonical {
		w.b = appendES(w.b, n)
		return
	}
	w.b = append(w.b, n...)
}

func (w *writer) array(a []any) {
	w.b = append(w.b, '[')
	for i, e := range a {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.value(e)
	}
	w.b = append(w.b, ']')
}

// object writes m's members in canonical order. Their names are sorted on
// w.keys, shared by the nested objects, rather than in a slice per object.
func (w *writer) object(m map[string]any) {
	base := len(w.keys)
	for k := range m {
		w.keys = append(w.keys, k)
	}
	keys := w.keys[base:]
	slices.SortFunc(keys, compareUTF16)
	defer func() { w.keys = w.keys[:base] }()
	w.b = append(w.b, '{')
	for i, k := range keys {
		if i > 0 {
			w.b = append(w.b, ',')
		}
		w.b = append(appendString(w.b, k), ':')
		w.value(m[k])
	}
	w.b = append(w.b, '}')
}

// compareUTF16 orders strings by their UTF-16 code units, as RFC 8785 sorts
// member names. It differs from byte order only where a character beyond
// U+FFFF (a surrogate pair, 0xD800-0xDFFF) meets one in U+E000-U+FFFF.
func compareUTF16(a, b string) int {
	i := 0
	for i < len(a) && i < len(b) && a[i] == b[i] {
		i++
	}
	for i > 0 && i < len(a) && !utf8.RuneStart(a[i]) {
		i-- // back to the start of the character that differs
	}
	if i == len(a) || i == len(b) {
		return len(a) - len(b)
	}
	ra, _ := utf8.DecodeRuneInString(a[i:])
	rb, _ := utf8.DecodeRuneInString(b[i:])
	if ua, ub := utf16Unit(ra), utf16Unit(rb); ua != ub {
		return ua - ub
	}
	// Two surrogate pairs with the same high surrogate: the low ones
	// follow the code points.
	return int(ra - rb)
}

// utf16Unit is the first UTF-16 code unit of r.
func utf16Unit(r rune) int {
	if r >= 0x10000 {
		return 0xD800 + int((r-0x10000)>>10)
	}
	return int(r)
}

// appendString writes s with JCS's escaping: \" \\ \b \f \n \r \t, \u00xx
// (lower-case hex) for the other control characters, everything else as is.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xf])
		}
		start = i + 1
	}
	return append(append(b, s[start:]...), '"')
}
