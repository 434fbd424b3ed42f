package registryserver

import (
	"fmt"
	"net/http/httptest"
	"runtime"
	"testing"
)

// A collection emptied of a location's records keeps nothing of it: no
// count, no name order, no weight (what the server holds follows what the
// registry holds, never how many locations were written once).
func TestCollectionDeleteLeavesNothing(t *testing.T) {
	c := newCollection[int]("/items/")
	for _, loc := range []string{"projects/p/locations/a", "projects/p/locations/b"} {
		c.put(loc+"/items/x", 1)
		c.put(loc+"/items/y", 2)
		c.delete(loc + "/items/x")
		if got := c.perLoc[loc]; got != 1 {
			t.Errorf("%s holds %d records after one of two was deleted, want 1", loc, got)
		}
		c.delete(loc + "/items/y")
	}
	if len(c.byName)+len(c.order)+len(c.perLoc)+len(c.weights) != 0 {
		t.Errorf("an emptied collection keeps %d records, %d orders, %d location counts, %d weights",
			len(c.byName), len(c.order), len(c.perLoc), len(c.weights))
	}
}

// An unfiltered list page reads the records it returns and one more (to
// know whether a next page exists), not the 256-record chunks of a filtered
// scan: a page of one costs the same among 5,000 records as among 2.
func TestUnfilteredPageReadsWhatItReturns(t *testing.T) {
	s, err := New(Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = s.Close() })
	perPage := func(n int) float64 {
		c := newCollection[int]("/items/")
		for i := range n {
			c.put(fmt.Sprintf("g/items/%05d", i), i)
		}
		r := httptest.NewRequest("GET", "/v1/g/items?pageSize=1", nil)
		const pages = 100
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for range pages {
			if page, _, err := listPage(s, r, c, "g", "items", "", nil); err != nil || len(page) != 1 {
				t.Fatalf("page = %v, %v", page, err)
			}
		}
		runtime.ReadMemStats(&after)
		return float64(after.TotalAlloc-before.TotalAlloc) / pages
	}
	small, large := perPage(2), perPage(5000)
	t.Logf("bytes allocated per page of one: %.0f among 2 records, %.0f among 5,000", small, large)
	if large > small+1024 {
		t.Errorf("a page of one allocates %.0f bytes among 5,000 records and %.0f among 2: it reads more than it returns", large, small)
	}
}
