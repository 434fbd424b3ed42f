package netguard

// The guard over a plain http.Client, on loopback: Judge counts the given
// servers as public, Resolve maps test host names to loopback addresses.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
)

var loopback = netip.MustParseAddr("127.0.0.1")

var wantContains = livedoctest.WantContains

func addrPort(t *testing.T, srv *httptest.Server) netip.AddrPort {
	t.Helper()
	return netip.MustParseAddrPort(srv.Listener.Addr().String())
}

func portOf(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	return fmt.Sprint(addrPort(t, srv).Port())
}

// guardOf is the guard of a read that starts at start, on a network where
// the given servers are public and hosts resolve as given: the n-th lookup
// of a host gets its n-th answer, the last one repeating.
func guardOf(t *testing.T, start string, hosts map[string][][]netip.Addr, public ...*httptest.Server) *Guard {
	t.Helper()
	u, err := url.Parse(start)
	if err != nil {
		t.Fatal(err)
	}
	g := New(u)
	publicAt := map[netip.AddrPort]bool{}
	for _, s := range public {
		publicAt[addrPort(t, s)] = true
	}
	lookups := map[string]int{}
	g.Resolve = func(_ context.Context, host string) ([]netip.Addr, error) {
		answers, ok := hosts[host]
		if !ok {
			return nil, fmt.Errorf("lookup %s: no such host", host)
		}
		i := min(lookups[host], len(answers)-1)
		lookups[host]++
		return answers[i], nil
	}
	g.Judge = func(ap netip.AddrPort) Verdict {
		if publicAt[ap] {
			return Verdict{}
		}
		return Judge(ap.Addr())
	}
	return g
}

// internalService counts the requests that reached it.
func internalService(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { hits.Add(1) }))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func get(g *Guard, base *http.Transport, u string) error {
	resp, err := (&http.Client{Transport: g.Transport(base)}).Get(u)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.Body.Close()
}

func wantRefusal(t *testing.T, err error, wants ...string) {
	t.Helper()
	var r *Refusal
	if !errors.As(err, &r) {
		t.Fatalf("error %v, want a refusal of the guard", err)
	}
	wantContains(t, r.Error(), append([]string{"refused to connect"}, wants...)...)
}

// From a public start, a redirect to loopback is refused before any packet
// reaches it; the message names the address, its block and the start.
func TestGuardRefusesAPublicStartLeadingInward(t *testing.T) {
	internal, hits := internalService(t)
	public := httptest.NewServer(http.RedirectHandler(internal.URL, http.StatusFound))
	defer public.Close()
	g := guardOf(t, public.URL, nil, public)
	err := get(g, nil, public.URL)
	wantRefusal(t, err, " to "+internal.Listener.Addr().String()+", a loopback address (127.0.0.0/8, loopback, RFC 1122): "+
		"this fetch started at the public address "+public.Listener.Addr().String()+" ("+public.Listener.Addr().String()+")")
	if hits.Load() != 0 {
		t.Errorf("the internal service was reached %d times", hits.Load())
	}
}

// A start that is not public (loopback here) is the configuration's choice:
// its redirects to loopback are followed.
func TestGuardLetsAPrivateStartGoInward(t *testing.T) {
	internal, hits := internalService(t)
	private := httptest.NewServer(http.RedirectHandler(internal.URL, http.StatusFound))
	defer private.Close()
	if err := get(guardOf(t, private.URL, nil), nil, private.URL); err != nil {
		t.Fatal(err)
	}
	if hits.Load() != 1 {
		t.Errorf("the internal service was reached %d times, want 1", hits.Load())
	}
}

// A host name is judged by what it resolves to: an address that changes
// between requests (DNS rebinding) is judged on each dial; the message names
// the host and its address.
func TestGuardJudgesEveryDial(t *testing.T) {
	public := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer public.Close()
	rebound := netip.MustParseAddr("127.0.0.2")
	start := "http://rebind.test:" + portOf(t, public)
	g := guardOf(t, start, map[string][][]netip.Addr{"rebind.test": {{loopback}, {rebound}}}, public)
	direct := &http.Transport{DisableKeepAlives: true}
	if err := get(g, direct, start); err != nil {
		t.Fatalf("the first request: %v", err)
	}
	wantRefusal(t, get(g, direct, start), "rebind.test (127.0.0.2:"+portOf(t, public)+"), a loopback address",
		"started at the public address 127.0.0.1:"+portOf(t, public)+" (rebind.test:"+portOf(t, public)+")")
}

