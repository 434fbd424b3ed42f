package registryserver

import (
	"context"
	"encoding/json"
	"net/http"
	"slices"
	"strings"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
)

// collection holds the records of one kind by name and, for each group
// (the parent whose list method pages through them), their names in order,
// so that a page is found by a binary search and costs what it returns
// rather than a scan and a sort of the whole collection. Guarded by the
// server's lock.
type collection[T any] struct {
	byName map[string]T
	order  map[string][]string // group -> names, sorted
	group  func(name string) string
	perLoc map[string]int // projects/{p}/locations/{l} -> how many records it holds
	// weights are the records' sizes (their JSON, or weigh's measure),
	// which bound a list page's bytes (search.MaxPageBytes).
	weights map[string]int
	weigh   func(T) int
}

// jsonWeight is a record's size as JSON.
func jsonWeight[T any](v T) int {
	b, _ := json.Marshal(v)
	return len(b)
}

// newCollection returns an empty collection whose list pages are the
// records under the part of their name before sep (e.g. "/services/").
func newCollection[T any](sep string) *collection[T] {
	return &collection[T]{byName: map[string]T{}, order: map[string][]string{}, perLoc: map[string]int{}, weights: map[string]int{}, weigh: jsonWeight[T], group: func(name string) string {
		if i := strings.LastIndex(name, sep); i >= 0 {
			return name[:i]
		}
		return ""
	}}
}

// full refuses a create in the location of name when it holds limit records
// already: what one client can make the server hold (and a list scan) is
// bounded per location.
func (c *collection[T]) full(name, what string, limit int) error {
	if c.perLoc[parentOf(name)] >= limit {
		return errExhausted("the bundled server keeps at most %d %s per location; delete some first", limit, what)
	}
	return nil
}

func (c *collection[T]) get(name string) (T, bool) {
	v, ok := c.byName[name]
	return v, ok
}

func (c *collection[T]) put(name string, v T) {
	if _, ok := c.byName[name]; !ok {
		g := c.group(name)
		names := c.order[g]
		i, _ := slices.BinarySearch(names, name)
		c.order[g] = slices.Insert(names, i, name)
		c.perLoc[parentOf(name)]++
	}
	c.byName[name] = v
	c.weights[name] = c.weigh(v)
}

func (c *collection[T]) delete(name string) {
	if _, ok := c.byName[name]; !ok {
		return
	}
	delete(c.byName, name)
	delete(c.weights, name)
	if loc := parentOf(name); c.perLoc[loc] > 1 {
		c.perLoc[loc]--
	} else {
		delete(c.perLoc, loc)
	}
	g := c.group(name)
	names := c.order[g]
	if i, found := slices.BinarySearch(names, name); found {
		names = slices.Delete(names, i, i+1)
	}
	if len(names) == 0 {
		delete(c.order, g)
	} else {
		c.order[g] = names
	}
}

// page returns the first n records of group whose names sort strictly after
// `after`, in name order, with their names.
func (c *collection[T]) page(group, after string, n int) ([]string, []T) {
	names, vals, _ := c.pageWeighed(group, after, n)
	return names, vals
}

// pageWeighed is page with the records' weights.
func (c *collection[T]) pageWeighed(group, after string, n int) ([]string, []T, []int) {
	names := c.order[group]
	i, found := slices.BinarySearch(names, after)
	if found {
		i++
	}
	names = slices.Clone(names[i:min(i+n, len(names))])
	vals := make([]T, len(names))
	weights := make([]int, len(names))
	for k, name := range names {
		vals[k], weights[k] = c.byName[name], c.weights[name]
	}
	return names, vals, weights
}

