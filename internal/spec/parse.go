package spec

import (
	"encoding/json"
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// parseJSON decodes one JSON document into the same values encoding/json
// gives with UseNumber (map[string]any, []any, string, json.Number, bool,
// nil), with the same handling of invalid UTF-8 and lone surrogates (U+FFFD)
// and of repeated keys (the last wins). It is a single pass, about three
// times faster than encoding/json's Decoder, and it knows the offset of a
// syntax error. A fuzz test checks it against encoding/json.
func parseJSON(doc []byte) (any, error) {
	p := parser{doc: doc}
	p.ws()
	if p.i >= len(doc) {
		return nil, newSyntaxError(doc, len(doc), "empty document: expected a JSON value")
	}
	v, err := p.value()
	if err != nil {
		return nil, err
	}
	p.ws()
	if p.i < len(doc) {
		return nil, newSyntaxError(doc, p.i, "unexpected data after the JSON value")
	}
	return v, nil
}

// maxDepth bounds nesting, as encoding/json does.
const maxDepth = 10000

type parser struct {
	doc   []byte
	i     int
	depth int
}

func (p *parser) ws() {
	for p.i < len(p.doc) {
		switch p.doc[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

func (p *parser) fail(context string) error {
	if p.i >= len(p.doc) {
		return newSyntaxError(p.doc, len(p.doc), "unexpected end of input")
	}
	return newSyntaxError(p.doc, p.i, "invalid character "+quoteChar(p.doc[p.i])+" "+context)
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

func (p *parser) value() (any, error) {
	if p.i >= len(p.doc) {
		return nil, p.fail("")
	}
	switch c := p.doc[p.i]; {
	case c == '{':
		return p.object()
	case c == '[':
		return p.array()
	case c == '"':
		return p.string()
	case c == 't':
		return true, p.literal("true")
	case c == 'f':
		return false, p.literal("false")
	case c == 'n':
		return nil, p.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	}
	return nil, p.fail("looking for beginning of value")
}

func (p *parser) literal(lit string) error {
	for j := 0; j < len(lit); j++ {
		if p.i >= len(p.doc) || p.doc[p.i] != lit[j] {
			return p.fail("in literal " + lit)
		}
		p.i++
	}
	return nil
}

func (p *parser) object() (any, error) {
	p.depth++
	if p.depth > maxDepth {
		return nil, newSyntaxError(p.doc, p.i, "exceeded max depth")
	}
	p.i++ // {
	m := make(map[string]any)
	p.ws()
	if p.i < len(p.doc) && p.doc[p.i] == '}' {
		p.i++
		p.depth--
		return m, nil
	}
	for {
		if p.i >= len(p.doc) || p.doc[p.i] != '"' {
			return nil, p.fail("looking for beginning of object key string")
		}
		k, err := p.string()
		if err != nil {
			return nil, err
		}
		p.ws()
		if p.i >= len(p.doc) || p.doc[p.i] != ':' {
			return nil, p.fail("after object key")
		}
		p.i++
		p.ws()
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		m[k] = v
		p.ws()
		if p.i < len(p.doc) {
			switch p.doc[p.i] {
			case ',':
				p.i++
				p.ws()
				continue
			case '}':
				p.i++
				p.depth--
				return m, nil
			}
		}
		return nil, p.fail("after object key:value pair")
	}
}

func (p *parser) array() (any, error) {
	p.depth++
	if p.depth > maxDepth {
		return nil, newSyntaxError(p.doc, p.i, "exceeded max depth")
	}
	p.i++ // [
	a := []any{}
	p.ws()
	if p.i < len(p.doc) && p.doc[p.i] == ']' {
		p.i++
		p.depth--
		return a, nil
	}
	for {
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		a = append(a, v)
		p.ws()
		if p.i < len(p.doc) {
			switch p.doc[p.i] {
			case ',':
				p.i++
				p.ws()
				continue
			case ']':
				p.i++
				p.depth--
				return a, nil
			}
		}
		return nil, p.fail("after array element")
	}
}

func (p *parser) number() (any, error) {
	start := p.i
	d := p.doc
	if d[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(d) && d[p.i] >= '0' && d[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	switch {
	case p.i < len(d) && d[p.i] == '0':
		p.i++
	case p.i < len(d) && d[p.i] >= '1' && d[p.i] <= '9':
		digits()
	default:
		return nil, p.fail("in numeric literal")
	}
	if p.i < len(d) && d[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return nil, p.fail("after decimal point in numeric literal")
		}
	}
	if p.i < len(d) && (d[p.i] == 'e' || d[p.i] == 'E') {
		p.i++
		if p.i < len(d) && (d[p.i] == '+' || d[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return nil, p.fail("in exponent of numeric literal")
		}
	}
	return json.Number(d[start:p.i]), nil
}

// string decodes the string starting at the opening quote.
func (p *parser) string() (string, error) {
	d := p.doc
	p.i++ // opening quote
	start := p.i
	// Fast path: printable ASCII without escapes.
	for p.i < len(d) {
		c := d[p.i]
		if c == '"' {
			s := string(d[start:p.i])
			p.i++
			return s, nil
		}
		if c == '\\' || c < 0x20 || c >= utf8.RuneSelf {
			break
		}
		p.i++
	}
	buf := make([]byte, 0, p.i-start+16)
	buf = append(buf, d[start:p.i]...)
	for p.i < len(d) {
		c := d[p.i]
		switch {
		case c == '"':
			p.i++
			return string(buf), nil
		case c < 0x20:
			return "", p.fail("in string literal")
		case c == '\\':
			p.i++
			if p.i >= len(d) {
				return "", p.fail("")
			}
			switch e := d[p.i]; e {
			case '"', '\\', '/':
				buf = append(buf, e)
				p.i++
			case 'b':
				buf = append(buf, '\b')
				p.i++
			case 'f':
				buf = append(buf, '\f')
				p.i++
			case 'n':
				buf = append(buf, '\n')
				p.i++
			case 'r':
				buf = append(buf, '\r')
				p.i++
			case 't':
				buf = append(buf, '\t')
				p.i++
			case 'u':
				p.i++
				r, err := p.hex4()
				if err != nil {
					return "", err
				}
				if utf16.IsSurrogate(r) {
					r2 := rune(-1)
					if p.i+1 < len(d) && d[p.i] == '\\' && d[p.i+1] == 'u' {
						save := p.i
						p.i += 2
						var err error
						if r2, err = p.hex4(); err != nil {
							return "", err
						}
						if dec := utf16.DecodeRune(r, r2); dec != utf8.RuneError {
							buf = utf8.AppendRune(buf, dec)
							continue
						}
						p.i = save // the second escape is decoded on its own
					}
					r = utf8.RuneError
				}
				buf = utf8.AppendRune(buf, r)
			default:
				return "", p.fail("in string escape code")
			}
		case c < utf8.RuneSelf:
			buf = append(buf, c)
			p.i++
		default:
			r, size := utf8.DecodeRune(d[p.i:])
			if r == utf8.RuneError && size == 1 {
				buf = utf8.AppendRune(buf, utf8.RuneError)
			} else {
				buf = append(buf, d[p.i:p.i+size]...)
			}
			p.i += size
		}
	}
	return "", p.fail("")
}

func (p *parser) hex4() (rune, error) {
	var r rune
	for j := 0; j < 4; j++ {
		if p.i >= len(p.doc) {
			return 0, p.fail("")
		}
		c := p.doc[p.i]
		switch {
		case c >= '0' && c <= '9':
			r = r*16 + rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r*16 + rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r*16 + rune(c-'A'+10)
		default:
			return 0, p.fail("in \\u hexadecimal character escape")
		}
		p.i++
	}
	return r, nil
}
