package jsoncanon

import (
	"slices"
	"strconv"
)

// Change is one place where two documents differ: the JSON pointer of the
// member or element, and its compact value in each document (nil where the
// document has no such member).
type Change struct {
	Pointer string
	A, B    []byte
}

// Diff lists where documents a and b differ, by Equal's rules, in document
// order (object members sorted by name), at most limit changes. Objects are
// compared member by member and arrays of the same length element by element;
// anything else that differs (a type, a scalar, an array's length) is one
// change at its pointer. The error is Decode's, a's first.
func Diff(a, b []byte, limit int) ([]Change, error) {
	va, err := Decode(a)
	if err != nil {
		return nil, err
	}
	vb, err := Decode(b)
	if err != nil {
		return nil, err
	}
	d := differ{limit: limit}
	d.walk("", va, vb, true, true)
	return d.out, nil
}

type differ struct {
	out   []Change
	limit int
}

// walk compares a and b at pointer p; hasA and hasB say whether each side has
// a value there at all.
func (d *differ) walk(p string, a, b any, hasA, hasB bool) {
	if len(d.out) >= d.limit || (hasA && hasB && equalValues(a, b)) {
		return
	}
	if hasA && hasB {
		if ma, ok := a.(map[string]any); ok {
			if mb, ok := b.(map[string]any); ok {
				d.members(p, ma, mb)
				return
			}
		}
		if xa, ok := a.([]any); ok {
			if xb, ok := b.([]any); ok && len(xa) == len(xb) {
				for i := range xa {
					d.walk(p+"/"+strconv.Itoa(i), xa[i], xb[i], true, true)
				}
				return
			}
		}
	}
	c := Change{Pointer: p}
	if hasA {
		c.A = AppendCompact(nil, a)
	}
	if hasB {
		c.B = AppendCompact(nil, b)
	}
	d.out = append(d.out, c)
}

func (d *differ) members(p string, a, b map[string]any) {
	keys := make([]string, 0, len(a)+len(b))
	for k := range a {
		keys = append(keys, k)
	}
	for k := range b {
		if _, ok := a[k]; !ok {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		va, hasA := a[k]
		vb, hasB := b[k]
		d.walk(p+"/"+EscapeToken(k), va, vb, hasA, hasB)
	}
}
