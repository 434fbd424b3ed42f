package registryserver_test

import (
	"fmt"
	"strings"
	"testing"

	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
)

const (
	urnPlanner = "urn:agent:acme:travel:planner"
	urnOther   = "urn:agent:acme:travel:other"
	urnFlights = "urn:mcp:acme:travel:flights"
	urnHotels  = "urn:mcp:acme:travel:hotels"
)

func binding(source, target string) *agentregistry.Binding {
	b := &agentregistry.Binding{
		DisplayName: "Flights for the planner",
		Target:      &agentregistry.Target{Identifier: target},
		AuthProviderBinding: &agentregistry.AuthProviderBinding{
			AuthProvider: parent + "/authProviders/oauth", Scopes: []string{"flights.read"},
			ContinueUri: "https://planner.example.com/continue",
		},
	}
	if source != "" {
		b.Source = &agentregistry.Source{Identifier: source}
	}
	return b
}

// Each binding method through the generated client, for what the wire
// carries: a create answered with a done operation, and again with the same
// request id (replayed, not refused); the binding as get decodes it; the
// update mask, filter, source and target as query parameters; a delete, then
// 404 NOT_FOUND. What the methods do is the state's TestBindingLifecycle.
func TestBindingMethodsOverTheWire(t *testing.T) {
	e := start(t, registryserver.Options{})
	bs := e.ar.Projects.Locations.Bindings
	for range 2 {
		op, err := bs.Create(parent, binding(urnPlanner, urnFlights)).BindingId("planner-flights").RequestId(rid1).Do()
		if err != nil || !op.Done {
			t.Fatalf("create: %v %+v", err, op)
		}
	}
	if _, err := bs.Create(parent, binding("", urnFlights)).BindingId("any-flights").Do(); err != nil {
		t.Fatal(err)
	}
	if _, err := bs.Create(parent, binding(urnOther, urnFlights)).BindingId("other-flights").Do(); err != nil {
		t.Fatal(err)
	}
	name := parent + "/bindings/planner-flights"
	got, err := bs.Get(name).Do()
	if err != nil || got.Source.Identifier != urnPlanner || got.Target.Identifier != urnFlights || got.AuthProviderBinding.Scopes[0] != "flights.read" ||
		got.AuthProviderBinding.ContinueUri != "https://planner.example.com/continue" || got.CreateTime == "" {
		t.Fatalf("get = %+v (%v)", got, err)
	}
	if _, err := bs.Patch(name, &agentregistry.Binding{Description: "new", DisplayName: "ignored"}).UpdateMask("description").Do(); err != nil {
		t.Fatal(err)
	}
	if got, _ = bs.Get(name).Do(); got.Description != "new" || got.DisplayName != "Flights for the planner" {
		t.Fatalf("after patch: %+v", got)
	}
	list, err := bs.List(parent).Filter(`source.identifier="` + urnOther + `"`).Do()
	if err != nil || len(list.Bindings) != 1 || list.Bindings[0].Name != parent+"/bindings/other-flights" {
		t.Fatalf("filtered list = %+v (%v)", list, err)
	}
	avail, err := bs.FetchAvailable(parent).SourceIdentifier(urnPlanner).TargetIdentifier(urnFlights).Do()
	if err != nil || len(avail.Bindings) != 2 {
		t.Fatalf("fetchAvailable = %+v (%v); want planner-flights and any-flights", avail, err)
	}
	if _, err := bs.Delete(name).Do(); err != nil {
		t.Fatal(err)
	}
	_, err = bs.Get(name).Do()
	apiErr(t, err, 404, "NOT_FOUND")
}

