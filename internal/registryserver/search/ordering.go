package search

// orderBy (AIP-132) on the lists that take it. The discovery document says
// only "Hint for how to order the results"; the bundled server orders by the
// fields each collection lists (camelCase or snake_case), comma-separated,
// each optionally followed by "desc" (or "asc"), and refuses any other
// field with INVALID_ARGUMENT rather than ignore it. The resource name is
// always the last key, so records equal on every field stay in name order
// and pages are stable: a page token holds the keys of the last record
// returned, and the next page starts after them, whatever was written since.

import (
	"fmt"
	"slices"
	"strings"
	"time"
)

// MaxPageBytes bounds the records of one list page: a page stops before
// the record that would take it past this (it always holds one), and its
// next_page_token continues from there. Records are bounded (every string
// has a cap), so a page is too, whatever pageSize asks.
const MaxPageBytes = 4 << 20

type orderKey struct {
	field string
	desc  bool
}

// Ordering is a parsed orderBy; empty is name order.
type Ordering []orderKey

// SortValues are a record's values of the fields it can be ordered by, as
// strings that compare in the field's order (times by TimeKey).
type SortValues map[string]string

// Position is where a page ends, and the next one starts after: the name of
// its last record and, in an ordered list, that record's order keys.
type Position struct {
	Name string
	Keys []string
}

// name is the position's name, "" for none (the first page).
func (p *Position) name() string {
	if p == nil {
		return ""
	}
	return p.Name
}

// ParseOrderBy parses orderBy against the fields a collection can be ordered
// by; an error is a *FieldError on order_by.
func ParseOrderBy(orderBy string, fields []string) (Ordering, error) {
	if strings.TrimSpace(orderBy) == "" {
		return nil, nil
	}
	bad := func(format string, args ...any) error {
		msg := fmt.Sprintf(format, args...) + "; the fields are " + strings.Join(fields, ", ") + ", each optionally followed by desc"
		return invalidField("order_by", msg)
	}
	var o Ordering
	for _, part := range strings.Split(orderBy, ",") {
		words := strings.Fields(part)
		if len(words) == 0 || len(words) > 2 {
			return nil, bad("%q is not a field name optionally followed by desc", strings.TrimSpace(part))
		}
		i := slices.IndexFunc(fields, func(f string) bool { return foldName(f) == foldName(words[0]) })
		if i < 0 {
			return nil, bad("the results cannot be ordered by %q", words[0])
		}
		k := orderKey{field: fields[i]}
		if len(words) == 2 {
			switch strings.ToLower(words[1]) {
			case "desc":
				k.desc = true
			case "asc":
			default:
				return nil, bad("%q after %s is neither asc nor desc", words[1], words[0])
			}
		}
		if slices.ContainsFunc(o, func(p orderKey) bool { return p.field == k.field }) {
			return nil, bad("%s appears more than once", k.field)
		}
		o = append(o, k)
	}
	return o, nil
}

// foldName makes a field name case-insensitive and accepts the snake_case
// spelling (display_name) as well as camelCase.
func foldName(f string) string { return strings.ToLower(strings.ReplaceAll(f, "_", "")) }

// TimeKey writes an RFC 3339 time so that times compare as strings
// (RFC3339Nano drops trailing zeros, so "…05Z" sorts after "…05.1Z").
func TimeKey(t string) string {
	v, err := time.Parse(time.RFC3339Nano, t)
	if err != nil {
		return t
	}
	return v.UTC().Format("2006-01-02T15:04:05.000000000Z")
}

// PageOrdered returns the page of size of items, ordered by o, after the
// position after (nil: the first page), at most MaxPageBytes of them by
// weight (nil: no weight), and where the next page starts after (nil when
// this page is the last); it keeps only the page's worth, in a heap.
func PageOrdered[T any](items []T, o Ordering, vals func(T) SortValues, name func(T) string, weight func(T) int, after *Position, size int) ([]T, *Position) {
	top := NewTop[T](o, after, size)
	for _, v := range items {
		w := 0
		if weight != nil {
			w = weight(v)
		}
		top.Offer(v, name(v), o.keysOf(vals(v)), w)
	}
	return top.Page()
}

// Top keeps the page of an ordered list whose records are offered one by
// one: the size records that follow a position (nil: the first page), by
// an order, in a heap, so that a page costs O(n log size) comparisons, never
// a sort of the collection.
type Top[T any] struct {
	top   topK[T]
	after *Position
	size  int
}

