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
	"sort"
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

// compare orders two records by o, then by name.
func (o ordering) compare(av sortValues, an string, bv sortValues, bn string) int {
	for _, k := range o {
		c := strings.Compare(av[k.field], bv[k.field])
		if k.desc {
			c = -c
		}
		if c != 0 {
			return c
		}
	}
	return strings.Compare(an, bn)
}

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

func encodeOrderedToken(o ordering, v sortValues, name string, qh uint64) string {
	t := orderedToken{After: name, Query: qh}
	for _, k := range o {
		t.Keys = append(t.Keys, v[k.field])
	}
	b, _ := json.Marshal(t)
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

// pageOrdered sorts items by o and returns the page of size after the
// token tok (issued for the query hash qh), and the next page's token.
func pageOrdered[T any](items []T, o ordering, vals func(T) sortValues, name func(T) string, tok string, qh uint64, size int) ([]T, string, error) {
	afterVals, after, err := decodeOrderedToken(tok, o, qh)
	if err != nil {
		return nil, "", err
	}
	slices.SortFunc(items, func(a, b T) int { return o.compare(vals(a), name(a), vals(b), name(b)) })
	start := 0
	if tok != "" {
		start = sort.Search(len(items), func(i int) bool { return o.compare(vals(items[i]), name(items[i]), afterVals, after) > 0 })
	}
	end := min(start+size, len(items))
	page := items[start:end]
	if end == len(items) {
		return page, "", nil
	}
	last := page[len(page)-1]
	return page, encodeOrderedToken(o, vals(last), name(last), qh), nil
}

// listOrdered is listPage with an orderBy (the request's, against fields):
// without one it is listPage; with one it reads every matching record of
// group (a chunk at a time under the read lock, as listPage does) and sorts
// them.
func listOrdered[T any](s *Server, r *http.Request, c *collection[T], group, method, filter string, match func(T) bool,
	fields []string, vals func(T) sortValues, name func(T) string) ([]T, string, error) {
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
	var all []T
	err = scanGroup(s, r, c, group, "", 256, func(_ string, v T) bool {
		if match == nil || match(v) {
			all = append(all, v)
		}
		return true
	})
	if err != nil {
		return nil, "", err
	}
	return pageOrdered(all, o, vals, name, r.URL.Query().Get("pageToken"), queryHash(method, group, filter, orderBy), size)
}

// keyed is a record with its order keys, computed once: a comparison then
// costs string compares, never a map built or a time parsed.
type keyed[T any] struct {
	v    T
	name string
	keys []string
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