// Malformed input is a 400 that names the field, never a 500 or a stored binding.
func TestBindingValidation(t *testing.T) {
	e := start(t, registryserver.Options{})
	bs := e.ar.Projects.Locations.Bindings
	bad := binding("urn:mcp:acme:travel:flights", "urn:thing:x")
	bad.AuthProviderBinding.AuthProvider = "oauth"
	bad.AuthProviderBinding.ContinueUri = "javascript:alert(1)"
	_, err := bs.Create(parent, bad).BindingId("bad-binding").Do()
	ge := asAPIErr(t, err, 400, "INVALID_ARGUMENT")
	for _, f := range []string{"source.identifier", "target.identifier", "auth_provider_binding.auth_provider", "auth_provider_binding.continue_uri"} {
		if !strings.Contains(ge.Body, f) {
			t.Errorf("the error does not name %s: %s", f, ge.Body)
		}
	}
	_, err = bs.Create(parent, binding("", urnFlights)).BindingId("Bad_Id").Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
	_, err = bs.Create(parent, binding("", urnFlights)).BindingId("abc").Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
	_, err = bs.Create(parent, &agentregistry.Binding{}).BindingId("no-target").Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
	_, err = bs.FetchAvailable(parent).SourceIdentifier("agent-1").Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
	_, err = bs.List(parent).Filter("nosuchfield:x").Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
	if _, err := bs.Create(parent, binding("", urnFlights)).BindingId("good-binding").Do(); err != nil {
		t.Fatal(err)
	}
	for mask, want := range map[string]string{"create_time": "output only", "labels": "updatable fields: display_name"} {
		_, err = bs.Patch(parent+"/bindings/good-binding", &agentregistry.Binding{}).UpdateMask(mask).Do()
		if v := violations(t, asAPIErr(t, err, 400, "INVALID_ARGUMENT")); !strings.Contains(v[mask], want) {
			t.Errorf("update mask %s: want a violation saying %q, got %v", mask, want, v)
		}
	}
	list, _ := bs.List(parent).Do()
	if len(list.Bindings) != 1 {
		t.Fatalf("only the good binding is stored, got %d", len(list.Bindings))
	}
}

// bindingIDs is the ids of bindings, in their order, separated by spaces.
func bindingIDs(bs []*agentregistry.Binding) string {
	ids := make([]string, len(bs))
	for i, b := range bs {
		ids[i] = b.Name[strings.LastIndex(b.Name, "/")+1:]
	}
	return strings.Join(ids, " ")
}

