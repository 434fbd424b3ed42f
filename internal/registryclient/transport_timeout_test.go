package registryclient

import (
	"context"
	"errors"
	"io"
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

// Every wait counts against the request's deadline (RetryMax+1 attempts of
// RequestTimeout and RetryMax waits of RetryWaitMax): a registry that answers
// 503 with Retry-After: 300 to a client whose request_timeout is 1s ends the
// call at once, with an error that names the deadline and what it is made
// of, instead of waiting five minutes six times.
func TestRequestDeadlineBoundsRetryAfter(t *testing.T) {
	srv, rec := scripted(t, func(w http.ResponseWriter, _ *http.Request, _ recorded) {
		w.Header().Set("Retry-After", "300")
		writeError(w, http.StatusServiceUnavailable, "UNAVAILABLE", "come back later")
	})
	c := testClient(t, srv.URL, func(c *Config) { c.RequestTimeout = time.Second; c.RetryWaitMax = 10 * time.Millisecond })
	began := time.Now()
	_, err := c.GetService(testCtx(t), svcName)
	took := time.Since(began)
	var de *DeadlineError
	if !errors.As(err, &de) {
		t.Fatalf("err = %v (after %s), want a *DeadlineError", err, took.Round(time.Millisecond))
	}
	for _, want := range []string{"503", "Retry-After", "5m0s", "past this request's deadline of 7.06s",
		"7 attempt(s) of at most 1s (the provider's request_timeout)", "6 wait(s) of at most 10ms"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("err = %q, want it to say %q", err, want)
		}
	}
	if n := len(rec.all()); n != 1 {
		t.Errorf("attempts = %d, want 1: no wait fits in the deadline", n)
	}
	t.Logf("ended after %s: %v", took.Round(time.Millisecond), err)
}

// A Retry-After that fits in what is left of the deadline is honoured; the
// one that no longer fits ends the call: three attempts a second apart
// within a deadline of 7 x 300ms + 6 x 5ms.
func TestRequestDeadlineCountsEveryWait(t *testing.T) {
	srv, rec := scripted(t, func(w http.ResponseWriter, _ *http.Request, _ recorded) {
		w.Header().Set("Retry-After", "1")
		writeError(w, http.StatusTooManyRequests, "RESOURCE_EXHAUSTED", "slow down")
	})
	c := testClient(t, srv.URL, func(c *Config) { c.RequestTimeout = 300 * time.Millisecond })
	began := time.Now()
	_, err := c.GetService(testCtx(t), svcName)
	var de *DeadlineError
	if !errors.As(err, &de) || de.Deadline != 2130*time.Millisecond || de.RetryAfter != time.Second {
		t.Fatalf("err = %#v, want a *DeadlineError of 2.13s after a Retry-After of 1s", err)
	}
	if n := len(rec.all()); n != 3 {
		t.Errorf("attempts = %d, want 3 (at 0s, 1s and 2s)", n)
	}
	if took := time.Since(began); took < 1900*time.Millisecond {
		t.Errorf("the call ended after %s: the Retry-After waits that fit were not honoured", took)
	}
}

// The request's context ends a little after its deadline, as a backstop:
// whatever waits past it ends with a DeadlineError that is a
// context.DeadlineExceeded; the caller's own cancellation stays its own.
func TestRequestDeadlineBackstop(t *testing.T) {
	waitForEnd := roundTripFunc(func(r *http.Request) (*http.Response, error) {
		<-r.Context().Done()
		return nil, r.Context().Err()
	})
	tr := &deadlineTransport{base: waitForEnd, length: 20 * time.Millisecond, made: "how", grace: 10 * time.Millisecond}
	req, _ := http.NewRequestWithContext(testCtx(t), http.MethodGet, "http://registry.invalid/", nil)
	_, err := tr.RoundTrip(req)
	var de *DeadlineError
	if !errors.As(err, &de) || !errors.Is(err, context.DeadlineExceeded) || err.Error() != "the request and its retries passed their deadline of 20ms (how)" {
		t.Errorf("err = %v, want the deadline", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := tr.RoundTrip(req.WithContext(ctx)); !errors.Is(err, context.Canceled) || errors.As(err, &de) {
		t.Errorf("a cancelled caller: err = %v, want context.Canceled", err)
	}
}

// errorHandler hands back a DeadlineError rather than the last answer, and
// closes that answer's body.
func TestErrorHandlerEndsAtTheDeadline(t *testing.T) {
	body := &closeRecorder{}
	resp := &http.Response{StatusCode: http.StatusServiceUnavailable, Body: body}
	de := &DeadlineError{Deadline: time.Second, Made: "how", RetryAfter: time.Minute, Status: http.StatusServiceUnavailable}
	if got, err := errorHandler(resp, de, 1); got != nil || err != de || !body.closed {
		t.Errorf("errorHandler = %v, %v (body closed %v), want the DeadlineError", got, err, body.closed)
	}
}

type closeRecorder struct{ closed bool }

func (c *closeRecorder) Read([]byte) (int, error) { return 0, io.EOF }
func (c *closeRecorder) Close() error             { c.closed = true; return nil }
