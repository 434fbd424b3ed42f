package search

// The inverted index behind agents:search and mcpServers:search. One index
// holds the derived records of one parent (project/location). Each version of
// a document gets a new integer id; for every indexed field there is a
// posting list (ascending ids) per word, with the word's positions in the
// document, and per whole lower-cased value. A query is evaluated to a bitset
// over ids, so AND/OR/NOT are word-wise operations; a phrase is matched on
// positions; no document is read.
//
// Searches never hold up writes. Everything a search reads is append-only:
// ids are never reused (a replaced or removed document is only marked dead),
// posting lists, names and records only grow, and an entry, once written,
// never changes. A search captures a snapshot (the live set and the lengths
// of the append-only slices) under the state's read lock, which takes a few
// microseconds, and evaluates on it without that lock: it sees the index
// exactly as it was at the capture, whatever is written meanwhile. The term
// dictionaries are maps, which writers extend, so they have their own lock,
// held for one lookup or one document's insertion at a time. When dead ids
// outnumber live ones the writer builds a fresh, dense index; searches that
// started on the old one finish on it.

import (
	"context"
	"slices"
	"sort"
	"strings"
	"sync"
)

// allField is the pseudo-field that a bare keyword searches: the union of the
// keyword fields, indexed once so that a keyword costs one lookup.
const allField = ""

// compactAfter is the least number of dead ids that triggers a rebuild (when
// they also outnumber the live ones), so that small indexes are not rebuilt
// over and over.
const compactAfter = 1024

// compactBytes is the least number of bytes of dead versions (their JSON
// and field values) that triggers a rebuild when they also outweigh the
// live ones: a few large records patched over and over must not pin their
// old versions, which the count alone (compactAfter) would let pile up.
const compactBytes = 1 << 20

// posting lists the documents that contain one term: their ids, ascending,
// and, in word tables, the positions of the term in each (pos[ends[i-1]:ends[i]]
// for ids[i]). Only appended to.
type posting struct {
	term string
	ids  []uint32
	ends []uint32
	pos  []uint32
}

// postingView is a posting as a snapshot sees it: slices whose entries never
// change, readable without a lock.
type postingView struct {
	ids, ends, pos []uint32
}

// positions returns the positions of the term in document ids[i].
func (v postingView) positions(i int) []uint32 {
	start := uint32(0)
	if i > 0 {
		start = v.ends[i-1]
	}
	return v.pos[start:v.ends[i]]
}

// termTable maps the terms of one field to their postings. Prefix queries
// walk a sorted list of the postings; terms new since it was last sorted wait
// in recent, which is merged in once it grows past a fraction of the list, so
// that neither a writer nor a reader ever sorts the whole dictionary.
type termTable struct {
	mu     sync.RWMutex
	post   map[string]*posting
	sorted []*posting // by term; replaced, never modified
	recent []*posting // unsorted, appended to
}

func newTermTable() *termTable { return &termTable{post: map[string]*posting{}} }

// view returns the posting as of now. Call with its table's lock held.
func (p *posting) view() postingView { return postingView{p.ids, p.ends, p.pos} }

// postings calls fn with the posting of term or, with prefix, of every
// term that starts with term. fn runs under the table's read lock, which
// holds writers back: it must only copy what it needs (slice headers).
func (t *termTable) postings(term string, prefix bool, fn func(*posting)) {
	t.mu.RLock()
	defer t.mu.RUnlock()
	if !prefix {
		if p := t.post[term]; p != nil {
			fn(p)
		}
		return
	}
	i := sort.Search(len(t.sorted), func(i int) bool { return t.sorted[i].term >= term })
	for ; i < len(t.sorted) && strings.HasPrefix(t.sorted[i].term, term); i++ {
		fn(t.sorted[i])
	}
	for _, p := range t.recent {
		if strings.HasPrefix(p.term, term) {
			fn(p)
		}
	}
}

