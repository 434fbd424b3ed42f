package registryserver

// The inverted index behind agents:search and mcpServers:search. One index
// holds the derived records of one parent (project/location). Each document
// gets a small integer id; for every indexed field there is a posting list
// (sorted ids) per word and per whole lower-cased value, plus a lazily sorted
// term list for prefix queries. A query is evaluated to a bitset over ids, so
// AND/OR/NOT are word-wise operations and no document is scanned, except to
// confirm multi-word phrases among candidates that already contain every word.

import (
	"math/bits"
	"slices"
	"sort"
	"strings"
	"sync"
)

// allField is the pseudo-field that a bare keyword searches: the union of the
// keyword fields, indexed once so that a keyword costs one lookup.
const allField = ""

type postings map[string][]uint32

// termTable maps terms to posting lists and keeps a sorted term list for
// prefix lookups. The sorted list is rebuilt lazily on the first prefix query
// after a write; readers run concurrently (under the server's read lock), so
// the rebuild has its own mutex.
type termTable struct {
	post postings
	mu   sync.Mutex
	// sorted is nil when stale.
	sorted []string
}

func newTermTable() *termTable { return &termTable{post: postings{}} }

func (t *termTable) add(term string, id uint32) {
	l := t.post[term]
	if l == nil {
		t.sorted = nil
	}
	i, found := slices.BinarySearch(l, id)
	if found {
		return
	}
	t.post[term] = slices.Insert(l, i, id)
}

func (t *termTable) remove(term string, id uint32) {
	l := t.post[term]
	i, found := slices.BinarySearch(l, id)
	if !found {
		return
	}
	l = slices.Delete(l, i, i+1)
	if len(l) == 0 {
		delete(t.post, term)
		t.sorted = nil
		return
	}
	t.post[term] = l
}

func (t *termTable) terms() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.sorted == nil {
		s := make([]string, 0, len(t.post))
		for k := range t.post {
			s = append(s, k)
		}
		sort.Strings(s)
		t.sorted = s
	}
	return t.sorted
}

// withPrefix calls fn with the posting list of every term starting with p.
func (t *termTable) withPrefix(p string, fn func([]uint32)) {
	ts := t.terms()
	for i := sort.SearchStrings(ts, p); i < len(ts) && strings.HasPrefix(ts[i], p); i++ {
		fn(t.post[ts[i]])
	}
}

type index struct {
	fs    *fieldSet
	ids   map[string]uint32
	names []string    // id -> resource name ("" when free)
	docs  []docFields // id -> values, to confirm phrases
	free  []uint32
	live  bitset
	words map[string]*termTable // field (base, composite or allField) -> word -> ids
	exact map[string]*termTable // field (base or composite) -> lower(value) -> ids
}

func newIndex(fs *fieldSet) *index {
	ix := &index{fs: fs, ids: map[string]uint32{}, words: map[string]*termTable{}, exact: map[string]*termTable{}}
	for _, f := range fs.Base {
		ix.words[f], ix.exact[f] = newTermTable(), newTermTable()
	}
	for f := range fs.Composite {
		ix.words[f], ix.exact[f] = newTermTable(), newTermTable()
	}
	ix.words[allField] = newTermTable()
	return ix
}

func (ix *index) len() int { return len(ix.ids) }

// targets lists the tables a base field's values are indexed into: its own,
// any composite containing it, and allField when it is a keyword field.
func (ix *index) targets(f string) (words, exact []*termTable) {
	words = append(words, ix.words[f])
	exact = append(exact, ix.exact[f])
	for c, members := range ix.fs.Composite {
		if slices.Contains(members, f) {
			words = append(words, ix.words[c])
			exact = append(exact, ix.exact[c])
		}
	}
	if slices.Contains(ix.fs.Keyword, f) {
		words = append(words, ix.words[allField])
	}
	return words, exact
}

// put adds or replaces the document called name.
func (ix *index) put(name string, d docFields) {
	ix.remove(name)
	var id uint32
	if n := len(ix.free); n > 0 {
		id, ix.free = ix.free[n-1], ix.free[:n-1]
		ix.names[id], ix.docs[id] = name, d
	} else {
		id = uint32(len(ix.names))
		ix.names = append(ix.names, name)
		ix.docs = append(ix.docs, d)
	}
	ix.ids[name] = id
	ix.live.set(id)
	ix.apply(d, id, (*termTable).add)
}