// List filters on each indexed field, and fetchAvailable: a binding is
// available to the agent that is its source and, when it has no source, to
// every agent; a target narrows the answer to it.
func TestBindingQueries(t *testing.T) {
	e := start(t, registryserver.Options{})
	bs := e.ar.Projects.Locations.Bindings
	hotels := binding("", urnHotels)
	hotels.AuthProviderBinding = nil // a binding need not have one
	for id, b := range map[string]*agentregistry.Binding{
		"planner-flights": binding(urnPlanner, urnFlights), "other-flights": binding(urnOther, urnFlights),
		"any-flights": binding("", urnFlights), "any-hotels": hotels,
	} {
		if _, err := bs.Create(parent, b).BindingId(id).Do(); err != nil {
			t.Fatalf("create %s: %v", id, err)
		}
	}
	const all = "any-flights any-hotels other-flights planner-flights"
	for _, c := range []struct{ filter, want string }{
		{"", all},
		{`source.identifier="` + urnOther + `"`, "other-flights"},
		{`target.identifier="` + urnFlights + `"`, "any-flights other-flights planner-flights"},
		{`target.identifier="` + urnHotels + `"`, "any-hotels"},
		{`authProviderBinding.authProvider="` + parent + `/authProviders/oauth"`, "any-flights other-flights planner-flights"},
	} {
		l, err := bs.List(parent).Filter(c.filter).Do()
		if err != nil {
			t.Errorf("filter %s: %v", c.filter, err)
		} else if got := bindingIDs(l.Bindings); got != c.want {
			t.Errorf("filter %s: %q, want %q", c.filter, got, c.want)
		}
	}
	for _, c := range []struct{ source, target, want string }{
		{"", "", all},
		{urnPlanner, "", "any-flights any-hotels planner-flights"},
		{urnPlanner, urnFlights, "any-flights planner-flights"},
		{urnOther, urnHotels, "any-hotels"},
		{"", urnFlights, "any-flights other-flights planner-flights"},
	} {
		call := bs.FetchAvailable(parent)
		if c.source != "" {
			call = call.SourceIdentifier(c.source)
		}
		if c.target != "" {
			call = call.TargetIdentifier(c.target)
		}
		l, err := call.Do()
		if err != nil {
			t.Errorf("fetchAvailable source %q target %q: %v", c.source, c.target, err)
		} else if got := bindingIDs(l.Bindings); got != c.want {
			t.Errorf("fetchAvailable source %q target %q: %q, want %q", c.source, c.target, got, c.want)
		}
	}
	_, err := bs.FetchAvailable(parent).SourceIdentifier(urnPlanner).TargetIdentifier("urn:thing:x").Do()
	if v := violations(t, asAPIErr(t, err, 400, "INVALID_ARGUMENT")); len(v) != 1 || v["target_identifier"] == "" {
		t.Errorf("a malformed target: violations %v, want one of target_identifier", v)
	}
	_, err = bs.FetchAvailable(parent).SourceIdentifier(urnFlights).Do()
	if v := violations(t, asAPIErr(t, err, 400, "INVALID_ARGUMENT")); len(v) != 1 || v["source_identifier"] == "" {
		t.Errorf("a source that is not an agent: violations %v, want one of source_identifier", v)
	}
	// A delete takes only its own binding out of the list.
	if _, err := bs.Delete(parent + "/bindings/other-flights").Do(); err != nil {
		t.Fatal(err)
	}
	l, err := bs.List(parent).Do()
	if err != nil {
		t.Fatal(err)
	}
	if got := bindingIDs(l.Bindings); got != "any-flights any-hotels planner-flights" {
		t.Errorf("list after a delete: %q", got)
	}
}

// Bindings are read 256 at a time, and a page ends when it holds one match
// more than its size, or at the end of the bindings. 257 bindings, of which
// only the first and the last target flights, put one match in each chunk.
func TestBindingPaging(t *testing.T) {
	e := start(t, registryserver.Options{})
	bs := e.ar.Projects.Locations.Bindings
	for i := range 257 {
		target := urnHotels
		if i == 0 || i == 256 {
			target = urnFlights
		}
		if _, err := bs.Create(parent, binding("", target)).BindingId(fmt.Sprintf("binding-%03d", i)).Do(); err != nil {
			t.Fatal(err)
		}
	}
	flights := `target.identifier="` + urnFlights + `"`
	for _, c := range []struct {
		filter string
		size   int64
		want   []string // the pages: their ids, first..last when more than two
	}{
		// The second match is in the second chunk: the first page must read it
		// to know that there is a next page.
		{flights, 1, []string{"binding-000", "binding-256"}},
		// A page of exactly page_size that ends the list has no next token.
		{flights, 2, []string{"binding-000 binding-256"}},
		{"", 100, []string{"binding-000..binding-099", "binding-100..binding-199", "binding-200..binding-256"}},
	} {
		var pages []string
		token := ""
		for {
			l, err := bs.List(parent).Filter(c.filter).PageSize(c.size).PageToken(token).Do()
			if err != nil {
				t.Fatalf("filter %q, size %d, page %d: %v", c.filter, c.size, len(pages)+1, err)
			}
			page := bindingIDs(l.Bindings)
			if ids := strings.Fields(page); len(ids) > 2 {
				page = ids[0] + ".." + ids[len(ids)-1]
			}
			pages = append(pages, page)
			if token = l.NextPageToken; token == "" || len(pages) > len(c.want) {
				break
			}
		}
		if strings.Join(pages, " | ") != strings.Join(c.want, " | ") {
			t.Errorf("filter %q, size %d: pages %q, want %q", c.filter, c.size, pages, c.want)
		}
	}
}
