package httpclient

import (
	"net/http"
	"net/http/httptest"
	"testing"
)

// idleCounter is a transport that counts the calls to close its idle
// connections.
type idleCounter struct {
	http.RoundTripper
	closed int
}

func (c *idleCounter) CloseIdleConnections() { c.closed++ }

// The transports of a read pass the closing of idle connections down to the
// transport that holds them; a transport that keeps none is left alone.
func TestCloseIdle(t *testing.T) {
	base := &idleCounter{RoundTripper: http.DefaultTransport}
	start := httptest.NewRequest(http.MethodGet, "https://agent.example.com/", nil).URL
	for _, rt := range []http.RoundTripper{&headerTransport{base: base, origin: start}, &Bounded{Base: base}} {
		before := base.closed
		CloseIdle(rt)
		if base.closed != before+1 {
			t.Errorf("%T: the transport below was told %d times, want once", rt, base.closed-before)
		}
	}
	CloseIdle(roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, nil })) // keeps none: no panic
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
