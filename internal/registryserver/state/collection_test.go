package state

// Collections and their lists: what a collection keeps, what a page reads,
// the caps per location, ordered pages and the byte bound of every page.

import (
	"context"
	"encoding/json"
	"fmt"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
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
	s := open(t, Options{})
	perPage := func(n int) float64 {
		c := newCollection[int]("/items/")
		for i := range n {
			c.put(fmt.Sprintf("g/items/%05d", i), i)
		}
		const pages = 100
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for range pages {
			if page, _, err := list(context.Background(), s, c, "g", nil, 1, nil); err != nil || len(page) != 1 {
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

// A page of exactly the records that are left is the last one: no next
// position; one record fewer than are left has one, at its last record.
func TestListPageOfExactlyItsSize(t *testing.T) {
	s := open(t, Options{})
	c := newCollection[int]("/items/")
	for i := range 3 {
		c.put(fmt.Sprintf("g/items/%d", i), i)
	}
	for _, match := range []func(int) bool{nil, func(int) bool { return true }} {
		if page, next, err := list(context.Background(), s, c, "g", nil, 3, match); err != nil || len(page) != 3 || next != nil {
			t.Errorf("a page of 3 of 3: %v, next %+v, %v", page, next, err)
		}
		if page, next, err := list(context.Background(), s, c, "g", nil, 2, match); err != nil || len(page) != 2 || next == nil || next.Name != "g/items/1" {
			t.Errorf("a page of 2 of 3: %v, next %+v, %v", page, next, err)
		}
	}
}

// An ordered list computes each record's sort keys once and keeps only a
// page's worth: every comparison of the sort built the records' maps again
// and parsed their times once (about 2 n log n calls), and every page
// sorted the whole collection.
func TestOrderedListComputesKeysOnce(t *testing.T) {
	s := open(t, Options{})
	const n = 4000
	for i := range n {
		name := parent + "/bindings/b-" + strconv.Itoa(i)
		s.bindings.put(name, &resource.Binding{Name: name, DisplayName: strconv.Itoa(i * 7919 % n)})
	}
	// The display names are a permutation of 0..n-1, compared as strings.
	var want []string
	for i := range n {
		want = append(want, strconv.Itoa(i))
	}
	slices.Sort(want)
	slices.Reverse(want)
	calls := 0
	key := func(b *resource.Binding, f string) string { calls++; return bindingKey(b, f) }
	o, err := search.ParseOrderBy("displayName desc", BindingOrder)
	if err != nil {
		t.Fatal(err)
	}
	var after *search.Position
	for page := 0; page < 3; page++ {
		calls = 0
		got, next, err := listOrdered(context.Background(), s, s.bindings, parent, o, after, 50, nil, key,
			func(b *resource.Binding) string { return b.Name })
		if err != nil || len(got) != 50 || next == nil {
			t.Fatalf("page %d: %d bindings, next %v, %v", page, len(got), next, err)
		}
		if calls > n {
			t.Errorf("page %d: the sort keys of %d bindings were computed %d times", page, n, calls)
		}
		var names []string
		for _, b := range got {
			names = append(names, b.DisplayName)
		}
		if w := want[page*50 : (page+1)*50]; !slices.Equal(names, w) {
			t.Errorf("page %d: %v, want %v", page, names, w)
		}
		after = next
	}
}

// Bindings, workloads and services have a count cap per location, as skills
// do (bindings and workloads had none once).
func TestCountCapsPerLocation(t *testing.T) {
	s := open(t, Options{})
	other := "projects/p1/locations/elsewhere"
	// The caps count what each collection holds per location: set them full
	// (creating 150,000 records would only cost the test time).
	s.bindings.perLoc[parent] = maxBindingsPerLocation
	s.workloads.perLoc[parent] = maxWorkloadsPerLocation
	s.services.perLoc[parent] = maxServicesPerLocation
	binding := func() *resource.Binding {
		return &resource.Binding{Target: &resource.Target{Identifier: "urn:agent:acme:travel:planner"}}
	}
	for what, create := range map[string]func(loc string) (Operation, error){
		"binding": func(loc string) (Operation, error) { return s.CreateBinding("", loc, "one-more", binding()) },
		"workload": func(loc string) (Operation, error) {
			return s.UpdateWorkload("", loc+"/applications/a9/workloads/one-more", "displayName", true, &resource.Workload{DisplayName: "W"})
		},
		"service": func(loc string) (Operation, error) { return s.CreateService("", loc, "one-more", endpointService()) },
	} {
		_, err := create(parent)
		wantCode(t, err, ResourceExhausted, "per location")
		if _, err := create(other); err != nil {
			t.Errorf("a %s in another location: %v", what, err)
		}
	}
}

// Every list page has a byte bound, and the strings that had no cap have
// one: interface URLs (2,048 bytes, as bindings' URIs) and a workload's
// owners.
func TestPagesAndStringsBounded(t *testing.T) {
	s := open(t, Options{})
	for i := range 80 {
		view(t)(s.CreateService("", parent, "big-"+strconv.Itoa(100+i), bigService("v")))
	}
	ctx := context.Background()
	lists := map[string]func(after *search.Position) ([]json.RawMessage, *search.Position){
		"services": func(after *search.Position) ([]json.RawMessage, *search.Position) {
			page, next, err := s.ListServices(ctx, parent, nil, after, 100)
			if err != nil {
				t.Fatal(err)
			}
			var out []json.RawMessage
			for _, svc := range page {
				b, _ := json.Marshal(svc)
				out = append(out, b)
			}
			return out, next
		},
		"endpoints": func(after *search.Position) ([]json.RawMessage, *search.Position) {
			sn := s.Snapshot(KindEndpoint, parent)
			ids, next, err := sn.Page(ctx, nil, nil, after, 100)
			if err != nil {
				t.Fatal(err)
			}
			var out []json.RawMessage
			for _, id := range ids {
				out = append(out, sn.Record(id))
			}
			return out, next
		},
	}
	for name, page := range lists {
		n := 0
		var after *search.Position
		for {
			items, next := page(after)
			bytes := 0
			for _, it := range items {
				bytes += len(it)
			}
			if bytes > search.MaxPageBytes+64<<10 {
				t.Errorf("%s: a page of %d bytes", name, bytes)
			}
			n += len(items)
			if after = next; next == nil {
				break
			}
		}
		if n != 80 {
			t.Errorf("%s: %d listed over the pages, want 80", name, n)
		}
	}
	long := endpointService()
	long.Interfaces = []*resource.Interface{{Url: "https://example.test/" + strings.Repeat("a", 2030), ProtocolBinding: "HTTP_JSON"}}
	_, err := s.CreateService("", parent, "long-url", long)
	wantCode(t, err, InvalidArgument)
	if !slices.Contains(fields(err), "interfaces[0].url") {
		t.Errorf("an interface URL of 2,050 bytes: %v", err)
	}
	var owners []*resource.ContactInfo
	for range maxOwners {
		owners = append(owners, &resource.ContactInfo{Email: "a@example.test"})
	}
	owners = append(owners, &resource.ContactInfo{Email: strings.Repeat("b", 300) + "@example.test"})
	_, err = s.UpdateWorkload("", parent+"/applications/app/workloads/w-1", "attributes", true, &resource.Workload{Attributes: &resource.Attributes{
		BusinessOwners: owners, DeveloperOwners: []*resource.ContactInfo{{Email: strings.Repeat("c", 300)}}, Criticality: &resource.Criticality{Type: "NOT_A_TYPE"}}})
	wantCode(t, err, InvalidArgument)
	for _, want := range []string{"attributes.business_owners", "attributes.developer_owners[0].email", "attributes.criticality.type"} {
		if !slices.Contains(fields(err), want) {
			t.Errorf("workload attributes past their caps: %v, want %s named", err, want)
		}
	}
}