// Of a host's addresses, those refused are skipped for the next; a host with
// none refused is reached; one with no address is an error.
func TestGuardDialsTheFirstAllowedAddress(t *testing.T) {
	public := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer public.Close()
	port := portOf(t, public)
	start := "http://start.test:" + port
	hosts := map[string][][]netip.Addr{
		"start.test": {{loopback}},
		"mixed.test": {{netip.MustParseAddr("10.0.0.1"), loopback}},
		"empty.test": {{}},
	}
	g := guardOf(t, start, hosts, public)
	if err := get(g, nil, start); err != nil {
		t.Fatal(err)
	}
	// 10.0.0.1 is refused (private); loopback on the public server's port
	// is public here, and is dialled.
	if err := get(g, nil, "http://mixed.test:"+port); err != nil {
		t.Errorf("a host with an allowed address: %v", err)
	}
	wantContains(t, fmt.Sprint(get(g, nil, "http://empty.test:"+port)), "no address found for empty.test")
	wantContains(t, fmt.Sprint(get(g, nil, "http://unknown.test:"+port)), "lookup unknown.test: no such host")
}

// forward is a base transport that sends every request to proxy.
func forward(proxy *livedoctest.ForwardProxy) *http.Transport {
	u, _ := url.Parse(proxy.URL)
	return &http.Transport{Proxy: http.ProxyURL(u)}
}

// Through a proxy, a destination is judged before the request is handed
// over, by every address its host resolves to here: a public one goes
// through the proxy, a loopback one (from a public start) and one that does
// not resolve here are refused, and the proxy never hears of them.
func TestGuardJudgesBeforeTheProxy(t *testing.T) {
	agent := httptest.NewServer(http.RedirectHandler("/", http.StatusFound))
	agent.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/in" {
			http.Redirect(w, r, "http://internal.test:"+portOf(t, agent)+"/", http.StatusFound)
		}
	})
	defer agent.Close()
	names := map[string]string{"agent.test": "127.0.0.1", "internal.test": "127.0.0.1", "far.test": "127.0.0.1"}
	proxy := livedoctest.NewForwardProxy(t, names)
	start := "http://agent.test:" + portOf(t, agent)
	hosts := map[string][][]netip.Addr{"agent.test": {{loopback}}, "internal.test": {{netip.MustParseAddr("127.0.0.9")}}}
	g := guardOf(t, start, hosts, agent)
	if err := get(g, forward(proxy), start+"/"); err != nil {
		t.Fatalf("a public destination through the proxy: %v", err)
	}
	if !proxy.WasAsked("agent.test:" + portOf(t, agent)) {
		t.Errorf("the proxy was not asked for the agent: %v", proxy.Asked())
	}
	wantRefusal(t, get(g, forward(proxy), start+"/in"), "internal.test (127.0.0.9:"+portOf(t, agent)+"), a loopback address")
	err := get(g, forward(proxy), "http://far.test:"+portOf(t, agent)+"/")
	wantRefusal(t, err, "cannot judge far.test before handing the request to the proxy "+proxy.URL,
		"the host does not resolve on this machine (lookup far.test: no such host)", "list it in NO_PROXY")
	for _, host := range []string{"internal.test", "far.test"} {
		if proxy.WasAsked(host + ":" + portOf(t, agent)) {
			t.Errorf("the proxy was asked for %s: %v", host, proxy.Asked())
		}
	}
}