// NewTop returns the page of size after after, by o.
func NewTop[T any](o Ordering, after *Position, size int) *Top[T] {
	return &Top[T]{top: topK[T]{o: o, limit: size + 1}, after: after, size: size}
}

// Offer keeps v, called name, with keys its order keys and weight its
// bytes, when it follows the position and is among the page's.
func (t *Top[T]) Offer(v T, name string, keys []string, weight int) {
	if t.after == nil || t.top.o.compareKeyed(keys, name, t.after.Keys, t.after.Name) > 0 {
		t.top.push(keyed[T]{v: v, name: name, keys: keys, w: weight})
	}
}

// Page is the page kept and where the next one starts after (nil when this
// one is the last).
func (t *Top[T]) Page() ([]T, *Position) { return t.top.page(t.size) }

// topK keeps the limit smallest records pushed, by o: a max-heap, so the
// largest kept is at the root and is what a smaller record replaces.
type topK[T any] struct {
	o     Ordering
	limit int
	h     []keyed[T]
}

func (t *topK[T]) less(i, j int) bool { // i sorts after j: the heap's order
	return t.o.compareKeyed(t.h[i].keys, t.h[i].name, t.h[j].keys, t.h[j].name) > 0
}

func (t *topK[T]) push(k keyed[T]) {
	if len(t.h) < t.limit {
		t.h = append(t.h, k)
		for i := len(t.h) - 1; i > 0 && t.less(i, (i-1)/2); i = (i - 1) / 2 {
			t.h[i], t.h[(i-1)/2] = t.h[(i-1)/2], t.h[i]
		}
		return
	}
	if t.o.compareKeyed(k.keys, k.name, t.h[0].keys, t.h[0].name) >= 0 {
		return
	}
	t.h[0] = k
	for i := 0; ; {
		m, l, r := i, 2*i+1, 2*i+2
		if l < len(t.h) && t.less(l, m) {
			m = l
		}
		if r < len(t.h) && t.less(r, m) {
			m = r
		}
		if m == i {
			return
		}
		t.h[i], t.h[m] = t.h[m], t.h[i]
		i = m
	}
}

// page is the first size records kept, in order, at most MaxPageBytes of
// them (one at least), and the position of the last (nil when they are
// all).
func (t *topK[T]) page(size int) ([]T, *Position) {
	items := t.sorted()
	page := make([]T, 0, min(size, len(items)))
	bytes := 0
	for _, k := range items[:min(size, len(items))] {
		if len(page) > 0 && bytes+k.w > MaxPageBytes {
			break
		}
		page, bytes = append(page, k.v), bytes+k.w
	}
	if len(items) <= len(page) {
		return page, nil
	}
	last := items[len(page)-1]
	return page, &Position{Name: last.name, Keys: last.keys}
}

// sorted returns what is kept, in order.
func (t *topK[T]) sorted() []keyed[T] {
	slices.SortFunc(t.h, func(a, b keyed[T]) int { return t.o.compareKeyed(a.keys, a.name, b.keys, b.name) })
	return t.h
}

// keyed is a record with its order keys, computed once: a comparison then
// costs string compares, never a map built or a time parsed.
type keyed[T any] struct {
	v    T
	name string
	keys []string
	w    int // its weight, for the page's byte bound
}

// Fields are the fields o orders by, in its order.
func (o Ordering) Fields() []string {
	fields := make([]string, len(o))
	for i, k := range o {
		fields[i] = k.field
	}
	return fields
}

// keysOf are the values of v in o's fields, in o's order.
func (o Ordering) keysOf(v SortValues) []string {
	keys := make([]string, len(o))
	for i, k := range o {
		keys[i] = v[k.field]
	}
	return keys
}

// compareKeyed orders two keyed records by o, then by name.
func (o Ordering) compareKeyed(ak []string, an string, bk []string, bn string) int {
	for i, k := range o {
		c := strings.Compare(ak[i], bk[i])
		if k.desc {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return strings.Compare(an, bn)
}

// sortKeyed sorts items by o, computing each one's keys once.
func sortKeyed[T any](items []T, o Ordering, vals func(T) SortValues, name func(T) string) []T {
	ks := make([]keyed[T], len(items))
	for i, v := range items {
		ks[i] = keyed[T]{v: v, name: name(v), keys: o.keysOf(vals(v))}
	}
	slices.SortFunc(ks, func(a, b keyed[T]) int { return o.compareKeyed(a.keys, a.name, b.keys, b.name) })
	out := make([]T, len(ks))
	for i, k := range ks {
		out[i] = k.v
	}
	return out
}
