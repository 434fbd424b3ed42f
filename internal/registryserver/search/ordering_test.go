package search

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// Finding 3: an ordered page fills up to MaxPageBytes, at least one record:
// records of a quarter of it fit four to a page exactly, one byte more
// three, and a record over the bound makes a page of its own.
func TestOrderedPageByteBound(t *testing.T) {
	for _, c := range []struct{ weight, want int }{
		{MaxPageBytes / 4, 4}, {MaxPageBytes/4 + 1, 3}, {MaxPageBytes + 1, 1},
	} {
		top := &topK[string]{limit: 11}
		for i := range 10 {
			name := fmt.Sprintf("r%02d", 9-i)
			top.push(keyed[string]{v: name, name: name, w: c.weight})
		}
		page, next := top.page(10)
		if len(page) != c.want || page[0] != "r00" || next == nil {
			t.Errorf("records of %d bytes: a page of %v, next %v; want %d from r00, and a next page", c.weight, page, next, c.want)
		}
	}
}

// Finding 5: the heap of an ordered list keeps exactly the limit smallest
// records, whatever order they come in: a shuffle of 1,000 with odd and even
// limits (a node's right child both present and absent), and an order found
// by search in which a sift-up that climbs to the wrong parent loses r06.
func TestTopKKeepsTheSmallest(t *testing.T) {
	shuffled := rand.New(rand.NewPCG(1, 2)).Perm(1000)
	type topKCase struct {
		order []int
		limit int
	}
	cases := []topKCase{{[]int{4, 1, 6, 0, 5, 2, 7, 3}, 7}}
	for _, limit := range []int{1, 2, 3, 4, 51, 52} {
		cases = append(cases, topKCase{shuffled, limit})
	}
	for _, c := range cases {
		top := &topK[string]{limit: c.limit}
		for _, i := range c.order {
			name := fmt.Sprintf("r%04d", i)
			top.push(keyed[string]{v: name, name: name})
		}
		got := top.sorted()
		if len(got) != c.limit {
			t.Errorf("%d records, limit %d: kept %d", len(c.order), c.limit, len(got))
		}
		for i, k := range got {
			if want := fmt.Sprintf("r%04d", i); k.name != want {
				t.Errorf("%d records, limit %d: record %d is %s, want %s", len(c.order), c.limit, i, k.name, want)
				break
			}
		}
	}
}
