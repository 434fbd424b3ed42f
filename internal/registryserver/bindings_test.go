package registryserver_test

import (
	"strings"
	"testing"

	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
)

const (
	urnPlanner = "urn:agent:acme:travel:planner"
	urnOther   = "urn:agent:acme:travel:other"
	urnFlights = "urn:mcp:acme:travel:flights"
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

// Bindings through the generated client: create (LRO, idempotent by request
// id), get, patch with a mask, list with a filter, fetchAvailable, delete.
func TestBindingLifecycle(t *testing.T) {
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
	if err != nil || got.Source.Identifier != urnPlanner || got.AuthProviderBinding.Scopes[0] != "flights.read" || got.CreateTime == "" {
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
	ge := apiErr(t, err, 400, "INVALID_ARGUMENT")
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
	_, err = bs.Patch(parent+"/bindings/good-binding", &agentregistry.Binding{}).UpdateMask("create_time").Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
	list, _ := bs.List(parent).Do()
	if len(list.Bindings) != 1 {
		t.Fatalf("only the good binding is stored, got %d", len(list.Bindings))
	}
}
