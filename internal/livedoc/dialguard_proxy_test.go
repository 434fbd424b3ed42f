package livedoc

// The dial guard with HTTP_PROXY, HTTPS_PROXY and NO_PROXY set: every
// destination (the start, each redirect, each announced MCP endpoint) is
// judged by what its host resolves to here before the request is handed to
// the proxy, and every direct dial (NO_PROXY hosts) again. The proxy is a
// real forward proxy on loopback (livedoctest.ForwardProxy); the test network
// makes the agent's server count as public, as in dialguard_test.go.

import (
	"context"
	"crypto/tls"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"golang.org/x/net/http/httpproxy"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
)

// proxyFromEnv is http.ProxyFromEnvironment read afresh on every request
// (the standard library's reads the environment once per process).
func proxyFromEnv(r *http.Request) (*url.URL, error) {
	return httpproxy.FromEnvironment().ProxyFunc()(r.URL)
}

// setProxy points HTTP_PROXY and HTTPS_PROXY at p, with noProxy as NO_PROXY.
func setProxy(t *testing.T, p *livedoctest.ForwardProxy, noProxy string) {
	for _, name := range []string{"HTTP_PROXY", "http_proxy", "HTTPS_PROXY", "https_proxy"} {
		t.Setenv(name, p.URL)
	}
	t.Setenv("NO_PROXY", noProxy)
	t.Setenv("no_proxy", noProxy)
}

func port(t *testing.T, srv *httptest.Server) string {
	t.Helper()
	_, p, err := net.SplitHostPort(srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

var loopback = netip.MustParseAddr("127.0.0.1")

// proxied is the set-up of one test: a public agent at agent.test, an
// internal service at internal.test (both on loopback, both known to the
// proxy and to the test network) and the proxy in the environment.
type proxied struct {
	proxy    *livedoctest.ForwardProxy
	agent    *httptest.Server // public
	internal *httptest.Server // not public
	hits     *atomic.Int64    // requests that reached internal
	opts     Options          // through the proxy, on the test network
}

// The agent's handler is set by each test (p.agent.Config.Handler).
func newProxied(t *testing.T, noProxy string) *proxied {
	t.Helper()
	internal, hits := internalService(t)
	srv := httptest.NewServer(nil)
	t.Cleanup(srv.Close)
	names := map[string]string{"agent.test": "127.0.0.1", "internal.test": "127.0.0.1", "intranet.test": "127.0.0.1"}
	p := livedoctest.NewForwardProxy(t, names)
	setProxy(t, p, noProxy)
	hosts := map[string][][]netip.Addr{}
	for name := range names {
		hosts[name] = [][]netip.Addr{{loopback}}
	}
	return &proxied{proxy: p, agent: srv, internal: internal, hits: hits,
		opts: Options{Transport: &http.Transport{Proxy: proxyFromEnv}}.on(publicNet(t, hosts, srv))}
}

func (p *proxied) agentURL(t *testing.T, path string) string {
	return "http://agent.test:" + port(t, p.agent) + path
}

func (p *proxied) internalURL(t *testing.T) string {
	return "http://internal.test:" + port(t, p.internal)
}

// wantNotHandedToProxy fails when the proxy was asked for host.
func (p *proxied) wantNotHandedToProxy(t *testing.T, host string) {
	t.Helper()
	if p.proxy.WasAsked(host) {
		t.Errorf("the proxy was asked for %s: %v", host, p.proxy.Asked())
	}
}

// A public destination is read through the proxy: over http (absolute-form)
// and https (CONNECT), a card and an MCP server's tools alike.
func TestDialGuardProxy_publicDestinationsWorkThroughTheProxy(t *testing.T) {
	p := newProxied(t, "")
	p.agent.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/hop/card.json" {
			http.Redirect(w, r, "/card.json", http.StatusFound)
			return
		}
		jsonBody(testCard)(w, r)
	})
	card, err := FetchAgentCard(context.Background(), p.agentURL(t, "/hop/card.json"), p.opts)
	if err != nil || string(card.Body) != testCard {
		t.Fatalf("through the proxy: %v", err)
	}
	if asked := p.proxy.Asked(); len(asked) != 2 || asked[0] != "agent.test:"+port(t, p.agent) {
		t.Errorf("the proxy was asked for %v; want agent.test twice", asked)
	}

	// https through a CONNECT tunnel.
	tlsAgent := httptest.NewTLSServer(jsonBody(testCard))
	defer tlsAgent.Close()
	tr := transportOf(t, tlsAgent).Clone()
	tr.Proxy = proxyFromEnv
	n := publicNet(t, map[string][][]netip.Addr{"agent.test": {{loopback}}}, tlsAgent)
	tr.TLSClientConfig = &tls.Config{RootCAs: tr.TLSClientConfig.RootCAs, ServerName: "example.com"}
	card, err = FetchAgentCard(context.Background(), "https://agent.test:"+port(t, tlsAgent)+"/card.json", Options{Transport: tr}.on(n))
	if err != nil || string(card.Body) != testCard {
		t.Fatalf("https through the proxy: %v", err)
	}
	if !p.proxy.WasAsked("agent.test:" + port(t, tlsAgent)) {
		t.Errorf("no CONNECT to the TLS agent: %v", p.proxy.Asked())
	}

	// An MCP server over Streamable HTTP (the SDK refuses a Host other than
	// localhost on loopback unless told not to).
	mcpServer := livedoctest.NewMCPServer(0, livedoctest.NamedTools("a", "b")...)
	mcpSrv := httptest.NewServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return mcpServer },
		&mcp.StreamableHTTPOptions{DisableLocalhostProtection: true}))
	defer mcpSrv.Close()
	n = publicNet(t, map[string][][]netip.Addr{"agent.test": {{loopback}}}, mcpSrv)
	tools, err := FetchToolSpec(context.Background(), "http://agent.test:"+port(t, mcpSrv)+"/", ToolSpecOptions{Options: p.opts.on(n)})
	if err != nil || !slices.Equal(tools.ToolNames, []string{"a", "b"}) {
		t.Fatalf("MCP through the proxy: %v", err)
	}
}