// add appends document id, with the term positions of a word table (nil in
// an exact table), to the posting of each term. ids grow, so appending keeps
// each posting sorted.
func (t *termTable) add(id uint32, terms map[string][]uint32) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for term, pos := range terms {
		p := t.post[term]
		if p == nil {
			p = &posting{term: term}
			t.post[term] = p
			t.recent = append(t.recent, p)
		}
		p.ids = append(p.ids, id)
		if pos != nil {
			p.pos = append(p.pos, pos...)
			p.ends = append(p.ends, uint32(len(p.pos)))
		}
	}
	if len(t.recent) > max(256, len(t.sorted)/8) {
		t.mergeRecent()
	}
}

// mergeRecent sorts the recent terms into a new sorted list. Call with t.mu held.
func (t *termTable) mergeRecent() {
	slices.SortFunc(t.recent, func(a, b *posting) int { return strings.Compare(a.term, b.term) })
	merged := make([]*posting, 0, len(t.sorted)+len(t.recent))
	i, j := 0, 0
	for i < len(t.sorted) && j < len(t.recent) {
		if t.sorted[i].term < t.recent[j].term {
			merged = append(merged, t.sorted[i])
			i++
		} else {
			merged = append(merged, t.recent[j])
			j++
		}
	}
	merged = append(append(merged, t.sorted[i:]...), t.recent[j:]...)
	t.sorted, t.recent = merged, nil
}

// Index is the search index of one parent's derived records of one kind.
// Its fields other than the term tables are written under the state's write
// lock and read under its read lock.
type Index struct {
	fs    *fieldSet
	ids   map[string]uint32 // name -> id of its live version
	live  bitset
	names []string     // id -> resource name; append-only
	docs  []docFields  // id -> field values, kept to rebuild the index; append-only
	recs  [][]byte     // id -> the record's JSON, as search returns it; append-only
	vals  []SortValues // id -> the record's values of its orderBy fields; append-only
	dead  int
	// liveBytes and deadBytes weigh the live and dead versions (docBytes).
	liveBytes, deadBytes int
	words                map[string]*termTable // field (base, composite or allField) -> word -> postings with positions
	exact                map[string]*termTable // field (base or composite) -> lower(value) -> postings
}

// NewIndex returns an empty index of documents with the fields of fs.
func NewIndex(fs *fieldSet) *Index {
	ix := &Index{fs: fs, ids: map[string]uint32{}, words: map[string]*termTable{}, exact: map[string]*termTable{}}
	for _, f := range fs.Base {
		ix.words[f], ix.exact[f] = newTermTable(), newTermTable()
	}
	for f := range fs.Composite {
		ix.words[f], ix.exact[f] = newTermTable(), newTermTable()
	}
	ix.words[allField] = newTermTable()
	return ix
}

// targets lists the fields whose tables a base field's values go into: its
// own, any composite containing it, and allField (words only) when it is a
// keyword field.
func (ix *Index) targets(f string) (words, exact []string) {
	words, exact = []string{f}, []string{f}
	for c, members := range ix.fs.Composite {
		if slices.Contains(members, f) {
			words, exact = append(words, c), append(exact, c)
		}
	}
	if slices.Contains(ix.fs.Keyword, f) {
		words = append(words, allField)
	}
	return words, exact
}

// Put adds or replaces the document called name, with rec its JSON and v
// its values for orderBy. It returns the index to use from now on: ix, or a
// rebuilt one when too many dead ids have accumulated.
func (ix *Index) Put(name string, d docFields, rec []byte, v SortValues) *Index {
	ix = ix.Remove(name)
	id := uint32(len(ix.names))
	ix.names = append(ix.names, name)
	ix.docs = append(ix.docs, d)
	ix.recs = append(ix.recs, rec)
	ix.vals = append(ix.vals, v)
	ix.ids[name] = id
	ix.live.set(id)
	ix.liveBytes += docBytes(d, rec)

	// Positions run on across the values of one table, with a gap after
	// each value so that no phrase spans two values.
	next := map[string]uint32{}
	words := map[string]map[string][]uint32{}
	exact := map[string]map[string][]uint32{}
	for _, f := range sortedKeys(d) {
		wt, et := ix.targets(f)
		for _, v := range d[f] {
			toks := tokenize(v)
			for _, t := range wt {
				if words[t] == nil {
					words[t] = map[string][]uint32{}
				}
				for k, w := range toks {
					words[t][w] = append(words[t][w], next[t]+uint32(k))
				}
				next[t] += uint32(len(toks)) + 1
			}
			lv := strings.ToLower(v)
			for _, t := range et {
				if exact[t] == nil {
					exact[t] = map[string][]uint32{}
				}
				exact[t][lv] = nil
			}
		}
	}
	for t, terms := range words {
		ix.words[t].add(id, terms)
	}
	for t, terms := range exact {
		ix.exact[t].add(id, terms)
	}
	return ix
}

