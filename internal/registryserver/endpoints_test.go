package registryserver_test

import (
	"testing"

	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
)

// An endpointSpec service derives a read-only Endpoint record that the
// generated client reads, lists and filters; it goes with its service.
func TestDerivedEndpoints(t *testing.T) {
	e := start(t, registryserver.Options{})
	svcs := e.ar.Projects.Locations.Services
	for _, id := range []string{"billing-api", "search-api"} {
		in := &agentregistry.Service{
			DisplayName:  "Endpoint " + id,
			Description:  "Serves " + id,
			EndpointSpec: &agentregistry.EndpointSpec{Type: "NO_SPEC"},
			Interfaces:   []*agentregistry.Interface{{Url: "https://" + id + ".example.com/v1", ProtocolBinding: "HTTP_JSON"}},
		}
		if _, err := svcs.Create(parent, in).ServiceId(id).Do(); err != nil {
			t.Fatal(err)
		}
	}
	svc, err := svcs.Get(parent + "/services/billing-api").Do()
	if err != nil || svc.RegistryResource != parent+"/endpoints/billing-api" {
		t.Fatalf("registryResource = %q (%v)", svc.RegistryResource, err)
	}
	eps := e.ar.Projects.Locations.Endpoints
	got, err := eps.Get(svc.RegistryResource).Do()
	if err != nil || got.EndpointId != urnOf("endpoint", "billing-api") || got.DisplayName != "Endpoint billing-api" ||
		len(got.Interfaces) != 1 || got.Interfaces[0].Url != "https://billing-api.example.com/v1" {
		t.Fatalf("endpoint = %+v (%v)", got, err)
	}
	all, err := eps.List(parent).Do()
	if err != nil || len(all.Endpoints) != 2 {
		t.Fatalf("list = %+v (%v)", all, err)
	}
	one, err := eps.List(parent).Filter(`displayName="Endpoint search-api"`).Do()
	if err != nil || len(one.Endpoints) != 1 || idOf(one.Endpoints[0].Name) != "search-api" {
		t.Fatalf("filtered list = %+v (%v)", one, err)
	}
	// The interfaces are searchable too.
	one, err = eps.List(parent).Filter(`interfaces.url="https://search-api.example.com/v1"`).Do()
	if err != nil || len(one.Endpoints) != 1 || idOf(one.Endpoints[0].Name) != "search-api" {
		t.Fatalf("list filtered by interface URL = %+v (%v)", one, err)
	}
	_, err = eps.List(parent).Filter(`nosuchfield:x`).Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
	if _, err := svcs.Delete(parent + "/services/billing-api").Do(); err != nil {
		t.Fatal(err)
	}
	_, err = eps.Get(parent + "/endpoints/billing-api").Do()
	apiErr(t, err, 404, "NOT_FOUND")
	_, err = eps.Get(parent + "/endpoints/x").Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
}
