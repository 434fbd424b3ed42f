package registryclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-log/tflogtest"
)

const svcName = testParent + "/services/planner"

func TestRetriesServerErrorsThenSucceeds(t *testing.T) {
	for _, code := range []int{500, 502, 503, 504} {
		t.Run(fmt.Sprint(code), func(t *testing.T) {
			var attempts atomic.Int32
			srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
				if attempts.Add(1) <= 2 {
					writeError(w, code, "UNAVAILABLE", "try later")
					return
				}
				writeJSON(w, 200, agentService(`{"name":"a"}`))
			})
			c := testClient(t, srv.URL)
			svc, err := c.GetService(testCtx(t), svcName)
			if err != nil {
				t.Fatalf("GetService: %v", err)
			}
			if svc.Name != svcName {
				t.Errorf("name = %q, want %q", svc.Name, svcName)
			}
			if n := rec.gets("/v1/" + svcName); n != 3 {
				t.Errorf("attempts = %d, want 3 (two %ds, then 200)", n, code)
			}
		})
	}
}

func TestRetryAfterIsHonoured(t *testing.T) {
	var attempts atomic.Int32
	srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
		if attempts.Add(1) == 1 {
			w.Header().Set("Retry-After", "1")
			writeError(w, 429, "RESOURCE_EXHAUSTED", "slow down")
			return
		}
		writeJSON(w, 200, agentService(`{}`))
	})
	// Backoff without Retry-After would be at most 5ms here.
	c := testClient(t, srv.URL)
	start := time.Now()
	if _, err := c.GetService(testCtx(t), svcName); err != nil {
		t.Fatalf("GetService: %v", err)
	}
	elapsed := time.Since(start)
	if n := rec.gets("/v1/" + svcName); n != 2 {
		t.Errorf("attempts = %d, want 2", n)
	}
	if elapsed < 900*time.Millisecond {
		t.Errorf("retried after %v; Retry-After: 1 asks for about 1s", elapsed)
	}
}

func TestRetryAfterParsing(t *testing.T) {
	now := time.Date(2025, 1, 2, 3, 4, 5, 0, time.UTC)
	tests := []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, false},
		{"3", 3 * time.Second, true},
		{"0", 0, true},
		{"-1", 0, false},
		{"soon", 0, false},
		{now.Add(7 * time.Second).Format(http.TimeFormat), 7 * time.Second, true},
		{now.Add(-time.Minute).Format(http.TimeFormat), 0, true},
		{"86400", maxRetryAfter, true},
	}
	for _, tt := range tests {
		got, ok := retryAfter(tt.in, now)
		if got != tt.want || ok != tt.ok {
			t.Errorf("retryAfter(%q) = %v, %v; want %v, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestBackoffIsExponentialWithJitterAndBounded(t *testing.T) {
	first, most := 200*time.Millisecond, 10*time.Second
	for attempt := 0; attempt < 40; attempt++ {
		ceiling := most
		if attempt < 6 {
			ceiling = first << attempt
		}
		for range 20 {
			d := backoff(first, most, attempt, nil)
			if d < ceiling/2 || d > ceiling {
				t.Fatalf("backoff(attempt %d) = %v, want within [%v, %v]", attempt, d, ceiling/2, ceiling)
			}
		}
	}
	resp := &http.Response{StatusCode: 503, Header: http.Header{"Retry-After": {"4"}}}
	if d := backoff(first, most, 0, resp); d != 4*time.Second {
		t.Errorf("backoff with Retry-After: 4 = %v, want 4s", d)
	}
}

func TestClientErrorsAreNotRetried(t *testing.T) {
	for _, code := range []int{400, 401, 403, 404, 409, 412} {
		t.Run(fmt.Sprint(code), func(t *testing.T) {
			srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
				writeError(w, code, "INVALID_ARGUMENT", "no")
			})
			c := testClient(t, srv.URL)
			_, err := c.GetService(testCtx(t), svcName)
			var ae *APIError
			if !errors.As(err, &ae) || ae.Code != code {
				t.Fatalf("err = %v, want an *APIError with code %d", err, code)
			}
			if n := len(rec.all()); n != 1 {
				t.Errorf("attempts = %d, want exactly 1", n)
			}
		})
	}
}

func TestRetriesAreBoundedAndKeepTheServerMessage(t *testing.T) {
	srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
		writeError(w, 503, "UNAVAILABLE", "the registry is down for maintenance")
	})
	c := testClient(t, srv.URL, func(c *Config) { c.RetryMax = 2 })
	_, err := c.GetService(testCtx(t), svcName)
	if n := len(rec.all()); n != 3 {
		t.Errorf("attempts = %d, want 3 (1 + RetryMax 2)", n)
	}
	want := "agent registry returned 503 UNAVAILABLE: the registry is down for maintenance"
	if err == nil || err.Error() != want {
		t.Errorf("err = %v, want %q", err, want)
	}
}