// Remove marks the live version of name dead, and returns the index to use
// from now on (see put).
func (ix *Index) Remove(name string) *Index {
	id, ok := ix.ids[name]
	if !ok {
		return ix
	}
	delete(ix.ids, name)
	ix.live.clear(id)
	ix.dead++
	n := docBytes(ix.docs[id], ix.recs[id])
	ix.liveBytes -= n
	ix.deadBytes += n
	byCount := ix.dead >= compactAfter && ix.dead > len(ix.ids)
	byBytes := ix.deadBytes >= compactBytes && ix.deadBytes > ix.liveBytes
	if !byCount && !byBytes {
		return ix
	}
	// Rebuild with dense ids, in the order of the old ones.
	fresh := NewIndex(ix.fs)
	ix.live.each(func(id uint32) {
		fresh.Put(ix.names[id], ix.docs[id], ix.recs[id], ix.vals[id])
	})
	return fresh
}

// Held is what the index holds: how many versions of documents, live and
// dead, and the bytes of the dead ones (docBytes).
func (ix *Index) Held() (versions, deadBytes int) { return len(ix.names), ix.deadBytes }

// docBytes weighs one version: its JSON and its field values, which the
// index keeps (its postings grow with the values too).
func docBytes(d docFields, rec []byte) int {
	n := len(rec)
	for _, vs := range d {
		for _, v := range vs {
			n += len(v)
		}
	}
	return n
}