// A redirect from the public start to a destination that is not public is
// refused before the proxy is asked for it.
func TestDialGuardProxy_redirectRefusedBeforeTheProxy(t *testing.T) {
	for _, tc := range []struct{ name, target, host, kind string }{
		{"loopback host name", "", "internal.test", "loopback"},
		{"cloud metadata", "http://169.254.169.254", "169.254.169.254", "link-local"},
		{"private", "http://10.0.0.1:8080", "10.0.0.1", "private"},
		{"NAT64 of metadata", "http://[64:ff9b::a9fe:a9fe]", "64:ff9b::a9fe:a9fe", "link-local"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := newProxied(t, "")
			target := tc.target
			if target == "" {
				target = p.internalURL(t)
			}
			p.agent.Config.Handler = redirectTo(target)
			_, err := FetchAgentCard(context.Background(), p.agentURL(t, "/card.json"), p.opts)
			wantRefused(t, err, tc.kind, p.hits)
			p.wantNotHandedToProxy(t, tc.host)
			if !p.proxy.WasAsked("agent.test") {
				t.Errorf("the start did not go through the proxy: %v", p.proxy.Asked())
			}
		})
	}
}

// A NO_PROXY host is dialled directly, and judged there like any other.
func TestDialGuardProxy_noProxyHostJudgedOnTheDirectDial(t *testing.T) {
	p := newProxied(t, "internal.test")
	p.agent.Config.Handler = redirectTo(p.internalURL(t))
	_, err := FetchAgentCard(context.Background(), p.agentURL(t, "/card.json"), p.opts)
	wantRefused(t, err, "loopback", p.hits)
	p.wantNotHandedToProxy(t, "internal.test")
}

// An MCP endpoint announced on another host (HTTP+SSE) and a 307 that sends
// the JSON-RPC POST to the internal service are refused before the proxy.
func TestDialGuardProxy_mcpEndpointsRefusedBeforeTheProxy(t *testing.T) {
	p := newProxied(t, "")
	p.agent.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		_, _ = w.Write([]byte("event: endpoint\ndata: " + p.internalURL(t) + "/messages\n\n"))
		http.NewResponseController(w).Flush() //nolint:errcheck // a test server; the client reads what came
		<-r.Context().Done()
	})
	_, err := FetchToolSpec(context.Background(), p.agentURL(t, "/sse"), ToolSpecOptions{SSE: true, Options: p.opts})
	wantRefused(t, err, "loopback", p.hits)
	p.wantNotHandedToProxy(t, "internal.test")

	q := newProxied(t, "")
	q.agent.Config.Handler = redirectTo(q.internalURL(t)) // a 307 keeps the POST and its body
	_, err = FetchToolSpec(context.Background(), q.agentURL(t, "/mcp"), ToolSpecOptions{Options: q.opts})
	wantRefused(t, err, "loopback", q.hits)
	q.wantNotHandedToProxy(t, "internal.test")
}

// A destination whose host does not resolve here cannot be judged: refused,
// not handed to the proxy to resolve.
func TestDialGuardProxy_unresolvableHostRefused(t *testing.T) {
	p := newProxied(t, "")
	p.agent.Config.Handler = redirectTo("http://nowhere.test")
	_, err := FetchAgentCard(context.Background(), p.agentURL(t, "/card.json"), p.opts)
	if err == nil {
		t.Fatal("the fetch succeeded")
	}
	wantContains(t, err.Error(), "cannot judge nowhere.test", "does not resolve on this machine", "proxy")
	p.wantNotHandedToProxy(t, "nowhere.test")
}

// A start that is itself private keeps working through the proxy, and a DNS
// answer that changes under a public start is judged on each request.
func TestDialGuardProxy_privateStartAndRebinding(t *testing.T) {
	p := newProxied(t, "")
	p.agent.Config.Handler = jsonBody(testCard)
	// intranet.test resolves to an address the test network does not count
	// as public: a private start, the configuration's own choice.
	if _, err := FetchAgentCard(context.Background(), "http://intranet.test:"+port(t, p.agent)+"/card.json", p.opts); err != nil {
		t.Fatalf("private start through the proxy: %v", err)
	}
	rebinding := publicNet(t, map[string][][]netip.Addr{"agent.test": {{loopback}, {netip.MustParseAddr("127.0.0.2")}}}, p.agent)
	p.agent.Config.Handler = http.NotFoundHandler() // the base URL tries a second path
	_, err := FetchAgentCard(context.Background(), p.agentURL(t, ""), p.opts.on(rebinding))
	wantRefused(t, err, "loopback", nil)
	if strings.Count(strings.Join(p.proxy.Asked(), " "), "agent.test") != 1 {
		t.Errorf("the rebound request reached the proxy: %v", p.proxy.Asked())
	}
}

// Without a Transport of the caller's, the environment's proxy settings are
// read for each fetch and the guard holds with them.
func TestDialGuardProxy_defaultTransportReadsTheEnvironment(t *testing.T) {
	p := newProxied(t, "")
	p.agent.Config.Handler = redirectTo(p.internalURL(t))
	_, err := FetchAgentCard(context.Background(), p.agentURL(t, "/card.json"), Options{network: p.opts.network})
	wantRefused(t, err, "loopback", p.hits)
	if !p.proxy.WasAsked("agent.test") {
		t.Errorf("the default transport did not use HTTP_PROXY: %v", p.proxy.Asked())
	}
}
