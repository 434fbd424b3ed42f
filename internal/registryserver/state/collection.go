package state

import (
	"context"
	"encoding/json"
	"slices"
	"strings"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
)

// docFields are the values of a record's fields, as a filter reads them.
type docFields = searchquery.Fields

// collection holds the records of one kind by name and, for each group
// (the parent whose list method pages through them), their names in order,
// so that a page is found by a binary search and costs what it returns
// rather than a scan and a sort of the whole collection. Guarded by the
// state's lock.
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
	if c.perLoc[ParentOf(name)] >= limit {
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
		c.perLoc[ParentOf(name)]++
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
	if loc := ParentOf(name); c.perLoc[loc] > 1 {
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

// list returns the page of size of group's records in c that follow after
// (nil: the first page) and match (all of them when match is nil), in name
// order, and where the next page starts after (nil when this one is the
// last). Records are taken a chunk at a time under the read lock and
// matched outside it, so that a filter costly enough to scan every record
// never holds up a write; without a filter the first chunk is the page. The
// scan stops with ctx's error when ctx ends.
func list[T any](ctx context.Context, s *State, c *collection[T], group string, after *search.Position, size int, match func(T) bool) ([]T, *search.Position, error) {
	chunk := size + 1
	if match != nil {
		chunk = max(chunk, 256)
	}
	var names []string
	var page []T
	bytes, cut := 0, false
	err := scanGroup(ctx, s, c, group, positionName(after), chunk, func(name string, v T, w int) bool {
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
		return nil, nil, err
	}
	if cut {
		return page, &search.Position{Name: names[len(names)-1]}, nil
	}
	if len(page) > size {
		return page[:size], &search.Position{Name: names[size-1]}, nil
	}
	return page, nil, nil
}

// positionName is the name a position is at, "" for the first page.
func positionName(p *search.Position) string {
	if p == nil {
		return ""
	}
	return p.Name
}

// listOrdered is list ordered by o: without an order it is list; with one
// it scans every matching record of group (a chunk at a time under the read
// lock, as list does, and until ctx ends), computes each one's keys once
// (key gives a record's value of a field), and keeps only the page's worth
// that follow after (search.Top): a page costs a scan and O(n log page)
// comparisons, never a sort of the collection.
func listOrdered[T any](ctx context.Context, s *State, c *collection[T], group string, o search.Ordering, after *search.Position, size int,
	match func(T) bool, key func(v T, field string) string, name func(T) string) ([]T, *search.Position, error) {
	if len(o) == 0 {
		return list(ctx, s, c, group, after, size, match)
	}
	top := search.NewTop[T](o, after, size)
	keyFields := o.Fields()
	err := scanGroup(ctx, s, c, group, "", 256, func(_ string, v T, w int) bool {
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
		return nil, nil, err
	}
	page, next := top.Page()
	return page, next, nil
}

// scanGroup calls keep with the records of group whose names sort after
// `after`, in name order, until keep returns false or the group ends. The
// records are taken chunk at a time under the read lock and given to keep
// outside it, so that a costly keep never holds up a write; the scan stops
// with ctx's error when ctx ends.
func scanGroup[T any](ctx context.Context, s *State, c *collection[T], group, after string, chunk int, keep func(name string, v T, weight int) bool) error {
	for {
		if err := ctx.Err(); err != nil {
			return err
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

// get is the record name of c, or NOT_FOUND naming its kind, what.
func get[T any](s *State, c *collection[T], name, what string) (T, error) {
	s.mu.RLock()
	v, ok := c.get(name)
	s.mu.RUnlock()
	if !ok {
		return v, errNotFound("%s %q was not found.", what, name)
	}
	return v, nil
}

// matcher is the test of a record against a list's filter (node, parsed
// against fs; doc gives a record's fields): nil, every record, without one.
func matcher[T any](node searchquery.Node, fs *searchquery.Schema, doc func(T) searchquery.Fields) func(T) bool {
	if node == nil {
		return nil
	}
	return func(v T) bool { return searchquery.MatchNode(node, fs, doc(v)) }
}
