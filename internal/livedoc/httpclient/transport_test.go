package httpclient

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/netguard"
)

var wantContains = livedoctest.WantContains

func parse(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}

func TestOrigin(t *testing.T) {
	for raw, want := range map[string]string{
		"HTTPS://Example.com:8443/a?b#c": "https://Example.com:8443",
		"http://user:pw@127.0.0.1/x":     "http://127.0.0.1",
	} {
		if got := Origin(parse(t, raw)); got != want {
			t.Errorf("Origin(%s) = %s, want %s", raw, got, want)
		}
	}
}

// Headers are sent to the origin of the start only: the same host on
// another port, or another host, gets none; the request given is not
// changed.
func TestTransportSendsHeadersToTheOriginOnly(t *testing.T) {
	got := map[string]string{}
	record := func(name string) http.HandlerFunc {
		return func(_ http.ResponseWriter, r *http.Request) { got[name] = r.Header.Get("X-Key") }
	}
	start := httptest.NewServer(record("start"))
	defer start.Close()
	other := httptest.NewServer(record("other"))
	defer other.Close()
	rt := Transport(nil, netguard.New(parse(t, start.URL)), parse(t, start.URL), map[string]string{"X-Key": "k-123456"})
	client := &http.Client{Transport: rt}
	for _, u := range []string{start.URL + "/a", other.URL + "/b"} {
		req, _ := http.NewRequest(http.MethodGet, u, nil)
		resp, err := client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		_ = resp.Body.Close()
		if req.Header.Get("X-Key") != "" {
			t.Errorf("the request given was changed: %v", req.Header)
		}
	}
	if got["start"] != "k-123456" || got["other"] != "" {
		t.Errorf("headers received: %v; want the start's only", got)
	}
	// Without headers, the request goes as it is.
	rt = Transport(nil, netguard.New(parse(t, start.URL)), parse(t, start.URL), nil)
	resp, err := (&http.Client{Transport: rt}).Get(start.URL + "/c")
	if err != nil {
		t.Fatal(err)
	}
	_ = resp.Body.Close()
	if got["start"] != "" {
		t.Errorf("headers received without any configured: %v", got)
	}
}

