package livedoc

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// versionRecorder serves testCard and records the A2A-Version values of
// each request, by path.
type versionRecorder struct {
	mu  sync.Mutex
	got map[string][]string
}

func (v *versionRecorder) handler(found bool) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		v.mu.Lock()
		v.got[r.URL.Path] = append(v.got[r.URL.Path], strings.Join(r.Header.Values("A2A-Version"), "|"))
		v.mu.Unlock()
		if !found {
			http.NotFound(w, r)
			return
		}
		jsonBody(testCard)(w, r)
	}
}

// The card is asked for in A2A 1.0, at the well-known location and at the
// A2A 0.2 one it falls back to: an agent that serves both versions answers a
// request without A2A-Version with its 0.3 card. A header of the caller's
// own, in any case, is sent instead, once.
func TestFetchAgentCardAsksForA2A10(t *testing.T) {
	for _, tc := range []struct {
		headers map[string]string
		want    string
	}{
		{nil, "1.0"},
		{map[string]string{"Authorization": "Bearer x"}, "1.0"},
		{map[string]string{"A2A-Version": "0.3"}, "0.3"},
		{map[string]string{"a2a-version": "0.3"}, "0.3"},
	} {
		rec := &versionRecorder{got: map[string][]string{}}
		srv := serve(t, map[string]http.HandlerFunc{wellKnownCard: rec.handler(false), wellKnownCardV02: rec.handler(true)})
		if _, err := FetchAgentCard(context.Background(), srv.URL, Options{Headers: tc.headers}); err != nil {
			t.Fatal(err)
		}
		for _, path := range []string{wellKnownCard, wellKnownCardV02} {
			if got := rec.got[path]; len(got) != 1 || got[0] != tc.want {
				t.Errorf("headers %v: %s got A2A-Version %q, want one %q", tc.headers, path, got, tc.want)
			}
		}
	}
}

// On a redirect to another host, which never gets the caller's headers, the
// card is still asked for in A2A 1.0, unless the caller chose the version:
// then the other host gets no A2A-Version rather than another one.
func TestFetchAgentCardVersionAcrossHosts(t *testing.T) {
	for _, tc := range []struct {
		headers map[string]string
		want    string
	}{
		{nil, "1.0"},
		{map[string]string{"A2A-Version": "0.3"}, ""},
	} {
		rec := &versionRecorder{got: map[string][]string{}}
		other := serve(t, map[string]http.HandlerFunc{"/card.json": rec.handler(true)})
		start := serve(t, map[string]http.HandlerFunc{"/card.json": func(w http.ResponseWriter, r *http.Request) {
			http.Redirect(w, r, other.URL+"/card.json", http.StatusFound)
		}})
		if _, err := FetchAgentCard(context.Background(), start.URL+"/card.json", Options{Headers: tc.headers}); err != nil {
			t.Fatal(err)
		}
		if got := rec.got["/card.json"]; len(got) != 1 || got[0] != tc.want {
			t.Errorf("headers %v: the other host got A2A-Version %q, want %q", tc.headers, got, tc.want)
		}
	}
}
