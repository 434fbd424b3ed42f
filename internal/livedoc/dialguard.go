package livedoc

// Live fetches stay where they started. A fetch that starts at a public
// address never connects to a loopback, link-local, private, shared
// (carrier-grade NAT), multicast or unspecified address, whether a redirect,
// an MCP endpoint announced on another host, or a later DNS answer for the
// same host (DNS rebinding) leads there: the check is made on the address
// actually dialled, after resolution, for every connection. A fetch that
// starts at such an address itself (the bundled server, a test, an agent on
// the runner's own network, a host name that resolves there) is the
// configuration's own choice and keeps working, redirects included.
//
// The start is judged by the first connection to the start URL's host and
// port: by its address when the host is an IP literal, else by the first
// address the host resolves to. HTTP proxies configured in the environment
// (HTTPS_PROXY...) are the machine's own and are always dialled; what a
// proxy then connects to is its business.

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"sync"
	"time"
)

// testNetwork is the test seam of the guard: it resolves host names and
// classifies addresses in place of the machine's resolver and addressKind,
// so that a test on loopback can play a public start (its httptest server)
// being redirected, or rebound, to loopback. It is carried by the context of
// the fetch, under a key of this package: nothing outside the package's own
// tests can set it.
type testNetwork struct {
	// hosts maps a host name to its DNS answers: the n-th lookup gets the
	// n-th answer, and the last one repeats (a rebinding host changes its).
	hosts map[string][][]netip.Addr
	// public lists the addresses (with their port) that count as public.
	public map[netip.AddrPort]bool

	mu      sync.Mutex
	lookups map[string]int
}

func (n *testNetwork) lookup(host string) ([]netip.Addr, bool) {
	answers, ok := n.hosts[strings.ToLower(host)]
	if !ok || len(answers) == 0 {
		return nil, false
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.lookups == nil {
		n.lookups = map[string]int{}
	}
	i := min(n.lookups[host], len(answers)-1)
	n.lookups[host]++
	return answers[i], true
}

type testNetworkKey struct{}

func withTestNetwork(ctx context.Context, n *testNetwork) context.Context {
	return context.WithValue(ctx, testNetworkKey{}, n)
}

// dialGuard is the dial policy of one fetch (one http.Client).
type dialGuard struct {
	start string // the start URL's host:port, lower case

	mu          sync.Mutex
	decided     bool
	startPublic bool
	startAddr   string // the address the start was judged by
	proxies     map[string]bool
}

func newDialGuard(start *url.URL) *dialGuard {
	return &dialGuard{start: hostPort(start), proxies: map[string]bool{}}
}

// hostPort is u's host:port in lower case, with the scheme's default port.
func hostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = "80"
		if u.Scheme == "https" {
			port = "443"
		}
	}
	return strings.ToLower(net.JoinHostPort(u.Hostname(), port))
}

// guardTransport returns base with its dials guarded: a clone of base when it
// is an *http.Transport (http.DefaultTransport when base is nil); any other
// RoundTripper (a test's own) is returned as is.
func guardTransport(base http.RoundTripper, start *url.URL) http.RoundTripper {
	if base == nil {
		base = http.DefaultTransport
	}
	t, ok := base.(*http.Transport)
	if !ok {
		return base
	}
	g := newDialGuard(start)
	t = t.Clone()
	dial := t.DialContext
	if dial == nil {
		dial = (&net.Dialer{Timeout: 30 * time.Second, KeepAlive: 30 * time.Second}).DialContext
	}
	if proxy := t.Proxy; proxy != nil {
		t.Proxy = func(req *http.Request) (*url.URL, error) {
			u, err := proxy(req)
			if u != nil && err == nil {
				g.allowProxy(u)
			}
			return u, err
		}
	}
	t.DialContext = g.dialContext(dial)
	t.DialTLSContext = nil // the TLS handshake runs over the guarded dial
	return t
}

func (g *dialGuard) allowProxy(u *url.URL) {
	g.mu.Lock()
	g.proxies[hostPort(u)] = true
	g.mu.Unlock()
}

// errPrivateAddress is a connection the guard refused.
var errPrivateAddress = errors.New("refused to connect")

func (g *dialGuard) dialContext(dial func(ctx context.Context, network, addr string) (net.Conn, error)) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		tn, _ := ctx.Value(testNetworkKey{}).(*testNetwork)
		g.mu.Lock()
		proxy := g.proxies[strings.ToLower(addr)]
		g.mu.Unlock()
		if proxy && tn == nil {
			return dial(ctx, network, addr)
		}
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		addrs, err := resolve(ctx, tn, host)
		if err != nil {
			return nil, err
		}
		var refused error
		for _, a := range addrs {
			ap := netip.AddrPortFrom(a.Unmap(), parsePort(port))
			if err := g.allow(strings.ToLower(addr), host, ap, tn); err != nil {
				if refused == nil {
					refused = err
				}
				continue
			}
			return dial(ctx, network, ap.String())
		}
		if refused == nil {
			refused = fmt.Errorf("no address found for %s", host)
		}
		return nil, refused
	}
}

func parsePort(p string) uint16 {
	var n uint16
	for _, c := range p {
		if c < '0' || c > '9' {
			return 0
		}
		n = n*10 + uint16(c-'0')
	}
	return n
}

// resolve returns the addresses of host: itself when it is an IP literal,
// else the test network's or the resolver's answer.
func resolve(ctx context.Context, tn *testNetwork, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return []netip.Addr{a}, nil
	}
	if tn != nil {
		if addrs, ok := tn.lookup(host); ok {
			return addrs, nil
		}
		return nil, fmt.Errorf("lookup %s: no such host (test network)", host)
	}
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

// judgeAt judges ap, through the test network when there is one.
func judgeAt(tn *testNetwork, ap netip.AddrPort) verdict {
	if tn != nil && tn.public[ap] {
		return verdict{}
	}
	return judge(ap.Addr())
}

// allow decides one candidate address ap of the dial to addr (host:port).
func (g *dialGuard) allow(addr, host string, ap netip.AddrPort, tn *testNetwork) error {
	v := judgeAt(tn, ap)
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.decided && addr == g.start {
		g.decided, g.startPublic, g.startAddr = true, v.kind == "", ap.String()
	}
	if v.kind == "" || !g.decided || !g.startPublic {
		return nil
	}
	target := ap.String()
	if net.ParseIP(strings.Trim(host, "[]")) == nil {
		target = host + " (" + ap.String() + ")"
	}
	return &refusal{fmt.Sprintf("%v to %s, %s %s address (%s): this fetch started at the public address %s (%s), "+
		"and a live document never leads from a public address to one that is not globally reachable (a redirect, "+
		"an announced endpoint or a new DNS answer led there); fetch the document from that address directly if it "+
		"is meant to be read", errPrivateAddress, target, article(v.kind), v.kind, v.source, g.startAddr, g.start)}
}

// sameHost reports whether two URLs name the same host and port: a body is
// quoted in an error only when it came from the host the fetch started at.
func sameHost(a, b *url.URL) bool {
	return a != nil && b != nil && hostPort(a) == hostPort(b)
}
