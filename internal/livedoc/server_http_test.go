package livedoc

import (
	"errors"
	"net/http"
	"net/url"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/httpclient"
)

// refusingTransport refuses every request with the next of its refusals.
type refusingTransport struct{ refusals []error }

func (r *refusingTransport) RoundTrip(*http.Request) (*http.Response, error) {
	err := r.refusals[0]
	r.refusals = r.refusals[1:]
	return nil, err
}

// A destination the guard refused explains the read's end even when the SDK
// reports it as its connection closing (HTTP+SSE: the stream can end before
// the POST's error reaches the caller); the first refusal is the one named,
// and an error that is no refusal is not kept.
func TestStoppedNamesTheRefusedDestination(t *testing.T) {
	first, second := httpclient.Refuse("first refused"), httpclient.Refuse("second refused")
	u, _ := url.Parse("http://agent.test/sse")
	watch := &mcpHTTP{base: &refusingTransport{refusals: []error{errors.New("connection reset"), first, second}}}
	s := &httpServer{url: u, watch: watch}
	closing := errors.New(`calling "initialize": client is closing: EOF`)
	for range 3 {
		req, _ := http.NewRequest(http.MethodPost, "http://internal.test/messages", nil)
		_, _ = watch.RoundTrip(req) //nolint:bodyclose // no body: every request is refused
	}
	if got := s.stopped(closing); !errors.Is(got, first) {
		t.Fatalf("stopped = %v, want the first refusal", got)
	}
	if got := (&httpServer{url: u, watch: &mcpHTTP{}}).stopped(closing); got != nil {
		t.Fatalf("stopped with nothing refused = %v, want nil", got)
	}
}
