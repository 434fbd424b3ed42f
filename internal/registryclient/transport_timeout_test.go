package registryclient

import (
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"
)

// A registry that accepts the connection and never answers (or answers its
// headers and never finishes the body) ends each attempt at the request
// timeout; the call ends after RetryMax+1 attempts with an error that says so.
func TestRequestTimeoutEndsASilentRegistry(t *testing.T) {
	cases := map[string]func(w http.ResponseWriter){
		"no answer": func(http.ResponseWriter) {},
		"headers, then a body that never ends": func(w http.ResponseWriter) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write([]byte(`{"name":"`))
			http.NewResponseController(w).Flush() //nolint:errcheck // a test server's flush
		},
	}
	for name, start := range cases {
		t.Run(name, func(t *testing.T) {
			release := make(chan struct{})
			srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
				start(w)
				select {
				case <-release:
				case <-r.Context().Done():
				}
			})
			t.Cleanup(func() { close(release) })
			c := testClient(t, srv.URL, func(c *Config) { c.RequestTimeout = 100 * time.Millisecond; c.RetryMax = 2 })
			began := time.Now()
			_, err := c.GetService(testCtx(t), svcName)
			if err == nil || !errors.Is(err, errAttemptTimeout) {
				t.Fatalf("err = %v, want the request timeout", err)
			}
			if !strings.Contains(err.Error(), "did not answer within the request timeout of 100ms") {
				t.Errorf("err = %q, want it to name the timeout", err)
			}
			if n := len(rec.all()); n != 3 {
				t.Errorf("attempts = %d, want 3 (1 + RetryMax 2)", n)
			}
			if took := time.Since(began); took > 10*time.Second {
				t.Errorf("the call took %s", took)
			}
		})
	}
}

// An answer that comes within the timeout is unaffected by it, and the body
// stays readable after the attempt's context is released.
func TestRequestTimeoutLeavesTimelyAnswers(t *testing.T) {
	srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
		time.Sleep(20 * time.Millisecond)
		writeJSON(w, http.StatusOK, map[string]any{"name": svcName, "displayName": "kept"})
	})
	c := testClient(t, srv.URL, func(c *Config) { c.RequestTimeout = 5 * time.Second })
	svc, err := c.GetService(testCtx(t), svcName)
	if err != nil {
		t.Fatal(err)
	}
	if svc.DisplayName != "kept" {
		t.Errorf("displayName = %q, want the body read in full", svc.DisplayName)
	}
	if n := len(rec.all()); n != 1 {
		t.Errorf("attempts = %d, want 1", n)
	}
}

func TestRequestTimeoutDefaultsToAMinute(t *testing.T) {
	if got := withDefaults(Config{}).RequestTimeout; got != time.Minute {
		t.Errorf("default RequestTimeout = %s, want 1m", got)
	}
}
