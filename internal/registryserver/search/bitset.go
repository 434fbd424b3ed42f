package search

import (
	"math/bits"
	"slices"
)

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

func (b bitset) has(id uint32) bool {
	w := int(id / 64)
	return w < len(b) && b[w]&(1<<(id%64)) != 0
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
