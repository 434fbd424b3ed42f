package registryclient

import (
	"context"
	"net/http/httptest"
	"strings"
	"testing"

	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
)

// A create that finds the same binding adopts it; other values are a conflict.
func TestCreateBindingAdoptsTheSameBinding(t *testing.T) {
	srv, err := registryserver.New(registryserver.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(ts.Close)
	c, err := New(context.Background(), Config{Endpoint: ts.URL, AppHubEndpoint: ts.URL})
	if err != nil {
		t.Fatal(err)
	}
	const parent = "projects/p1/locations/global"
	b := func(desc string) *agentregistry.Binding {
		return &agentregistry.Binding{Description: desc, Target: &agentregistry.Target{Identifier: "urn:mcp:acme:travel:flights"}}
	}
	first, err := c.CreateBinding(context.Background(), parent, "flights", b("Flights"))
	if err != nil {
		t.Fatal(err)
	}
	again, err := c.CreateBinding(context.Background(), parent, "flights", b("Flights"))
	if err != nil || again.CreateTime != first.CreateTime {
		t.Fatalf("the same binding again: %+v, %v; want it adopted", again, err)
	}
	_, err = c.CreateBinding(context.Background(), parent, "flights", b("Other"))
	if !IsAlreadyExists(err) || !strings.Contains(err.Error(), "import it or choose another binding_id") {
		t.Fatalf("another binding under the same id: %v; want a conflict", err)
	}
	toHotels := b("Flights")
	toHotels.Target.Identifier = "urn:mcp:acme:travel:hotels"
	if _, err = c.CreateBinding(context.Background(), parent, "flights", toHotels); !IsAlreadyExists(err) {
		t.Fatalf("the same binding to another target: %v; want a conflict", err)
	}
	fromAgent := b("Flights")
	fromAgent.Source = &agentregistry.Source{Identifier: "urn:agent:acme:planner"}
	if _, err = c.CreateBinding(context.Background(), parent, "flights", fromAgent); !IsAlreadyExists(err) {
		t.Fatalf("the same binding from another source: %v; want a conflict", err)
	}
}
