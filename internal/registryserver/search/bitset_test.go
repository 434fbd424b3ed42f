package search

import (
	"slices"
	"testing"
)

// bitsetOf returns a bitset of words words holding ids.
func bitsetOf(words int, ids ...uint32) bitset {
	b := make(bitset, words)
	for _, id := range ids {
		b.set(id)
	}
	return b
}

func members(b bitset) []uint32 {
	var out []uint32
	b.each(func(id uint32) { out = append(out, id) })
	return out
}

// TestNewBitsetSize: newBitset(n) has exactly the words that ids 0..n-1
// need. A search allocates one per term it reads and one per phrase, so a
// larger one is paid for by every search.
func TestNewBitsetSize(t *testing.T) {
	for n, words := range map[int]int{0: 0, 1: 1, 63: 1, 64: 1, 65: 2, 128: 2, 129: 3, 1000: 16} {
		if got := len(newBitset(n)); got != words {
			t.Errorf("newBitset(%d): %d words, want %d", n, got, words)
		}
	}
}

// TestBitsetLengths: the operations take bitsets of any lengths and ids past
// the end (the live set grows as documents are added, while a snapshot's
// bitsets keep the length of their capture): such an id is absent, clearing
// it does nothing, and the words one operand lacks count as empty.
func TestBitsetLengths(t *testing.T) {
	short := bitsetOf(1, 1, 63)     // ids 0..63
	long := bitsetOf(2, 1, 64, 127) // ids 0..127
	for _, id := range []uint32{64, 127, 128, 1 << 20} {
		if short.has(id) {
			t.Errorf("has(%d) on a one-word bitset", id)
		}
		b := short.clone()
		b.clear(id)
		if !slices.Equal(b, short) {
			t.Errorf("clear(%d) past the end changed %v to %v", id, short, b)
		}
	}
	for _, c := range []struct {
		name string
		got  bitset
		want []uint32
	}{
		{"long AND short", long.clone().and(short), []uint32{1}},
		{"short AND long", short.clone().and(long), []uint32{1}},
		{"long AND NOT short", long.clone().andNot(short), []uint32{64, 127}},
		{"short AND NOT long", short.clone().andNot(long), []uint32{63}},
		{"short OR long", short.clone().or(long), []uint32{1, 63, 64, 127}},
		{"long OR short", long.clone().or(short), []uint32{1, 63, 64, 127}},
	} {
		if got := members(c.got); !slices.Equal(got, c.want) {
			t.Errorf("%s = %v, want %v", c.name, got, c.want)
		}
	}
}