func TestDefaultRetryMaxIsSix(t *testing.T) {
	srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
		writeError(w, 500, "INTERNAL", "boom")
	})
	c := testClient(t, srv.URL)
	if _, err := c.GetService(testCtx(t), svcName); err == nil {
		t.Fatal("want an error")
	}
	if n := len(rec.all()); n != 7 {
		t.Errorf("attempts = %d, want 7 (1 + default RetryMax 6)", n)
	}
}

// dropConnection hijacks the connection and closes it; with partial, it
// first sends a status line and part of a body.
func dropConnection(t *testing.T, w http.ResponseWriter, partial bool) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		t.Error("response writer cannot be hijacked")
		return
	}
	conn, buf, err := hj.Hijack()
	if err != nil {
		t.Error(err)
		return
	}
	if partial {
		_, _ = buf.WriteString("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 500\r\n\r\n{\"name\":\"operations/")
		_ = buf.Flush()
	}
	_ = conn.Close()
}

func TestDroppedConnectionOnWriteIsRetriedWithTheSameRequestID(t *testing.T) {
	for _, partial := range []bool{false, true} {
		t.Run(map[bool]string{false: "no response", true: "mid-body"}[partial], func(t *testing.T) {
			var attempts atomic.Int32
			srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
				if r.Method == "POST" && attempts.Add(1) == 1 {
					dropConnection(t, w, partial)
					return
				}
				writeJSON(w, 200, map[string]any{"name": "operations/op1", "done": true,
					"response": agentService(`{"name":"a"}`)})
			})
			c := testClient(t, srv.URL)
			svc, err := c.CreateService(testCtx(t), testParent, "planner", newAgentService(`{"name":"a"}`))
			if err != nil {
				t.Fatalf("CreateService: %v", err)
			}
			if svc.Name != svcName {
				t.Errorf("name = %q", svc.Name)
			}
			posts := postsTo(rec, "/v1/"+testParent+"/services")
			if len(posts) != 2 {
				t.Fatalf("POST attempts = %d, want 2", len(posts))
			}
			id0, id1 := posts[0].Query["requestId"], posts[1].Query["requestId"]
			if len(id0) != 1 || id0[0] == "" || len(id1) != 1 || id0[0] != id1[0] {
				t.Errorf("requestId of the two attempts = %v and %v, want the same single value", id0, id1)
			}
			if !bytes.Equal(posts[0].Body, posts[1].Body) || len(posts[1].Body) == 0 {
				t.Errorf("the retried POST body differs: %q vs %q", posts[0].Body, posts[1].Body)
			}
		})
	}
}

func TestBearerTokenIsSentWhenConfigured(t *testing.T) {
	srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
		writeJSON(w, 200, agentService(`{}`))
	})
	c := testClient(t, srv.URL, func(c *Config) { c.AccessToken = "ya29.secret-token"; c.UserAgent = "1.2.3" })
	if _, err := c.GetService(testCtx(t), svcName); err != nil {
		t.Fatal(err)
	}
	c2 := testClient(t, srv.URL)
	if _, err := c2.GetService(testCtx(t), svcName); err != nil {
		t.Fatal(err)
	}
	reqs := rec.all()
	if got := reqs[0].Header.Get("Authorization"); got != "Bearer ya29.secret-token" {
		t.Errorf("Authorization = %q, want the bearer token", got)
	}
	if got, ok := reqs[1].Header["Authorization"]; ok {
		t.Errorf("Authorization = %q without credentials, want no header", got)
	}
	if ua := reqs[0].Header.Get("User-Agent"); !strings.HasPrefix(ua, "terraform-provider-agentregistry/1.2.3") {
		t.Errorf("User-Agent = %q", ua)
	}
	if ua := reqs[1].Header.Get("User-Agent"); !strings.HasPrefix(ua, "terraform-provider-agentregistry/dev") {
		t.Errorf("User-Agent = %q", ua)
	}
}

