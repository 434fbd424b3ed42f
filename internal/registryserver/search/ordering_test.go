package search

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// An ordered page fills up to MaxPageBytes, at least one record:
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

// The heap of an ordered list keeps exactly the limit smallest
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

// orderBy names a collection's fields in camelCase or snake_case, in any
// case, each optionally followed by desc or asc, comma-separated; anything
// else is a *FieldError on order_by that lists the fields.
func TestParseOrderBy(t *testing.T) {
	fields := []string{"name", "displayName", "createTime"}
	for orderBy, want := range map[string]string{
		"":                               "",
		"  ":                             "",
		"displayName":                    "displayName",
		"display_name DESC":              "displayName desc",
		"DisplayName asc, createTime":    "displayName,createTime",
		" create_time  desc ,name Asc  ": "createTime desc,name",
	} {
		o, err := ParseOrderBy(orderBy, fields)
		var got []string
		for _, k := range o {
			if k.desc {
				got = append(got, k.field+" desc")
			} else {
				got = append(got, k.field)
			}
		}
		if err != nil || strings.Join(got, ",") != want {
			t.Errorf("%q: %v (%v), want %s", orderBy, got, err, want)
		}
		if !slices.Equal(o.Fields(), slices.Collect(func(yield func(string) bool) {
			for _, k := range o {
				if !yield(k.field) {
					return
				}
			}
		})) {
			t.Errorf("%q: Fields() = %v", orderBy, o.Fields())
		}
	}
	for orderBy, why := range map[string]string{
		"colour":                   `the results cannot be ordered by "colour"`,
		"name sideways":            `"sideways" after name is neither asc nor desc`,
		"name desc extra":          `"name desc extra" is not a field name optionally followed by desc`,
		"name,":                    `"" is not a field name optionally followed by desc`,
		"name, display_name, Name": "name appears more than once",
	} {
		_, err := ParseOrderBy(orderBy, fields)
		var fe *FieldError
		if !errors.As(err, &fe) || fe.Field != "order_by" || !strings.HasPrefix(fe.Description, why+"; the fields are name, displayName, createTime, each optionally followed by desc") ||
			fe.Message != "invalid order_by: "+fe.Description || err.Error() != "INVALID_ARGUMENT: "+fe.Message {
			t.Errorf("%q: %#v, want a field error on order_by saying %s", orderBy, err, why)
		}
	}
}

// TimeKey writes RFC 3339 times so that they compare as strings in time
// order (RFC3339Nano drops trailing zeros, and an offset moves the time);
// what is not a time stays as it is.
func TestTimeKey(t *testing.T) {
	times := []string{"2026-01-01T00:00:00.5Z", "2026-01-01T00:00:00Z", "2026-01-01T02:00:00+03:00", "2026-01-01T00:00:01Z"}
	keys := make([]string, len(times))
	for i, tm := range times {
		keys[i] = TimeKey(tm)
	}
	if want := []string{"2025-12-31T23:00:00.000000000Z", "2026-01-01T00:00:00.000000000Z", "2026-01-01T00:00:00.500000000Z", "2026-01-01T00:00:01.000000000Z"}; !slices.Equal(slices.Sorted(slices.Values(keys)), want) {
		t.Errorf("keys %v, sorted want %v", keys, want)
	}
	if got := TimeKey("not a time"); got != "not a time" {
		t.Errorf("TimeKey of no time = %q", got)
	}
}

// item is a record of an ordered list in the tests.
type item struct {
	name, display string
	weight        int
}

func (it item) values() SortValues { return SortValues{"displayName": it.display, "name": it.name} }

// PageOrdered pages through items by an order, then by name: each page
// follows on from the position the last one ended at, the last page has
// none, and a page holds at most MaxPageBytes of records by weight (one
// at least).
func TestPageOrdered(t *testing.T) {
	items := []item{{"a", "Zed", 1}, {"b", "Ace", 1}, {"c", "Mid", 1}, {"d", "Ace", 1}, {"e", "Mid", 1}}
	o, err := ParseOrderBy("displayName desc", []string{"displayName"})
	if err != nil {
		t.Fatal(err)
	}
	name := func(it item) string { return it.name }
	for size, want := range map[int]string{1: "a c e b d", 2: "a c e b d", 5: "a c e b d", 100: "a c e b d"} {
		var got []string
		var after *Position
		for pages := 0; ; pages++ {
			page, next := PageOrdered(items, o, item.values, name, nil, after, size)
			if len(page) > size || pages > 5 {
				t.Fatalf("size %d: a page of %d", size, len(page))
			}
			for _, it := range page {
				got = append(got, it.name)
			}
			if next == nil {
				break
			}
			if last := page[len(page)-1]; next.Name != last.name || !slices.Equal(next.Keys, []string{last.display}) {
				t.Errorf("size %d: next %+v after %+v", size, next, last)
			}
			after = next
		}
		if strings.Join(got, " ") != want {
			t.Errorf("size %d: %v, want %s", size, got, want)
		}
	}
	// By bytes: records of a quarter of the bound fit four to a page.
	heavy := func(item) int { return MaxPageBytes / 4 }
	page, next := PageOrdered(items, nil, item.values, name, heavy, nil, 100)
	if len(page) != 4 || next == nil || next.Name != "d" {
		t.Errorf("records of a quarter of the bound: a page of %d, next %+v", len(page), next)
	}
	page, next = PageOrdered(items, nil, item.values, name, heavy, next, 100)
	if len(page) != 1 || page[0].name != "e" || next != nil {
		t.Errorf("the page after d: %v, next %+v", page, next)
	}
}
