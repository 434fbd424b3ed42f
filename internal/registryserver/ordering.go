package registryserver

// orderBy (AIP-132) on the lists that take it. The discovery document says
// only "Hint for how to order the results"; the bundled server orders by the
// fields each collection lists (camelCase or snake_case), comma-separated,
// each optionally followed by "desc" (or "asc"), and refuses any other
// field with INVALID_ARGUMENT rather than ignore it. The resource name is
// always the last key, so records equal on every field stay in name order
// and pages are stable: a page token holds the keys of the last record
// returned, and the next page starts after them, whatever was written since.

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"
)

type orderKey struct {
	field string
	desc  bool
}

// ordering is a parsed orderBy; empty is name order.
type ordering []orderKey

// sortValues are a record's values of the fields it can be ordered by, as
// strings that compare in the field's order (times by timeKey).
type sortValues map[string]string

// parseOrderBy parses orderBy against the fields a collection can be ordered by.
func parseOrderBy(orderBy string, fields []string) (ordering, error) {
	if strings.TrimSpace(orderBy) == "" {
		return nil, nil
	}
	bad := func(format string, args ...any) error {
		msg := fmt.Sprintf(format, args...) + "; the fields are " + strings.Join(fields, ", ") + ", each optionally followed by desc"
		return errViolations("invalid order_by: "+msg, []fieldViolation{{Field: "order_by", Description: msg}})
	}
	var o ordering
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

// timeKey writes an RFC 3339 time so that times compare as strings
// (RFC3339Nano drops trailing zeros, so "…05Z" sorts after "…05.1Z").
func timeKey(t string) string {
	v, err := time.Parse(time.RFC3339Nano, t)
	if err != nil {
		return t
	}
	return v.UTC().Format("2006-01-02T15:04:05.000000000Z")
}

// orderedToken is the page token of an ordered list: the name and the
// order keys of the last record returned, and the hash of the query.
type orderedToken struct {
	After string   `json:"a"`
	Keys  []string `json:"k,omitempty"`
	Query uint64   `json:"q"`
}

func encodeOrderedToken(keys []string, name string, qh uint64) string {
	b, _ := json.Marshal(orderedToken{After: name, Keys: keys, Query: qh})
	return base64.RawURLEncoding.EncodeToString(b)
}

// decodeOrderedToken returns the position a page token continues from
// (nil values and "" for the first page).
func decodeOrderedToken(tok string, o ordering, qh uint64) (sortValues, string, error) {
	if tok == "" {
		return nil, "", nil
	}
	var t orderedToken
	b, err := base64.RawURLEncoding.DecodeString(tok)
	if err == nil {
		err = json.Unmarshal(b, &t)
	}
	if err != nil || len(t.Keys) != len(o) {
		return nil, "", errForeignToken(tok)
	}
	if t.Query != qh {
		return nil, "", errTokenOfAnotherQuery()
	}
	v := sortValues{}
	for i, k := range o {
		v[k.field] = t.Keys[i]
	}
	return v, t.After, nil
}

// listOrdered is listPage with an orderBy (the request's, against fields):
// without one it is listPage; with one it scans every matching record of
// group (a chunk at a time under the read lock, as listPage does, and under
// the list's deadline), computes each one's keys once, and keeps only the
// page's worth that follow the token's position, in a heap: a page costs a
// scan and O(n log page) comparisons, never a sort of the collection, and
// the work stops when the deadline passes.
func listOrdered[T any](s *Server, r *http.Request, c *collection[T], group, method, filter string, match func(T) bool,
	fields []string, key func(v T, field string) string, name func(T) string) ([]T, string, error) {
	orderBy := r.URL.Query().Get("orderBy")
	o, err := parseOrderBy(orderBy, fields)
	if err != nil || len(o) == 0 {
		if err != nil {
			return nil, "", err
		}
		return listPage(s, r, c, group, method, filter, match)
	}
	size, err := queryPageSize(r)
	if err != nil {
		return nil, "", err
	}
	qh := queryHash(method, group, filter, orderBy)
	tok := r.URL.Query().Get("pageToken")
	afterVals, after, err := decodeOrderedToken(tok, o, qh)
	if err != nil {
		return nil, "", err
	}
	afterKeys := o.keysOf(afterVals)
	top := &topK[T]{o: o, limit: size + 1}
	err = scanGroup(s, r, c, group, "", 256, func(_ string, v T, w int) bool {
		if match != nil && !match(v) {
			return true
		}
		keys := make([]string, len(o))
		for i, f := range o {
			keys[i] = key(v, f.field)
		}
		k := keyed[T]{v: v, name: name(v), keys: keys, w: w}
		if tok == "" || o.compareKeyed(k.keys, k.name, afterKeys, after) > 0 {
			top.push(k)
		}
		return true
	})
	if err != nil {
		return nil, "", err
	}
	page, next := top.page(size, qh)
	return page, next, nil
}

// pageOrdered returns the page of size of items, ordered by o, after the
// token tok (issued for the query hash qh), and the next page's token; like
// listOrdered, it keeps only the page's worth, in a heap.
func pageOrdered[T any](items []T, o ordering, vals func(T) sortValues, name func(T) string, weight func(T) int, tok string, qh uint64, size int) ([]T, string, error) {
	afterVals, after, err := decodeOrderedToken(tok, o, qh)
	if err != nil {
		return nil, "", err
	}
	afterKeys := o.keysOf(afterVals)
	top := &topK[T]{o: o, limit: size + 1}
	for _, v := range items {
		k := keyed[T]{v: v, name: name(v), keys: o.keysOf(vals(v))}
		if tok == "" || o.compareKeyed(k.keys, k.name, afterKeys, after) > 0 {
			if weight != nil {
				k.w = weight(v)
			}
			top.push(k)
		}
	}
	page, next := top.page(size, qh)
	return page, next, nil
}

// page is the first size records kept, in order, at most maxPageBytes of
// them (one at least), and the token of the next page ("" when they are
// all).
func (t *topK[T]) page(size int, qh uint64) ([]T, string) {
	items := t.sorted()
	page := make([]T, 0, min(size, len(items)))
	bytes := 0
	for _, k := range items[:min(size, len(items))] {
		if len(page) > 0 && bytes+k.w > maxPageBytes {
			break
		}
		page, bytes = append(page, k.v), bytes+k.w
	}
	if len(items) <= len(page) {
		return page, ""
	}
	last := items[len(page)-1]
	return page, encodeOrderedToken(last.keys, last.name, qh)
}

// topK keeps the limit smallest records pushed, by o: a max-heap, so the
// largest kept is at the root and is what a smaller record replaces.
type topK[T any] struct {
	o     ordering
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

// keysOf are the values of v in o's fields, in o's order.
func (o ordering) keysOf(v sortValues) []string {
	keys := make([]string, len(o))
	for i, k := range o {
		keys[i] = v[k.field]
	}
	return keys
}

// compareKeyed orders two keyed records by o, then by name.
func (o ordering) compareKeyed(ak []string, an string, bk []string, bn string) int {
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
func sortKeyed[T any](items []T, o ordering, vals func(T) sortValues, name func(T) string) []T {
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
