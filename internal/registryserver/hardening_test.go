package registryserver_test

// Tests of what a hostile tester found in the bundled server (issue 18),
// through raw HTTP or the official generated clients.

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
)

// heapInUse returns the live heap after a full collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// Item 1: the shipped server keeps nothing of a request, so requests without
// the token (and with it) cannot make it grow. On main, 300 GETs with 100 KB
// query strings kept 30 MB in a request log.
func TestRequestsAreNotRetained(t *testing.T) {
	for _, token := range []string{"s3cret", ""} {
		srv, err := registryserver.New(registryserver.Options{Token: token})
		if err != nil {
			t.Fatal(err)
		}
		// A parameter the server ignores, so that the request succeeds without a token.
		query := "?junk=" + strings.Repeat("x", 100<<10)
		before := heapInUse()
		for range 300 {
			w := httptest.NewRecorder()
			srv.ServeHTTP(w, httptest.NewRequest("GET", "/v1/"+parent+"/services"+query, nil))
			if want := map[string]int{"s3cret": http.StatusUnauthorized, "": http.StatusOK}[token]; w.Code != want {
				t.Fatalf("token %q: status %d, want %d: %s", token, w.Code, want, w.Body)
			}
		}
		after := heapInUse()
		runtime.KeepAlive(srv)
		if grown := int64(after) - int64(before); grown > 8<<20 {
			t.Errorf("token %q: the heap grew by %d MB over 300 requests of 100 KB; the server keeps requests", token, grown>>20)
		}
	}
}