// A private start is not judged before the proxy: the proxy may take it
// anywhere the configuration chose.
func TestGuardLetsAPrivateStartThroughTheProxy(t *testing.T) {
	agent := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer agent.Close()
	proxy := livedoctest.NewForwardProxy(t, map[string]string{"intranet.test": "127.0.0.1", "unresolved.test": "127.0.0.1"})
	start := "http://intranet.test:" + portOf(t, agent)
	g := guardOf(t, start, map[string][][]netip.Addr{"intranet.test": {{loopback}}})
	if err := get(g, forward(proxy), start); err != nil {
		t.Fatalf("a private start through the proxy: %v", err)
	}
	// Decided private: a host that does not resolve here is no longer judged.
	if err := get(g, forward(proxy), "http://unresolved.test:"+portOf(t, agent)); err != nil {
		t.Errorf("after a private start: %v", err)
	}
}

// The proxy itself is dialled unjudged, for the requests handed to it only.
func TestGuardDialsTheChosenProxyOnly(t *testing.T) {
	proxy := livedoctest.NewForwardProxy(t, map[string]string{"agent.test": "127.0.0.1"})
	g := guardOf(t, "http://agent.test:1", map[string][][]netip.Addr{"agent.test": {{netip.MustParseAddr("8.8.8.8")}}})
	dial := g.dialContext(func(context.Context, string, string) (net.Conn, error) { return nil, errors.New("dialled") })
	proxyAddr := strings.TrimPrefix(proxy.URL, "http://")
	u, _ := url.Parse(proxy.URL)
	if _, err := dial(context.WithValue(context.Background(), proxyKey{}, u), "tcp", proxyAddr); fmt.Sprint(err) != "dialled" {
		t.Errorf("the chosen proxy: %v, want it dialled unjudged", err)
	}
	// Without a chosen proxy, the same address is judged: loopback after a
	// public start is refused.
	g.mu.Lock()
	g.decided, g.startPublic, g.startAddr = true, true, "8.8.8.8:1"
	g.mu.Unlock()
	_, err := dial(context.Background(), "tcp", proxyAddr)
	wantRefusal(t, err, " to "+proxyAddr+", a loopback address")
}

func TestHostPort(t *testing.T) {
	for raw, want := range map[string]string{
		"https://Example.COM/a": "example.com:443", "http://a.test": "a.test:80", "http://a.test:8080": "a.test:8080",
		"socks5://p.test": "p.test:1080", "socks5h://p.test": "p.test:1080", "http://[::1]:9/": "[::1]:9",
	} {
		u, _ := url.Parse(raw)
		if got := HostPort(u); got != want {
			t.Errorf("HostPort(%s) = %s, want %s", raw, got, want)
		}
	}
	if parsePort("8080") != 8080 || parsePort("80a") != 0 || parsePort("") != 0 {
		t.Errorf("parsePort: %d %d %d", parsePort("8080"), parsePort("80a"), parsePort(""))
	}
}

// Without a base transport, the environment's proxy is read now.
func TestDefaultTransportReadsTheEnvironment(t *testing.T) {
	t.Setenv("HTTP_PROXY", "http://proxy.test:3128")
	t.Setenv("NO_PROXY", "direct.test")
	tr := defaultTransport()
	for target, want := range map[string]string{"http://far.test/": "http://proxy.test:3128", "http://direct.test/": "<nil>"} {
		req := httptest.NewRequest(http.MethodGet, target, nil)
		u, err := tr.Proxy(req)
		if err != nil || fmt.Sprint(u) != want {
			t.Errorf("proxy of %s: %v, %v; want %s", target, u, err, want)
		}
	}
}

// A DefaultTransport another package replaced is not used: the guard starts
// from Go's defaults.
func TestDefaultTransportWhenReplaced(t *testing.T) {
	saved := http.DefaultTransport
	t.Cleanup(func() { http.DefaultTransport = saved })
	http.DefaultTransport = roundTripFunc(func(*http.Request) (*http.Response, error) { return nil, errors.New("replaced") })
	tr := defaultTransport()
	if !tr.ForceAttemptHTTP2 || tr.MaxIdleConns != 100 || tr.IdleConnTimeout != 90*time.Second ||
		tr.TLSHandshakeTimeout != 10*time.Second || tr.ExpectContinueTimeout != time.Second || tr.Proxy == nil {
		t.Errorf("the transport: %+v", tr)
	}
}

type roundTripFunc func(*http.Request) (*http.Response, error)

func (f roundTripFunc) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }
