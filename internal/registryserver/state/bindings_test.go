package state

// Bindings: what a create and an update check, their lists, and
// fetchAvailable.

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/search"
)

const (
	urnPlanner = "urn:agent:acme:travel:planner"
	urnOther   = "urn:agent:acme:travel:other"
	urnFlights = "urn:mcp:acme:travel:flights"
)

// newBinding links source (none when "") to target, with an auth provider.
func newBinding(source, target string) *resource.Binding {
	b := &resource.Binding{
		DisplayName: "Flights for the planner",
		Target:      &resource.Target{Identifier: target},
		AuthProviderBinding: &resource.AuthProviderBinding{
			AuthProvider: parent + "/authProviders/oauth", Scopes: []string{"flights.read"},
			ContinueUri: "https://planner.example.com/continue",
		},
	}
	if source != "" {
		b.Source = &resource.Source{Identifier: source}
	}
	return b
}

// A binding's identifiers are URNs of the right kinds, its auth provider a
// resource name and its continue URI a web URL, its id follows its rule, a
// target is required; the update mask names updatable fields only.
func TestBindingChecks(t *testing.T) {
	s := open(t, Options{})
	bad := newBinding("urn:mcp:acme:travel:flights", "urn:thing:x")
	bad.AuthProviderBinding.AuthProvider = "oauth"
	bad.AuthProviderBinding.ContinueUri = "javascript:alert(1)"
	_, err := s.CreateBinding("", parent, "bad-binding", bad)
	v := violationsOf(t, err)
	for _, f := range []string{"source.identifier", "target.identifier", "auth_provider_binding.auth_provider", "auth_provider_binding.continue_uri"} {
		if v[f] == "" {
			t.Errorf("the error does not name %s: %v", f, v)
		}
	}
	for _, id := range []string{"Bad_Id", "abc"} {
		_, err = s.CreateBinding("", parent, id, newBinding("", urnFlights))
		if violationsOf(t, err)["binding_id"] == "" {
			t.Errorf("binding id %q: %v", id, err)
		}
	}
	_, err = s.CreateBinding("", parent, "no-target", &resource.Binding{})
	if !strings.Contains(violationsOf(t, err)["target.identifier"], "is required") {
		t.Errorf("a binding without a target: %v", err)
	}
	view(t)(s.CreateBinding("", parent, "good-binding", newBinding("", urnFlights)))
	for mask, want := range map[string]string{"create_time": "output only", "labels": "updatable fields: display_name", "name": "output only"} {
		_, err = s.UpdateBinding("", parent+"/bindings/good-binding", mask, &resource.Binding{})
		if v := violationsOf(t, err); !strings.Contains(v[mask], want) {
			t.Errorf("update mask %s: want a violation saying %q, got %v", mask, want, v)
		}
	}
	_, err = s.UpdateBinding("", parent+"/bindings/good-binding", "target", &resource.Binding{})
	if violationsOf(t, err)["target.identifier"] == "" {
		t.Errorf("an update that removes the target: %v", err)
	}
	if list, _, err := s.ListBindings(context.Background(), parent, nil, nil, nil, 100); err != nil || len(list) != 1 {
		t.Fatalf("only the good binding is stored, got %d (%v)", len(list), err)
	}
}

