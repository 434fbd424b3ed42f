package spec

import (
	"encoding/json"
	"slices"
	"strconv"
	"strings"
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
	v, err := parseTree(doc)
	if err != nil {
		return nil, err
	}
	return toStd(v), nil
}

// object is a parsed JSON object: its members sorted by key (byte order),
// each key once (the last occurrence wins, as in encoding/json). The
// evaluator and the normaliser walk it in that order without sorting or
// hashing; toStd turns it into a map[string]any.
type object struct {
	members []member
}

type member struct {
	key string
	val any
}

// get returns the value of member k.
func (o *object) get(k string) (any, bool) {
	ms := o.members
	if len(ms) <= 8 {
		for i := range ms {
			if ms[i].key == k {
				return ms[i].val, true
			}
		}
		return nil, false
	}
	lo, hi := 0, len(ms)
	for lo < hi {
		h := int(uint(lo+hi) >> 1)
		if ms[h].key < k {
			lo = h + 1
		} else {
			hi = h
		}
	}
	if lo < len(ms) && ms[lo].key == k {
		return ms[lo].val, true
	}
	return nil, false
}

func (o *object) has(k string) bool {
	_, ok := o.get(k)
	return ok
}

// keys returns the member names, sorted.
func (o *object) keys() []string {
	out := make([]string, len(o.members))
	for i := range o.members {
		out[i] = o.members[i].key
	}
	return out
}

// toStd converts a parsed tree (with *object) to the values encoding/json
// gives (with map[string]any).
func toStd(v any) any {
	switch v := v.(type) {
	case *object:
		m := make(map[string]any, len(v.members))
		for _, mb := range v.members {
			m[mb.key] = toStd(mb.val)
		}
		return m
	case []any:
		a := make([]any, len(v))
		for i, e := range v {
			a[i] = toStd(e)
		}
		return a
	}
	return v
}

// parseTree decodes one JSON document like parseJSON, with objects as
// *object.
func parseTree(doc []byte) (any, error) {
	p := parser{doc: doc, src: string(doc), members: make([]member, 0, 32), elems: make([]any, 0, 64)}
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
	doc []byte
	// src is doc as a string, converted once: strings without escapes and
	// numbers are substrings of it rather than copies.
	src   string
	i     int
	depth int
	// members and elems are stacks of the members and elements of the
	// objects and arrays being parsed; a container is built with its exact
	// size once its last member is known.
	members []member
	elems   []any
	// The objects, members and array elements of the result are carved from
	// these chunks, to allocate a few blocks per document rather than a few
	// per value.
	objArena    []object
	memberArena []member
	elemArena   []any
}

// chunk is the size of a new arena block, for at least n values: about one
// value per 32 bytes of the text not parsed yet.
func (p *parser) chunk(n int) int {
	return max(n, 16, (len(p.doc)-p.i)/32)
}

func (p *parser) newObject(ms []member) *object {
	if len(p.objArena) == 0 {
		p.objArena = make([]object, p.chunk(1)/4+1)
	}
	o := &p.objArena[0]
	p.objArena = p.objArena[1:]
	o.members = ms
	return o
}

func (p *parser) allocMembers(n int) []member {
	if n > len(p.memberArena) {
		p.memberArena = make([]member, p.chunk(n))
	}
	out := p.memberArena[:n:n]
	p.memberArena = p.memberArena[n:]
	return out
}

func (p *parser) allocElems(n int) []any {
	if n > len(p.elemArena) {
		p.elemArena = make([]any, p.chunk(n))
	}
	out := p.elemArena[:n:n]
	p.elemArena = p.elemArena[n:]
	return out
}

// sortMembers sorts ms by key, stably, and drops all but the last of
// repeated keys; it returns the remaining prefix.
func sortMembers(ms []member) []member {
	sorted := true
	for j := 1; j < len(ms); j++ {
		if ms[j].key <= ms[j-1].key {
			sorted = false
			break
		}
	}
	if sorted {
		return ms
	}
	if len(ms) <= 12 {
		for j := 1; j < len(ms); j++ {
			for k := j; k > 0 && ms[k].key < ms[k-1].key; k-- {
				ms[k], ms[k-1] = ms[k-1], ms[k]
			}
		}
	} else {
		slices.SortStableFunc(ms, func(a, b member) int { return strings.Compare(a.key, b.key) })
	}
	out := ms[:0]
	for j := range ms {
		if j+1 < len(ms) && ms[j+1].key == ms[j].key {
			continue // a later member repeats the key
		}
		out = append(out, ms[j])
	}
	return out
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
	p.ws()
	if p.i < len(p.doc) && p.doc[p.i] == '}' {
		p.i++
		p.depth--
		return p.newObject(nil), nil
	}
	base := len(p.members)
	defer func() { p.members = p.members[:base] }()
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
		p.members = append(p.members, member{k, v})
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
				ms := p.members[base:]
				sorted := sortMembers(ms)
				out := p.allocMembers(len(sorted))
				copy(out, sorted)
				clear(ms)
				return p.newObject(out), nil
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
	p.ws()
	if p.i < len(p.doc) && p.doc[p.i] == ']' {
		p.i++
		p.depth--
		return []any{}, nil
	}
	base := len(p.elems)
	defer func() { p.elems = p.elems[:base] }()
	for {
		v, err := p.value()
		if err != nil {
			return nil, err
		}
		p.elems = append(p.elems, v)
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
				es := p.elems[base:]
				a := p.allocElems(len(es))
				copy(a, es)
				clear(es)
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
	return json.Number(p.src[start:p.i]), nil
}

// string decodes the string starting at the opening quote.
func (p *parser) string() (string, error) {
	d := p.doc
	p.i++ // opening quote
	start := p.i
	// Fast path: valid UTF-8 without escapes or control characters, a
	// substring of the text.
	for p.i < len(d) {
		if p.i+8 <= len(d) && plain8(load64(p.src, p.i)) {
			p.i += 8
			continue
		}
		c := d[p.i]
		if !strSpecial[c] {
			p.i++
			continue
		}
		if c == '"' {
			s := p.src[start:p.i]
			p.i++
			return s, nil
		}
		if c < utf8.RuneSelf {
			break // an escape or a control character
		}
		r, size := utf8.DecodeRune(d[p.i:])
		if r == utf8.RuneError && size == 1 {
			break // invalid UTF-8, replaced below
		}
		p.i += size
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

// load64 returns the 8 bytes of s at i as a little-endian word.
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// plain8 reports whether none of the 8 bytes of x is a quote, a backslash,
// a control character or a non-ASCII byte (the bytes strSpecial marks).
func plain8(x uint64) bool {
	const lo, hi = 0x0101010101010101, 0x8080808080808080
	// A byte sets its high bit in x - 0x20 when it is below 0x20, in
	// (x^'"') - 1 when it is '"', in (x^'\\') - 1 when it is '\\'. A borrow
	// from a lower byte only happens when that byte is itself flagged.
	m := (x - lo*0x20) | ((x ^ lo*'"') - lo) | ((x ^ lo*'\\') - lo) | x
	return m&hi == 0
}

// strSpecial marks the bytes that end the fast path of parser.string: the
// quote, the backslash, control characters and non-ASCII bytes.
var strSpecial = func() (t [256]bool) {
	for c := range t {
		t[c] = c == '"' || c == '\\' || c < 0x20 || c >= utf8.RuneSelf
	}
	return t
}()

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
