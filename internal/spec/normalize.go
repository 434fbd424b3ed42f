package spec

import (
	"encoding/json"
	"fmt"
	"slices"
	"unicode/utf8"
)

// SyntaxError reports a document that is not a single JSON value.
type SyntaxError struct {
	// Line and Column locate the error in the input, 1-based.
	Line, Column int
	// Offset is the byte offset of the error in the input.
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string {
	return fmt.Sprintf("invalid JSON at line %d, column %d: %s", e.Line, e.Column, e.Msg)
}

// decode parses one JSON document (numbers as json.Number); errors are
// *SyntaxError. See parseJSON.
func decode(doc []byte) (any, error) { return parseJSON(doc) }

func newSyntaxError(doc []byte, off int, msg string) *SyntaxError {
	if off > len(doc) {
		off = len(doc)
	}
	line, col := offsetLineCol(doc, off)
	return &SyntaxError{Line: line, Column: col, Offset: off, Msg: msg}
}

// Normalize returns the compact, stable form of a JSON document: object keys
// sorted, no insignificant whitespace, numbers kept as written. Two documents
// are semantically equal exactly when their normal forms are byte-equal.
//
// Strings are re-encoded (escapes resolved, then written with the minimal
// escaping; <, > and & are not escaped), so "\u00e9" and "é" normalise alike.
// When an object repeats a key, the last value wins, as in encoding/json.
// Errors are *SyntaxError.
func Normalize(doc []byte) ([]byte, error) {
	v, err := parseTree(doc)
	if err != nil {
		return nil, err
	}
	return encodeNormal(make([]byte, 0, len(doc)), v), nil
}

// encodeNormal appends the normal form of a decoded value.
func encodeNormal(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		if v {
			return append(b, "true"...)
		}
		return append(b, "false"...)
	case json.Number:
		return append(b, v...)
	case string:
		return appendString(b, v)
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = encodeNormal(b, e)
		}
		return append(b, ']')
	case *object:
		// Members are sorted and unique already.
		b = append(b, '{')
		for i := range v.members {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, v.members[i].key)
			b = append(b, ':')
			b = encodeNormal(b, v.members[i].val)
		}
		return append(b, '}')
	case map[string]any:
		var small [16]string
		keys := small[:0]
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		b = append(b, '{')
		for i, k := range keys {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, k)
			b = append(b, ':')
			b = encodeNormal(b, v[k])
		}
		return append(b, '}')
	default:
		// Not produced by decode; keep the encoder total.
		out, _ := json.Marshal(v)
		return append(b, out...)
	}
}

const hexDigits = "0123456789abcdef"

// plainASCII marks the bytes appendString copies as they are.
var plainASCII = func() (t [256]bool) {
	for c := range t {
		t[c] = c >= 0x20 && c < utf8.RuneSelf && c != '"' && c != '\\'
	}
	return t
}()

// appendString appends s as a JSON string with minimal escaping (as
// encoding/json does, but without HTML escaping).
func appendString(b []byte, s string) []byte {
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		if i+8 <= len(s) && plain8(load64(s, i)) {
			i += 8
			continue
		}
		c := s[i]
		if plainASCII[c] {
			i++
			continue
		}
		if c < utf8.RuneSelf {
			b = append(b, s[start:i]...)
			switch c {
			case '"', '\\':
				b = append(b, '\\', c)
			case '\n':
				b = append(b, '\\', 'n')
			case '\r':
				b = append(b, '\\', 'r')
			case '\t':
				b = append(b, '\\', 't')
			default:
				b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b = append(b, s[start:i]...)
			b = append(b, `\ufffd`...)
			i += size
			start = i
			continue
		}
		if r == '\u2028' || r == '\u2029' {
			b = append(b, s[start:i]...)
			b = append(b, '\\', 'u', '2', '0', '2', hexDigits[r&0xf])
			i += size
			start = i
			continue
		}
		i += size
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}