func TestTokenNeverLogged(t *testing.T) {
	const token = "ya29.never-log-me-4f7c"
	var attempts atomic.Int32
	srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
		switch attempts.Add(1) {
		case 1:
			writeError(w, 503, "UNAVAILABLE", "busy")
		case 2:
			dropConnection(t, w, false)
		case 3:
			writeJSON(w, 200, agentService(`{}`))
		default:
			writeError(w, 400, "INVALID_ARGUMENT", "bad")
		}
	})
	var logs bytes.Buffer
	ctx := tflogtest.RootLogger(testCtx(t), &logs)
	c := testClient(t, srv.URL, func(c *Config) { c.AccessToken = token })
	if _, err := c.GetService(ctx, svcName); err != nil {
		t.Fatal(err)
	}
	_, err := c.GetService(ctx, svcName)
	if err == nil || strings.Contains(err.Error(), token) {
		t.Errorf("err = %v: want an error without the token", err)
	}
	out := logs.String()
	if !strings.Contains(out, `"http_method":"GET"`) || !strings.Contains(out, srv.URL+"/v1/"+svcName) {
		t.Fatalf("expected debug logs with method and URL, got:\n%s", out)
	}
	if !strings.Contains(out, "retry") {
		t.Errorf("expected the retries to be logged, got:\n%s", out)
	}
	if strings.Contains(out, token) || strings.Contains(out, "Bearer") || strings.Contains(out, "Authorization") {
		t.Errorf("the token or the Authorization header appears in the logs:\n%s", out)
	}
}

func TestContextCancelStopsRetrying(t *testing.T) {
	srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
		w.Header().Set("Retry-After", "30")
		writeError(w, 429, "RESOURCE_EXHAUSTED", "later")
	})
	c := testClient(t, srv.URL)
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err := c.GetService(ctx, svcName)
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("err = %v, want context.DeadlineExceeded", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Errorf("the call outlived its context")
	}
	if n := len(rec.all()); n != 1 {
		t.Errorf("attempts = %d, want 1", n)
	}
}

func TestEndpointNormalisation(t *testing.T) {
	tests := []struct{ in, want, err string }{
		{"", DefaultEndpoint, ""},
		{"http://127.0.0.1:8080", "http://127.0.0.1:8080/", ""},
		{"https://example.com/base/", "https://example.com/base/", ""},
		{"127.0.0.1:8080", "", "http:// or https://"},
		{"https://x/?a=b", "", "no query"},
	}
	for _, tt := range tests {
		got, err := normalizeEndpoint(tt.in, DefaultEndpoint)
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("normalizeEndpoint(%q) err = %v, want %q", tt.in, err, tt.err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("normalizeEndpoint(%q) = %q, %v; want %q", tt.in, got, err, tt.want)
		}
	}
}

func TestEndpointWithPathPrefix(t *testing.T) {
	srv, rec := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
		writeJSON(w, 200, agentService(`{}`))
	})
	c := testClient(t, srv.URL+"/prefix")
	if _, err := c.GetService(testCtx(t), svcName); err != nil {
		t.Fatal(err)
	}
	if p := rec.all()[0].Path; p != "/prefix/v1/"+svcName {
		t.Errorf("path = %q", p)
	}
}

func TestNewRequestIDIsUUIDv4(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		id := NewRequestID()
		if len(id) != 36 || id[14] != '4' || !strings.ContainsRune("89ab", rune(id[19])) ||
			id[8] != '-' || id[13] != '-' || id[18] != '-' || id[23] != '-' {
			t.Fatalf("NewRequestID() = %q, not a UUIDv4", id)
		}
		if seen[id] {
			t.Fatalf("duplicate id %q", id)
		}
		seen[id] = true
	}
}

func postsTo(rec *recorder, path string) []recorded {
	var out []recorded
	for _, r := range rec.all() {
		if r.Method == "POST" && r.Path == path {
			out = append(out, r)
		}
	}
	return out
}

func TestADCErrorIsActionable(t *testing.T) {
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", t.TempDir()+"/missing.json")
	_, err := New(context.Background(), Config{UseADC: true})
	if err == nil || !strings.Contains(err.Error(), "Application Default Credentials") || !strings.Contains(err.Error(), "access_token") {
		t.Errorf("err = %v", err)
	}
}

// A redirect to another origin (here another loopback port) is refused when
// the client sends credentials, with an error naming both origins, and is
// not retried; the other origin receives nothing. (The transport adds the
// token to every request, so net/http's stripping of Authorization on
// cross-host redirects would not apply.)
func TestRedirectToAnotherHostKeepsTheToken(t *testing.T) {
	other, otherRec := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
		writeJSON(w, 200, agentService(`{}`))
	})
	home, homeRec := scripted(t, func(w http.ResponseWriter, r *http.Request, _ recorded) {
		if strings.HasPrefix(r.URL.Path, "/moved/") { // a redirect on the same host is followed
			http.Redirect(w, r, other.URL+strings.TrimPrefix(r.URL.Path, "/moved"), http.StatusTemporaryRedirect)
			return
		}
		http.Redirect(w, r, "/moved"+r.URL.Path, http.StatusTemporaryRedirect)
	})
	c := testClient(t, home.URL, func(cfg *Config) { cfg.AccessToken = "s3cret-token" })
	_, err := c.GetService(testCtx(t), svcName)
	if err == nil || !strings.Contains(err.Error(), "refusing to follow the redirect from "+home.URL+" to "+other.URL) {
		t.Fatalf("err = %v; want the redirect refused, naming both origins", err)
	}
	if n := len(otherRec.all()); n != 0 {
		t.Errorf("the other host received %d requests", n)
	}
	if n := len(homeRec.all()); n != 2 {
		t.Errorf("the endpoint received %d requests, want 2 (the request and the same-host redirect, not retried)", n)
	}
	for _, r := range homeRec.all() {
		if r.Header.Get("Authorization") != "Bearer s3cret-token" {
			t.Errorf("request to the endpoint without the token: %v", r.Header)
		}
	}

	// Without credentials there is nothing to leak, and the redirect is followed.
	c = testClient(t, home.URL)
	if _, err := c.GetService(testCtx(t), svcName); err != nil {
		t.Fatalf("without a token: %v", err)
	}
	if n := len(otherRec.all()); n != 1 {
		t.Errorf("without a token the other host received %d requests, want 1", n)
	}
}

