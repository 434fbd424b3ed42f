package testkit

import (
	"context"
	"fmt"
	"net/http/httptest"
	"testing"

	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/option"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/registryservertest"
)

// Registry is a bundled registry server started in process for one test, on
// a loopback listener a CLI reaches, with two clients: the official generated
// one (API), to seed it as any other client would, and the provider's own
// without retries (Client), for checks: a fault the provider did not consume
// makes a check fail instead of being absorbed silently.
type Registry struct {
	Srv    *registryservertest.Server
	TS     *httptest.Server
	URL    string
	Client *registryclient.Client
	API    *agentregistry.APIService
}

// StartRegistry starts a registry server for the test with opts; it is
// closed when the test ends. It needs no CLI.
func StartRegistry(t testing.TB, opts registryserver.Options) *Registry {
	t.Helper()
	srv, ts := registryservertest.Start(t, opts)
	client, err := registryclient.New(context.Background(), registryclient.Config{
		Endpoint: ts.URL, AppHubEndpoint: ts.URL, AccessToken: opts.Token, RetryMax: -1,
	})
	if err != nil {
		t.Fatalf("client: %v", err)
	}
	apiOpts := []option.ClientOption{option.WithEndpoint(ts.URL + "/"), option.WithHTTPClient(ts.Client())}
	if opts.Token == "" {
		apiOpts = append(apiOpts, option.WithoutAuthentication())
	}
	api, err := agentregistry.NewService(context.Background(), apiOpts...)
	if err != nil {
		t.Fatalf("agentregistry client: %v", err)
	}
	return &Registry{Srv: srv, TS: ts, URL: ts.URL, Client: client, API: api}
}

// ProviderConfig is the provider block of a test's configuration: the
// registry at endpoint, in the project test-project.
func ProviderConfig(endpoint string) string {
	return fmt.Sprintf(`
provider "agentregistry" {
  endpoint = %q
  project  = "test-project"
}
`, endpoint)
}
