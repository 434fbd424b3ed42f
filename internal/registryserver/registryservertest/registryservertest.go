// Package registryservertest starts the bundled registry server for tests.
package registryservertest

import (
	"net/http/httptest"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
)

// Start runs a registry server on a local httptest listener. The server and
// listener are closed when the test ends. Use ts.URL as the endpoint.
func Start(t testing.TB, opts registryserver.Options) (*registryserver.Server, *httptest.Server) {
	t.Helper()
	srv, err := registryserver.New(opts)
	if err != nil {
		t.Fatalf("start registry server: %v", err)
	}
	ts := httptest.NewServer(srv)
	t.Cleanup(func() {
		ts.Close()
		if err := srv.Close(); err != nil {
			t.Errorf("close registry server: %v", err)
		}
	})
	return srv, ts
}