// Each limit is taken at its value and refused one past it, by name.
func TestBindingFieldLimits(t *testing.T) {
	s := open(t, Options{})
	// pad makes a string of n bytes that starts with prefix.
	pad := func(prefix string, n int) string { return prefix + strings.Repeat("a", n-len(prefix)) }
	scopes := func(n int) []string {
		out := make([]string, n)
		for i := range out {
			out[i] = fmt.Sprintf("scope.%d", i)
		}
		return out
	}
	for i, c := range []struct {
		name  string
		set   func(b *resource.Binding)
		field string // the one field violation; "" when the binding is stored
	}{
		{"display name of 63 characters", func(b *resource.Binding) { b.DisplayName = strings.Repeat("é", 63) }, ""},
		{"display name of 64 characters", func(b *resource.Binding) { b.DisplayName = strings.Repeat("é", 64) }, "display_name"},
		{"description of 2048 characters", func(b *resource.Binding) { b.Description = strings.Repeat("é", 2048) }, ""},
		{"description of 2049 characters", func(b *resource.Binding) { b.Description = strings.Repeat("é", 2049) }, "description"},
		{"source URN of 512 bytes", func(b *resource.Binding) { b.Source.Identifier = pad("urn:agent:acme:travel:", 512) }, ""},
		{"source URN of 513 bytes", func(b *resource.Binding) { b.Source.Identifier = pad("urn:agent:acme:travel:", 513) }, "source.identifier"},
		{"target URN of 512 bytes", func(b *resource.Binding) { b.Target.Identifier = pad("urn:mcp:acme:travel:", 512) }, ""},
		{"target URN of 513 bytes", func(b *resource.Binding) { b.Target.Identifier = pad("urn:mcp:acme:travel:", 513) }, "target.identifier"},
		{"auth provider of 2048 bytes", func(b *resource.Binding) { b.AuthProviderBinding.AuthProvider = pad(parent+"/authProviders/", 2048) }, ""},
		{"auth provider of 2049 bytes", func(b *resource.Binding) { b.AuthProviderBinding.AuthProvider = pad(parent+"/authProviders/", 2049) }, "auth_provider_binding.auth_provider"},
		{"64 scopes", func(b *resource.Binding) { b.AuthProviderBinding.Scopes = scopes(64) }, ""},
		{"65 scopes", func(b *resource.Binding) { b.AuthProviderBinding.Scopes = scopes(65) }, "auth_provider_binding.scopes"},
		{"scope of 512 bytes", func(b *resource.Binding) { b.AuthProviderBinding.Scopes = []string{pad("", 512)} }, ""},
		{"scope of 513 bytes", func(b *resource.Binding) { b.AuthProviderBinding.Scopes = []string{pad("", 513)} }, "auth_provider_binding.scopes[0]"},
		{"empty scope", func(b *resource.Binding) { b.AuthProviderBinding.Scopes = []string{""} }, "auth_provider_binding.scopes[0]"},
		{"scope with a space", func(b *resource.Binding) { b.AuthProviderBinding.Scopes = []string{"a b"} }, "auth_provider_binding.scopes[0]"},
		{"continue URI of 2048 bytes", func(b *resource.Binding) {
			b.AuthProviderBinding.ContinueUri = pad("https://planner.example.com/", 2048)
		}, ""},
		{"continue URI of 2049 bytes", func(b *resource.Binding) {
			b.AuthProviderBinding.ContinueUri = pad("https://planner.example.com/", 2049)
		}, "auth_provider_binding.continue_uri"},
		{"http continue URI", func(b *resource.Binding) { b.AuthProviderBinding.ContinueUri = "http://localhost:8080/continue" }, ""},
		{"ftp continue URI", func(b *resource.Binding) { b.AuthProviderBinding.ContinueUri = "ftp://planner.example.com/continue" }, "auth_provider_binding.continue_uri"},
		{"continue URI without a host", func(b *resource.Binding) { b.AuthProviderBinding.ContinueUri = "https:///continue" }, "auth_provider_binding.continue_uri"},
		{"continue URI that does not parse", func(b *resource.Binding) { b.AuthProviderBinding.ContinueUri = "https://a b/%zz" }, "auth_provider_binding.continue_uri"},
		{"no continue URI", func(b *resource.Binding) { b.AuthProviderBinding.ContinueUri = "" }, ""},
	} {
		b := newBinding(urnPlanner, urnFlights)
		c.set(b)
		_, err := s.CreateBinding("", parent, fmt.Sprintf("binding-%02d", i), b)
		switch {
		case c.field == "" && err != nil:
			t.Errorf("%s: %v", c.name, err)
		case c.field == "":
		default:
			if v := violationsOf(t, err); len(v) != 1 || v[c.field] == "" {
				t.Errorf("%s: violations %v, want one of %s", c.name, v, c.field)
			}
		}
	}
}