func sortedKeys(d docFields) []string {
	keys := make([]string, 0, len(d))
	for k := range d {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// Snapshot is the index as it was when captured; see the comment at the top
// of this file.
type Snapshot struct {
	ix    *Index
	live  bitset
	names []string
	recs  [][]byte
	vals  []SortValues
	// memo holds the result of each distinct term of the query being
	// evaluated: a query that repeats a term pays for it once.
	memo map[string]bitset
	ids  [][]uint32 // union's buffer
	at   []int32    // phrase's buffer: id -> 1 + its index in the current round, 0 when absent
	runs []run      // phrase's buffer for its first round
}

// Snapshot captures the index. Call with the state's read lock held.
func (ix *Index) Snapshot() *Snapshot {
	return &Snapshot{ix: ix, live: ix.live.clone(), names: ix.names, recs: ix.recs, vals: ix.vals, memo: map[string]bitset{}}
}

// ctxEvery is how many posting entries are processed between checks of the
// search's context.
const ctxEvery = 4096

// eval returns the ids matching n (nil = everything), or ctx's error once
// ctx is done. The result may hold dead ids except under a NOT; search
// removes them.
func (sn *Snapshot) eval(ctx context.Context, n queryNode) (bitset, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	switch n := n.(type) {
	case nil:
		return sn.live.clone(), nil
	case *andNode:
		l, r, err := sn.evalBoth(ctx, n.L, n.R)
		if err != nil {
			return nil, err
		}
		return l.and(r), nil
	case *orNode:
		l, r, err := sn.evalBoth(ctx, n.L, n.R)
		if err != nil {
			return nil, err
		}
		return l.or(r), nil
	case *notNode:
		x, err := sn.eval(ctx, n.X)
		if err != nil {
			return nil, err
		}
		return sn.live.clone().andNot(x), nil
	case *termNode:
		key := n.String()
		if b, ok := sn.memo[key]; ok {
			return b.clone(), nil
		}
		b, err := sn.evalTerm(ctx, n)
		if err != nil {
			return nil, err
		}
		sn.memo[key] = b
		return b.clone(), nil
	}
	return bitset{}, nil
}

func (sn *Snapshot) evalBoth(ctx context.Context, l, r queryNode) (bitset, bitset, error) {
	lb, err := sn.eval(ctx, l)
	if err != nil {
		return nil, nil, err
	}
	rb, err := sn.eval(ctx, r)
	return lb, rb, err
}

// union returns the documents, among those the snapshot knows, that hold
// term (or, with prefix, a term it starts) in tab.
func (sn *Snapshot) union(ctx context.Context, tab *termTable, term string, prefix bool) (bitset, error) {
	limit := uint32(len(sn.names))
	// Copy the id lists under the table's lock, cut to the snapshot (ids
	// ascend, so what was added after it is a tail), then read them without
	// it. The buffer is reused from term to term: a prefix can expand to
	// thousands of terms, and garbage here would cost every request a
	// collection of the whole index.
	sn.ids = sn.ids[:0]
	tab.postings(term, prefix, func(p *posting) {
		ids := p.ids
		if n := len(ids); n > 0 && ids[n-1] >= limit {
			ids = ids[:sort.Search(n, func(i int) bool { return ids[i] >= limit })]
		}
		sn.ids = append(sn.ids, ids)
	})
	out := newBitset(len(sn.names))
	work := 0
	for _, ids := range sn.ids {
		for _, id := range ids {
			out[id/64] |= 1 << (id % 64)
		}
		if work += len(ids); work >= ctxEvery {
			work = 0
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

func (sn *Snapshot) evalTerm(ctx context.Context, t *termNode) (bitset, error) {
	if t.Exact {
		return sn.union(ctx, sn.ix.exact[t.Field], strings.ToLower(t.Value), t.Prefix)
	}
	tab := sn.ix.words[t.Field]
	last := len(t.Words) - 1
	// The candidates hold every word; with one word, they are the answer.
	cand, err := sn.union(ctx, tab, t.Words[last], t.Prefix)
	if err != nil || last == 0 {
		return cand, err
	}
	for _, w := range t.Words[:last] {
		b, err := sn.union(ctx, tab, w, false)
		if err != nil {
			return nil, err
		}
		cand = cand.and(b)
	}
	// views[j] are the postings of word j, with their positions.
	views := make([][]postingView, len(t.Words))
	for j, w := range t.Words {
		tab.postings(w, j == last && t.Prefix, func(p *posting) { views[j] = append(views[j], p.view()) })
	}
	return sn.phrase(ctx, cand.and(sn.live), views)
}

// run is a document in the middle of a phrase match: the positions p at
// which words 0..j of the phrase occur at p..p+j, ascending.
type run struct {
	id     uint32
	starts []uint32
}

// phrase keeps the candidates where the words (views[j] holds the postings
// of word j: one, or for a prefix every term it starts) occur at adjacent
// positions: word j at p+j for some p.
func (sn *Snapshot) phrase(ctx context.Context, cand bitset, views [][]postingView) (bitset, error) {
	// The first word is never a prefix, so views[0] is one posting and cur
	// ascends by id; so does every later round but the last, whose word
	// alone may be a prefix.
	cur := sn.firstRuns(cand, views[0])
	defer func() { sn.runs = cur[:0] }()
	out := newBitset(len(sn.names))
	last := len(views) - 1
	if sn.at == nil {
		sn.at = make([]int32, len(sn.names))
	}
	for j := 1; j <= last && len(cur) > 0; j++ {
		for k, r := range cur {
			sn.at[r.id] = int32(k) + 1
		}
		next, err := sn.nextRuns(ctx, cur, views[j], j, j == last, out)
		sn.clearAt(cur)
		if err != nil {
			return nil, err
		}
		cur = next
	}
	return out, nil
}

// firstRuns are the candidates' positions of a phrase's first word.
func (sn *Snapshot) firstRuns(cand bitset, views []postingView) []run {
	limit := uint32(len(sn.names))
	cur := sn.runs[:0]
	for _, v := range views {
		for i, id := range v.ids {
			if id >= limit {
				break
			}
			if cand.has(id) {
				cur = append(cur, run{id, v.positions(i)})
			}
		}
	}
	return cur
}

// nextRuns extends the runs of cur (indexed by sn.at) with the phrase's j-th
// word: the records where it follows, with the starts that still match; in
// the last round, the records it completes are set in out instead.
func (sn *Snapshot) nextRuns(ctx context.Context, cur []run, views []postingView, j int, last bool, out bitset) ([]run, error) {
	limit := uint32(len(sn.names))
	var next []run
	work := 0
	for _, v := range views {
		for i, id := range v.ids {
			if id >= limit {
				break
			}
			k := sn.at[id] - 1
			if k < 0 {
				continue
			}
			if kept := extendRun(cur[k].starts, v.positions(i), uint32(j), last); last && kept != nil {
				out.set(id)
			} else if len(kept) > 0 {
				next = append(next, run{id, kept})
			}
		}
		if work += len(v.ids); work >= ctxEvery {
			work = 0
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
	}
	return next, nil
}

// extendRun keeps the starts of a run that the word at positions continues at
// offset j. In the last round one match is enough: it returns a non-nil empty
// slice as soon as one is found.
func extendRun(starts, positions []uint32, j uint32, last bool) []uint32 {
	var kept []uint32
	for _, p := range positions {
		if p < j {
			continue
		}
		if _, found := slices.BinarySearch(starts, p-j); !found {
			continue
		}
		if last {
			return []uint32{}
		}
		kept = append(kept, p-j)
	}
	return kept
}

// clearAt resets the entries of sn.at that cur set.
func (sn *Snapshot) clearAt(cur []run) {
	for _, r := range cur {
		sn.at[r.id] = 0
	}
}

// evalLive returns the live documents matching n.
func (sn *Snapshot) evalLive(ctx context.Context, n queryNode) (bitset, error) {
	matches, err := sn.eval(ctx, n)
	if err != nil {
		return nil, err
	}
	return matches.and(sn.live), nil
}

// search returns the ids of the live documents matching n whose names sort
// strictly after `after`, ordered by name, at most limit of them, and whether
// more follow.
func (sn *Snapshot) search(ctx context.Context, n queryNode, after string, limit int) ([]uint32, bool, error) {
	matches, err := sn.evalLive(ctx, n)
	if err != nil {
		return nil, false, err
	}
	// Keep only the limit+1 smallest names (a bounded sorted buffer) instead
	// of sorting every match: a common word can match most documents, but a
	// page needs at most 101 of them.
	keep := limit + 1
	out := make([]uint32, 0, min(keep, 128))
	matches.each(func(id uint32) {
		name := sn.names[id]
		if name <= after || (len(out) == keep && name >= sn.names[out[keep-1]]) {
			return
		}
		i, _ := slices.BinarySearchFunc(out, name, func(o uint32, name string) int { return strings.Compare(sn.names[o], name) })
		if len(out) == keep {
			out = out[:keep-1]
		}
		out = slices.Insert(out, i, id)
	})
	if len(out) > limit {
		return out[:limit], true, nil
	}
	return out, false, nil
}

// Page evaluates n on the snapshot and returns the ids of the page of size
// that follows after (nil: the first page), in name order or, with o, in
// that order, at most MaxPageBytes of records (one at least); and where the
// next page starts after (nil when this page is the last). A search stopped
// by ctx returns ctx's error.
func (sn *Snapshot) Page(ctx context.Context, n queryNode, o Ordering, after *Position, size int) ([]uint32, *Position, error) {
	if len(o) > 0 {
		matches, err := sn.evalLive(ctx, n)
		if err != nil {
			return nil, nil, err
		}
		var ids []uint32
		matches.each(func(id uint32) { ids = append(ids, id) })
		page, next := PageOrdered(ids, o, func(id uint32) SortValues { return sn.vals[id] }, func(id uint32) string { return sn.names[id] },
			func(id uint32) int { return len(sn.recs[id]) }, after, size)
		return page, next, nil
	}
	ids, more, err := sn.search(ctx, n, after.name(), size)
	if err != nil {
		return nil, nil, err
	}
	// At most MaxPageBytes of records (one at least), as every list.
	bytes := 0
	for i, id := range ids {
		if i > 0 && bytes+len(sn.recs[id]) > MaxPageBytes {
			ids, more = ids[:i], true
			break
		}
		bytes += len(sn.recs[id])
	}
	if !more {
		return ids, nil, nil
	}
	return ids, &Position{Name: sn.names[ids[len(ids)-1]]}, nil
}

// Record is the JSON of the record id, as a search returns it.
func (sn *Snapshot) Record(id uint32) []byte { return sn.recs[id] }