// keepCredentialsHome follows a redirect within the request's origin only
// (scheme, host and port, the default port spelt or not), and no more than
// net/http would.
func TestKeepCredentialsHome(t *testing.T) {
	get := func(u string) *http.Request {
		r, err := http.NewRequest("GET", u, nil)
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	from := []*http.Request{get("https://registry.example.test/v1/x")}
	for u, want := range map[string]string{
		"https://registry.example.test/v1/y":      "",
		"https://REGISTRY.example.test:443/v1/y":  "",
		"https://registry.example.test:8443/v1/y": "from https://registry.example.test:443 to https://registry.example.test:8443",
		"https://elsewhere.example.test/v1/y":     "from https://registry.example.test:443 to https://elsewhere.example.test:443",
		"http://registry.example.test/v1/y":       "from https://registry.example.test:443 to http://registry.example.test:80",
		"http://registry.example.test:443/v1/y":   "from https://registry.example.test:443 to http://registry.example.test:443",
	} {
		err := keepCredentialsHome(get(u), from)
		if (want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), want)) {
			t.Errorf("%s: %v, want %q", u, err, want)
		}
	}
	ten := make([]*http.Request, 10)
	for i := range ten {
		ten[i] = from[0]
	}
	if err := keepCredentialsHome(get("https://registry.example.test/v1/z"), ten); err == nil {
		t.Error("an eleventh redirect was followed")
	}
}

// A connection refused on loopback means nothing listens there: the client
// fails at once, naming the URL once and keeping the cause for callers
// (errors.Is ECONNREFUSED), instead of retrying for seconds.
func TestRefusedLoopbackConnectionFailsAtOnce(t *testing.T) {
	// Port 1 (tcpmux) on loopback: nothing listens there, and unlike a port
	// taken and freed, no other test's server can take it meanwhile.
	const addr = "127.0.0.1:1"
	c := testClient(t, "http://"+addr, func(cfg *Config) { cfg.RetryWaitMin, cfg.RetryWaitMax = 50*time.Millisecond, 50*time.Millisecond })
	_, err := c.GetService(context.Background(), svcName)
	if err == nil {
		t.Fatal("expected an error from a closed port")
	}
	msg := err.Error()
	if !errors.Is(err, syscall.ECONNREFUSED) || !strings.Contains(msg, "giving up after 1 attempt(s)") {
		t.Errorf("want one attempt and ECONNREFUSED in the chain, got %q", msg)
	}
	if n := strings.Count(msg, addr); n != 2 { // the URL once, the dial target once
		t.Errorf("the address appears %d times in %q; want the URL once and the dial target once", n, msg)
	}
}

func TestRefusedOnLoopbackOnlyForLoopbackHosts(t *testing.T) {
	refused := &net.OpError{Op: "dial", Net: "tcp", Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)}
	for _, c := range []struct {
		url  string
		want bool
	}{
		{"http://127.0.0.1:8787/v1/x", true},
		{"http://127.1.2.3:8787/v1/x", true},
		{"http://[::1]:8787/v1/x", true},
		{"http://localhost:8787/v1/x", true},
		{"https://agentregistry.googleapis.com/v1/x", false},
		{"http://192.0.2.10:8787/v1/x", false},
	} {
		err := &url.Error{Op: "Get", URL: c.url, Err: refused}
		if got := refusedOnLoopback(err); got != c.want {
			t.Errorf("%s: refusedOnLoopback = %v, want %v", c.url, got, c.want)
		}
	}
	if refusedOnLoopback(&url.Error{Op: "Get", URL: "http://127.0.0.1:1/", Err: errors.New("timeout")}) {
		t.Error("only a refused connection fails at once")
	}
}
