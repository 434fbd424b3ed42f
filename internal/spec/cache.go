package spec

import (
	"bytes"
	"crypto/sha256"
	"sync"
)

// resultCacheSize bounds the number of cached Results.
const resultCacheSize = 256

type cacheKey [sha256.Size]byte

// resultCache remembers the Result of recently validated documents, keyed by
// the sha256 of the kind and the exact input bytes, so that re-validating an
// unchanged document (every plan re-runs validators) costs a hash and a copy.
// It evicts the oldest entry when full. Safe for concurrent use.
type resultCache struct {
	mu    sync.Mutex
	m     map[cacheKey]*Result
	order []cacheKey // insertion order, ring of resultCacheSize
	next  int
}

var results = &resultCache{m: make(map[cacheKey]*Result, resultCacheSize)}

func keyOf(kind Kind, doc []byte) cacheKey {
	h := sha256.New()
	h.Write([]byte(kind))
	h.Write([]byte{0})
	h.Write(doc)
	var k cacheKey
	h.Sum(k[:0])
	return k
}

// cached returns the Result for doc, computing it with fn on a miss. The
// returned Result is the caller's own copy.
func cached(kind Kind, doc []byte, fn func([]byte) *Result) *Result {
	k := keyOf(kind, doc)
	results.mu.Lock()
	r, ok := results.m[k]
	results.mu.Unlock()
	if ok {
		return r.clone()
	}
	r = fn(doc)
	results.put(k, r.clone())
	return r
}

func (c *resultCache) put(k cacheKey, r *Result) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; ok {
		return
	}
	if len(c.order) < resultCacheSize {
		c.order = append(c.order, k)
	} else {
		delete(c.m, c.order[c.next])
		c.order[c.next] = k
		c.next = (c.next + 1) % resultCacheSize
	}
	c.m[k] = r
}

// clone returns a deep copy of r.
func (r *Result) clone() *Result {
	if r == nil {
		return nil
	}
	out := *r
	if r.Problems != nil {
		out.Problems = append([]Problem(nil), r.Problems...)
	}
	if r.Compact != nil {
		out.Compact = bytes.Clone(r.Compact)
	}
	return &out
}