// listPage returns one page of group's records in c that match (all of them
// when match is nil), in name order, and the next page token. The page size
// and token come from r; the token is bound to method, group and query (the
// filter as sent), so it cannot continue another list. Records are taken a
// chunk at a time under the read lock and matched outside it, so that a
// filter costly enough to scan every record never holds up a write; without
// a filter the first chunk is the page.
func listPage[T any](s *Server, r *http.Request, c *collection[T], group, method, query string, match func(T) bool) ([]T, string, error) {
	size, err := queryPageSize(r)
	if err != nil {
		return nil, "", err
	}
	qh := queryHash(method, group, query)
	after, err := decodePageToken(r.URL.Query().Get("pageToken"), qh)
	if err != nil {
		return nil, "", err
	}
	chunk := size + 1
	if match != nil {
		chunk = max(chunk, 256)
	}
	var names []string
	var page []T
	bytes, cut := 0, false
	err = scanGroup(s, r, c, group, after, chunk, func(name string, v T, w int) bool {
		switch {
		case match != nil && !match(v):
			return true
		case len(page) > 0 && len(page) < size && bytes+w > search.MaxPageBytes:
			cut = true // the page is full by bytes; this record starts the next
			return false
		}
		names, page, bytes = append(names, name), append(page, v), bytes+w
		return len(page) <= size
	})
	if err != nil {
		return nil, "", err
	}
	if cut {
		return page, encodePageToken(names[len(names)-1], qh), nil
	}
	if len(page) > size {
		return page[:size], encodePageToken(names[size-1], qh), nil
	}
	return page, "", nil
}

// listOrdered is listPage with an orderBy (the request's, against fields):
// without one it is listPage; with one it scans every matching record of
// group (a chunk at a time under the read lock, as listPage does, and under
// the list's deadline), computes each one's keys once, and keeps only the
// page's worth that follow the token's position (search.Top): a page costs
// a scan and O(n log page) comparisons, never a sort of the collection, and
// the work stops when the deadline passes.
func listOrdered[T any](s *Server, r *http.Request, c *collection[T], group, method, filter string, match func(T) bool,
	fields []string, key func(v T, field string) string, name func(T) string) ([]T, string, error) {
	orderBy := r.URL.Query().Get("orderBy")
	o, err := search.ParseOrderBy(orderBy, fields)
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
	after, err := decodeOrderedToken(r.URL.Query().Get("pageToken"), o, qh)
	if err != nil {
		return nil, "", err
	}
	top := search.NewTop[T](o, after, size)
	keyFields := o.Fields()
	err = scanGroup(s, r, c, group, "", 256, func(_ string, v T, w int) bool {
		if match != nil && !match(v) {
			return true
		}
		keys := make([]string, len(keyFields))
		for i, f := range keyFields {
			keys[i] = key(v, f)
		}
		top.Offer(v, name(v), keys, w)
		return true
	})
	if err != nil {
		return nil, "", err
	}
	page, next := top.Page()
	return page, encodePosition(next, o, qh), nil
}

// scanGroup calls keep with the records of group whose names sort after
// `after`, in name order, until keep returns false or the group ends. The
// records are taken chunk at a time under the read lock and given to keep
// outside it, so that a costly keep never holds up a write; the scan stops
// when r's context or the server's time limit ends.
func scanGroup[T any](s *Server, r *http.Request, c *collection[T], group, after string, chunk int, keep func(name string, v T, weight int) bool) error {
	ctx, cancel := context.WithTimeout(r.Context(), s.searchTimeout())
	defer cancel()
	for {
		if err := ctx.Err(); err != nil {
			return s.searchAborted(r, "list", err)
		}
		s.mu.RLock()
		ns, vals, ws := c.pageWeighed(group, after, chunk)
		s.mu.RUnlock()
		for i, v := range vals {
			if !keep(ns[i], v, ws[i]) {
				return nil
			}
		}
		if len(ns) < chunk {
			return nil
		}
		after = ns[len(ns)-1]
	}
}

// getOne serves a get of one record of c; what names its kind in the 404.
func getOne[T any](s *Server, w http.ResponseWriter, c *collection[T], name, what string) {
	s.mu.RLock()
	v, ok := c.get(name)
	s.mu.RUnlock()
	if !ok {
		s.writeError(w, errNotFound("%s %q was not found.", what, name))
		return
	}
	writeJSON(w, http.StatusOK, v)
}
