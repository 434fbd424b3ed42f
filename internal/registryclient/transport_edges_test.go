package registryclient

// Edges of the transport that the mutation run (make mutation) found
// untested: backoff at its limits, the request log (masking, retries,
// responses), the User-Agent joining, and the response size limit.

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflog"
	"github.com/hashicorp/terraform-plugin-log/tflogtest"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

func TestBackoffLimits(t *testing.T) {
	// The smallest waits: the jitter range is [d/2, d], never empty.
	for _, d := range []time.Duration{1, 2, 3} {
		if got := backoff(d, d, 0, nil); got < d/2 || got > d {
			t.Errorf("backoff(%v, %v, 0) = %v", d, d, got)
		}
	}
	// min << attempt past the capacity of a Duration is the maximum, not 0.
	if got := backoff(1<<40, 2*time.Hour, 31, nil); got < time.Hour {
		t.Errorf("backoff with an overflowing shift = %v, want at least an hour", got)
	}
	// From attempt 32 on, the maximum.
	if got := backoff(time.Nanosecond, 10*time.Second, 32, nil); got < 5*time.Second {
		t.Errorf("backoff(1ns, 10s, 32) = %v, want at least 5s", got)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func TestUserAgentTransport(t *testing.T) {
	for _, tt := range []struct{ prev, want string }{
		{"", "terraform-provider-agentregistry/1.0"},
		{"google-api-go-client/0.5", "terraform-provider-agentregistry/1.0 google-api-go-client/0.5"},
		// Already there (not written twice).
		{"terraform-provider-agentregistry/1.0", "terraform-provider-agentregistry/1.0"},
	} {
		var got string
		rt := &userAgentTransport{userAgent: "terraform-provider-agentregistry/1.0", base: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			got = r.Header.Get("User-Agent")
			return &http.Response{StatusCode: 200, Body: http.NoBody}, nil
		})}
		req, _ := http.NewRequest("GET", "http://127.0.0.1/x", nil)
		if tt.prev != "" {
			req.Header.Set("User-Agent", tt.prev)
		}
		if _, err := rt.RoundTrip(req); err != nil || got != tt.want {
			t.Errorf("User-Agent after %q = %q, %v; want %q", tt.prev, got, err, tt.want)
		}
	}
}

func TestBufferingTransportLimit(t *testing.T) {
	serve := func(n int) (*http.Response, error) {
		rt := &bufferingTransport{base: roundTripFunc(func(r *http.Request) (*http.Response, error) {
			return &http.Response{StatusCode: 200, Body: io.NopCloser(bytes.NewReader(make([]byte, n)))}, nil
		})}
		req, _ := http.NewRequest("GET", "http://127.0.0.1/x", nil)
		return rt.RoundTrip(req)
	}
	resp, err := serve(maxResponseBytes)
	if err != nil {
		t.Fatalf("a body of exactly %d bytes: %v", maxResponseBytes, err)
	}
	if b, _ := io.ReadAll(resp.Body); len(b) != maxResponseBytes || resp.ContentLength != maxResponseBytes {
		t.Errorf("body read back = %d bytes (ContentLength %d), want %d", len(b), resp.ContentLength, maxResponseBytes)
	}
	if _, err := serve(maxResponseBytes + 1); !errors.Is(err, errResponseTooLarge) {
		t.Errorf("a body of %d bytes: err = %v, want errResponseTooLarge", maxResponseBytes+1, err)
	}
}

func TestRequestLogger(t *testing.T) {
	var buf bytes.Buffer
	ctx := tflogtest.RootLogger(context.Background(), &buf)
	secrets := &redact.Secrets{}
	secrets.Add(LabelCredential, "s3cret-token")
	l := &requestLogger{secrets: secrets}

	tflog.Debug(l.ctx(ctx), "sent s3cret-token", map[string]any{"token": "s3cret-token"})
	u, _ := url.Parse("http://127.0.0.1/v1/x?a=b")
	req := (&http.Request{Method: "GET", URL: u, Header: http.Header{}}).WithContext(ctx)
	l.request(nil, req, 0)
	l.request(nil, req, 2)
	l.response(nil, &http.Response{StatusCode: 418, Request: req})
	l.response(nil, nil)
	l.response(nil, &http.Response{StatusCode: 500})

	entries, err := tflogtest.MultilineJSONDecode(&buf)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(buf.String(), "s3cret-token") {
		t.Errorf("the secret was logged: %s", buf.String())
	}
	var msgs []string
	for _, e := range entries {
		msg, _ := e["@message"].(string) // a missing message shows as "" in the comparison below
		msgs = append(msgs, msg)
	}
	want := []string{"sent ***", "agent registry request", "agent registry request (retry)", "agent registry response"}
	if strings.Join(msgs, "|") != strings.Join(want, "|") {
		t.Fatalf("log messages = %q, want %q", msgs, want)
	}
	if _, ok := entries[1]["retry"]; ok {
		t.Errorf("the first attempt has a retry field: %v", entries[1])
	}
	if entries[2]["retry"] != float64(2) || entries[3]["http_status_code"] != float64(418) {
		t.Errorf("retry and response entries = %v, %v", entries[2], entries[3])
	}
	// Without a secret nothing is masked.
	buf.Reset()
	tflog.Debug((&requestLogger{}).ctx(ctx), "plain message")
	if !strings.Contains(buf.String(), "plain message") {
		t.Errorf("without a secret: %s", buf.String())
	}
}