// A binding's update takes the fields its mask names (those present
// without one), its list orders and filters, fetchAvailable returns the
// bindings a source agent can use, and a delete removes it.
func TestBindingLifecycle(t *testing.T) {
	clk := newClock()
	s := open(t, Options{Now: clk.Now})
	ctx := context.Background()
	for _, c := range []struct{ id, source string }{{"planner-flights", urnPlanner}, {"any-flights", ""}, {"other-flights", urnOther}} {
		view(t)(s.CreateBinding("", parent, c.id, newBinding(c.source, urnFlights)))
		clk.advance(1)
	}
	name := parent + "/bindings/planner-flights"
	view(t)(s.UpdateBinding("", name, "description", &resource.Binding{Description: "new", DisplayName: "ignored"}))
	if got, err := s.Binding(name); err != nil || got.Description != "new" || got.DisplayName != "Flights for the planner" {
		t.Fatalf("after a masked update: %+v %v", got, err)
	}
	view(t)(s.UpdateBinding("", name, "", &resource.Binding{DisplayName: "Renamed"}))
	if got, _ := s.Binding(name); got.DisplayName != "Renamed" || got.Description != "new" || got.Source.Identifier != urnPlanner ||
		got.AuthProviderBinding == nil || got.Target == nil {
		t.Fatalf("after an update without a mask: %+v", got)
	}
	view(t)(s.UpdateBinding("", name, "", &resource.Binding{AuthProviderBinding: &resource.AuthProviderBinding{AuthProvider: parent + "/authProviders/y"}}))
	if got, _ := s.Binding(name); got.AuthProviderBinding.AuthProvider != parent+"/authProviders/y" || got.DisplayName != "Renamed" {
		t.Fatalf("after an update of the auth provider alone: %+v", got)
	}
	view(t)(s.UpdateBinding("", name, "source,target,authProviderBinding.scopes", &resource.Binding{Source: &resource.Source{Identifier: urnOther},
		Target: &resource.Target{Identifier: urnFlights}, AuthProviderBinding: &resource.AuthProviderBinding{AuthProvider: parent + "/authProviders/x"}}))
	if got, _ := s.Binding(name); got.Source.Identifier != urnOther || got.AuthProviderBinding.AuthProvider != parent+"/authProviders/x" || got.AuthProviderBinding.Scopes != nil {
		t.Fatalf("after an update of sub-messages: %+v", got)
	}
	names := func(list []*resource.Binding) string {
		var out []string
		for _, b := range list {
			out = append(out, LastSegment(b.Name))
		}
		return strings.Join(out, " ")
	}
	for orderBy, want := range map[string]string{"": "any-flights other-flights planner-flights", "createTime desc": "other-flights any-flights planner-flights",
		"displayName, name desc": "other-flights any-flights planner-flights", "update_time": "any-flights other-flights planner-flights",
		"description desc": "planner-flights any-flights other-flights"} {
		o, err := search.ParseOrderBy(orderBy, BindingOrder)
		if err != nil {
			t.Fatal(err)
		}
		if list, _, err := s.ListBindings(ctx, parent, nil, o, nil, 10); err != nil || names(list) != want {
			t.Errorf("orderBy %q: %s %v, want %s", orderBy, names(list), err, want)
		}
	}
	for filter, want := range map[string]string{"source.identifier=" + urnOther: "other-flights planner-flights", "displayName:renamed": "planner-flights",
		`authProviderBinding.authProvider="` + parent + `/authProviders/oauth"`: "any-flights other-flights", "target.identifier:flights": "any-flights other-flights planner-flights"} {
		node, err := search.ParseQuery(filter, BindingFields)
		if err != nil {
			t.Fatal(err)
		}
		if list, _, err := s.ListBindings(ctx, parent, node, nil, nil, 10); err != nil || names(list) != want {
			t.Errorf("filter %q: %s %v, want %s", filter, names(list), err, want)
		}
	}
	for _, c := range []struct{ source, target, want string }{
		{urnPlanner, urnFlights, "any-flights"}, {urnOther, "", "any-flights other-flights planner-flights"},
		{"", "", "any-flights other-flights planner-flights"}, {"", "urn:mcp:acme:travel:none", ""},
	} {
		if err := CheckAvailableQuery(c.source, c.target); err != nil {
			t.Fatal(err)
		}
		if list, _, err := s.FetchAvailableBindings(ctx, parent, c.source, c.target, nil, 10); err != nil || names(list) != c.want {
			t.Errorf("available to %q for %q: %s %v, want %s", c.source, c.target, names(list), err, c.want)
		}
	}
	for _, c := range []struct{ source, target, field string }{{"agent-1", "", "source_identifier"}, {urnFlights, "", "source_identifier"}, {"", "urn:thing:x", "target_identifier"}} {
		if violationsOf(t, CheckAvailableQuery(c.source, c.target))[c.field] == "" {
			t.Errorf("available to %q for %q: want %s named", c.source, c.target, c.field)
		}
	}
	view(t)(s.DeleteBinding("", name))
	_, err := s.Binding(name)
	wantCode(t, err, NotFound, "Binding")
}