func (ix *index) remove(name string) {
	id, ok := ix.ids[name]
	if !ok {
		return
	}
	ix.apply(ix.docs[id], id, (*termTable).remove)
	delete(ix.ids, name)
	ix.names[id], ix.docs[id] = "", nil
	ix.live.clear(id)
	ix.free = append(ix.free, id)
}

func (ix *index) apply(d docFields, id uint32, op func(*termTable, string, uint32)) {
	for f, vals := range d {
		wt, et := ix.targets(f)
		for _, v := range vals {
			for _, w := range tokenize(v) {
				for _, t := range wt {
					op(t, w, id)
				}
			}
			lv := strings.ToLower(v)
			for _, t := range et {
				op(t, lv, id)
			}
		}
	}
}

// eval returns the ids of the documents matching n (nil = everything).
func (ix *index) eval(n queryNode) bitset {
	switch n := n.(type) {
	case nil:
		return ix.live.clone()
	case *andNode:
		return ix.eval(n.L).and(ix.eval(n.R))
	case *orNode:
		return ix.eval(n.L).or(ix.eval(n.R))
	case *notNode:
		return ix.live.clone().andNot(ix.eval(n.X))
	case *termNode:
		return ix.evalTerm(n)
	}
	return bitset{}
}

func (ix *index) evalTerm(t *termNode) bitset {
	size := len(ix.names)
	if t.Exact {
		tab := ix.exact[t.Field]
		out := newBitset(size)
		v := strings.ToLower(t.Value)
		if t.Prefix {
			tab.withPrefix(v, out.addAll)
		} else {
			out.addAll(tab.post[v])
		}
		return out
	}
	tab := ix.words[t.Field]
	last := len(t.Words) - 1
	cand := newBitset(size)
	if t.Prefix {
		tab.withPrefix(t.Words[last], cand.addAll)
	} else {
		cand.addAll(tab.post[t.Words[last]])
	}
	for _, w := range t.Words[:last] {
		b := newBitset(size)
		b.addAll(tab.post[w])
		cand = cand.and(b)
	}
	if last == 0 {
		return cand
	}
	// Several words: every candidate holds all of them; keep those where they
	// form a phrase within one value.
	cand.each(func(id uint32) {
		if !matchDoc(t, ix.fs, ix.docs[id]) {
			cand.clear(id)
		}
	})
	return cand
}

// search returns the names matching n, sorted, strictly after `after`, at
// most limit of them, and whether more follow.
func (ix *index) search(n queryNode, after string, limit int) ([]string, bool) {
	// Keep only the limit+1 smallest names (a bounded sorted buffer) instead
	// of sorting every match: a common word can match most documents, but a
	// page needs at most 101 of them.
	keep := limit + 1
	out := make([]string, 0, min(keep, 128))
	ix.eval(n).each(func(id uint32) {
		name := ix.names[id]
		if name <= after || (len(out) == keep && name >= out[keep-1]) {
			return
		}
		i, _ := slices.BinarySearch(out, name)
		if len(out) == keep {
			out = out[:keep-1]
		}
		out = slices.Insert(out, i, name)
	})
	if len(out) > limit {
		return out[:limit], true
	}
	return out, false
}

// bitset is a set of document ids.
type bitset []uint64

func newBitset(n int) bitset { return make(bitset, (n+63)/64) }

func (b *bitset) set(id uint32) {
	w := int(id / 64)
	for len(*b) <= w {
		*b = append(*b, 0)
	}
	(*b)[w] |= 1 << (id % 64)
}

func (b bitset) clear(id uint32) {
	if w := int(id / 64); w < len(b) {
		b[w] &^= 1 << (id % 64)
	}
}

func (b bitset) addAll(ids []uint32) {
	for _, id := range ids {
		b[id/64] |= 1 << (id % 64)
	}
}

func (b bitset) clone() bitset { return slices.Clone(b) }

func (b bitset) and(o bitset) bitset {
	for i := range b {
		if i < len(o) {
			b[i] &= o[i]
		} else {
			b[i] = 0
		}
	}
	return b
}

func (b bitset) or(o bitset) bitset {
	for len(b) < len(o) {
		b = append(b, 0)
	}
	for i := range o {
		b[i] |= o[i]
	}
	return b
}

func (b bitset) andNot(o bitset) bitset {
	for i := range b {
		if i < len(o) {
			b[i] &^= o[i]
		}
	}
	return b
}

func (b bitset) each(fn func(uint32)) {
	for i, w := range b {
		for w != 0 {
			t := bits.TrailingZeros64(w)
			fn(uint32(i*64 + t))
			w &^= 1 << t
		}
	}
}

func sortStrings(s []string) { sort.Strings(s) }