func redirectChain(t *testing.T, final string) *httptest.Server {
	t.Helper()
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var n int
		if _, err := fmt.Sscanf(r.URL.Path, "/r/%d", &n); err != nil || n == 0 {
			http.Redirect(w, r, final, http.StatusFound)
			return
		}
		http.Redirect(w, r, fmt.Sprintf("%s/r/%d", srv.URL, n-1), http.StatusFound)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// At most MaxRedirects redirects are followed, never from https to http.
func TestCheckRedirect(t *testing.T) {
	end := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer end.Close()
	client := &http.Client{CheckRedirect: CheckRedirect}
	// /r/N makes N+1 redirects: N hops, then the one to end.
	resp, err := client.Get(redirectChain(t, end.URL).URL + fmt.Sprintf("/r/%d", MaxRedirects-1))
	if err != nil {
		t.Fatalf("%d redirects: %v", MaxRedirects, err)
	}
	_ = resp.Body.Close()
	srv := redirectChain(t, end.URL)
	_, err = client.Get(srv.URL + fmt.Sprintf("/r/%d", MaxRedirects))
	var ref *Refusal
	if !errors.As(err, &ref) {
		t.Fatalf("%d redirects: %v, want a refusal", MaxRedirects+1, err)
	}
	wantContains(t, ref.Error(), fmt.Sprintf("more than %d redirects (started at %s/r/%d, the next was %s)",
		MaxRedirects, srv.URL, MaxRedirects, end.URL))

	via := []*http.Request{{URL: parse(t, "https://a.example/x")}}
	err = CheckRedirect(&http.Request{URL: parse(t, "http://a.example/y")}, via)
	wantContains(t, fmt.Sprint(err), "refusing a redirect from https to http: https://a.example/x redirected to http://a.example/y")
	if err := CheckRedirect(&http.Request{URL: parse(t, "https://b.example/y")}, via); err != nil {
		t.Errorf("https to https: %v", err)
	}
	if err := CheckRedirect(&http.Request{URL: parse(t, "https://b.example/y")}, []*http.Request{{URL: parse(t, "http://a.example/x")}}); err != nil {
		t.Errorf("http to https: %v", err)
	}
}

func TestSameOriginRedirects(t *testing.T) {
	start := parse(t, "https://mcp.example/mcp")
	policy := SameOriginRedirects(start)
	via := []*http.Request{{Method: http.MethodPost, URL: start}}
	if err := policy(&http.Request{Method: http.MethodPost, URL: parse(t, "https://MCP.example:443/v2")}, via); err != nil {
		t.Errorf("a redirect on the origin: %v", err)
	}
	err := policy(&http.Request{Method: http.MethodPost, URL: parse(t, "https://mcp.example:8443/mcp")}, via)
	wantContains(t, fmt.Sprint(err), "refusing a redirect to another origin with oauth: POST https://mcp.example/mcp was redirected "+
		"from https://mcp.example to https://mcp.example:8443 (https://mcp.example:8443/mcp)")
	err = policy(&http.Request{URL: parse(t, "http://mcp.example/mcp")}, via)
	wantContains(t, fmt.Sprint(err), "refusing a redirect from https to http")
	many := make([]*http.Request, MaxRedirects+1)
	for i := range many {
		many[i] = via[0]
	}
	wantContains(t, fmt.Sprint(policy(&http.Request{URL: start}, many)), "more than 5 redirects")
}

// Refused finds a refusal of the read's policy or of the guard in a chain,
// and nothing else.
func TestRefused(t *testing.T) {
	own := Refuse("by policy")
	if got := Refused(&url.Error{Op: "Get", URL: "u", Err: own}); got != own {
		t.Errorf("Refused = %v, want the policy's refusal", got)
	}
	if got := Refused(fmt.Errorf("wrapped: %w", errors.New("other"))); got != nil {
		t.Errorf("Refused = %v, want nil", got)
	}
	// A guard's refusal: the start counts as public, the redirect leads to
	// loopback.
	internal := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer internal.Close()
	public := httptest.NewServer(http.RedirectHandler(internal.URL, http.StatusFound))
	defer public.Close()
	g := netguard.New(parse(t, public.URL))
	publicAt := netip.MustParseAddrPort(public.Listener.Addr().String())
	g.Judge = func(ap netip.AddrPort) netguard.Verdict {
		if ap == publicAt {
			return netguard.Verdict{}
		}
		return netguard.Judge(ap.Addr())
	}
	_, err := (&http.Client{Transport: g.Transport(nil), CheckRedirect: CheckRedirect}).Get(public.URL)
	var guard *netguard.Refusal
	if got := Refused(err); !errors.As(got, &guard) {
		t.Errorf("Refused(%v) = %v, want the guard's refusal", err, got)
	}
}

// Bounded ends each request at its deadline, releases it once the body is
// closed, and reads each answer up to MaxAnswerBytes.
func TestBounded(t *testing.T) {
	var large atomic.Bool
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/stall" {
			<-r.Context().Done()
			return
		}
		body := "ok"
		if large.Load() {
			body = strings.Repeat("x", MaxAnswerBytes+1)
		}
		_, _ = io.WriteString(w, body)
	}))
	defer srv.Close()
	client := &http.Client{Transport: &Bounded{Base: http.DefaultTransport, Deadline: time.Now().Add(time.Minute)}}
	resp, err := client.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	ctx := resp.Request.Context()
	got, _ := io.ReadAll(resp.Body)
	if string(got) != "ok" || ctx.Err() != nil {
		t.Errorf("read %q, context %v before Close", got, ctx.Err())
	}
	_ = resp.Body.Close()
	if ctx.Err() == nil {
		t.Error("the request's deadline was not released when its body was closed")
	}
	large.Store(true)
	resp, err = client.Get(srv.URL)
	if err != nil {
		t.Fatal(err)
	}
	got, err = io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	if !errors.Is(err, ErrTooLarge) || len(got) != MaxAnswerBytes {
		t.Errorf("read %d bytes, %v; want %d and ErrTooLarge", len(got), err, MaxAnswerBytes)
	}
	late := &http.Client{Transport: &Bounded{Base: http.DefaultTransport, Deadline: time.Now().Add(100 * time.Millisecond)}}
	if _, err := late.Get(srv.URL + "/stall"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("a request past its deadline: %v", err)
	}
}

func TestWithDeadline(t *testing.T) {
	req := httptest.NewRequest(http.MethodGet, "http://a.example/", nil)
	deadline := time.Now().Add(time.Hour)
	bounded, release := WithDeadline(req, deadline)
	if d, ok := bounded.Context().Deadline(); !ok || !d.Equal(deadline) {
		t.Errorf("deadline %v, %v; want %v", d, ok, deadline)
	}
	released := false
	body := ReleaseOnClose(io.NopCloser(strings.NewReader("")), func() { released = true; release() })
	if err := body.Close(); err != nil || !released || bounded.Context().Err() == nil {
		t.Errorf("Close: %v, released %v, context %v", err, released, bounded.Context().Err())
	}
}

// TransportError says why an exchange failed: a refusal as it is, TLS, the
// read's own timeout (not the caller's), else the cause without the URL
// repeated.
func TestTransportError(t *testing.T) {
	live := context.Background()
	done, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		parent context.Context
		err    error
		want   string
	}{
		{live, &url.Error{Op: "Get", URL: "u", Err: Refuse("refused by policy")}, "refused by policy"},
		{live, &tls.CertificateVerificationError{Err: errors.New("x509: unknown authority")},
			"TLS error talking to T: the server's certificate is not accepted: x509: unknown authority"},
		{live, fmt.Errorf("dial: %w", tls.RecordHeaderError{Msg: "first record does not look like a TLS handshake"}),
			"TLS error talking to T: the server did not answer with TLS"},
		{live, fmt.Errorf("read: %w", context.DeadlineExceeded), "timed out after 3s waiting for T"},
		{done, &url.Error{Op: "Get", URL: "http://t/", Err: context.DeadlineExceeded}, "request to T failed: context deadline exceeded"},
		{live, &url.Error{Op: "Post", URL: "http://t/", Err: errors.New("connection reset")}, "request to T failed: connection reset"},
	} {
		if got := TransportError(tc.parent, tc.err, "T", 3*time.Second).Error(); got != tc.want {
			t.Errorf("TransportError(%v) = %q, want %q", tc.err, got, tc.want)
		}
	}
}
