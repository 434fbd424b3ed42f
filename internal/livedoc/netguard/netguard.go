// Package netguard is the dial guard of a live read: a read that starts at a
// public address never reaches an address that is not globally reachable
// (loopback, link-local, private, shared, documentation... see addresses.go),
// whether a redirect, an MCP endpoint announced on another host, or a later
// DNS answer for the same host (DNS rebinding) leads there. A read that
// starts at such an address itself (the bundled server, a test, an agent on
// the runner's own network, a host name that resolves there) is the
// configuration's own choice and keeps working, redirects included.
//
// Every destination is judged by the addresses its host resolves to on this
// machine:
//   - a request handed to an HTTP proxy (HTTP_PROXY, HTTPS_PROXY) is judged
//     before it is handed over, by every address of its host; a host that does
//     not resolve here cannot be judged and is refused;
//   - every connection dialled directly (no proxy, or a NO_PROXY host) is
//     judged again at the dial, on the address actually dialled, so a DNS
//     answer that changes between requests is caught.
//
// The start is judged by the first request to the start URL's host and port:
// by its address when the host is an IP literal, else by the first address
// the host resolves to. The proxy itself is the machine's own and is dialled
// unjudged, for the requests handed to it only.
//
// The guard knows nothing of what is read (cards, MCP, OAuth) nor of who
// reads it: it judges destinations.
package netguard

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

	"golang.org/x/net/http/httpproxy"
)

// Guard is the dial policy of one read (one start). Its Resolve and Judge
// are the machine's resolver and the IANA registries unless a test sets
// them, before the first request, to play a public start being redirected
// or rebound to loopback.
type Guard struct {
	// Resolve returns the addresses of a host name (never called with an IP
	// literal); nil is the machine's resolver.
	Resolve func(ctx context.Context, host string) ([]netip.Addr, error)
	// Judge says what an address dialled on a port is; nil is Judge of the
	// address.
	Judge func(netip.AddrPort) Verdict

	start string // the start URL's host:port, lower case

	mu          sync.Mutex
	decided     bool
	startPublic bool
	startAddr   string // the address the start was judged by
}

// New is the guard of a read that starts at start.
func New(start *url.URL) *Guard {
	return &Guard{start: HostPort(start)}
}

// Refusal is a destination the guard refused; its message says why.
type Refusal struct{ msg string }

func (r *Refusal) Error() string { return r.msg }

// errPrivateAddress starts the message of a connection the guard refused.
var errPrivateAddress = errors.New("refused to connect")

// HostPort is u's host:port in lower case, with the scheme's default port.
func HostPort(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = defaultPorts[u.Scheme]
	}
	return strings.ToLower(net.JoinHostPort(u.Hostname(), port))
}

// defaultPorts are the ports of the schemes of URLs and of proxies.
var defaultPorts = map[string]string{"http": "80", "https": "443", "socks5": "1080", "socks5h": "1080"}

// Transport returns a RoundTripper that judges every destination of base: a
// request for a proxy before it is handed over, a direct connection at its
// dial. A nil base is http.DefaultTransport with the proxy settings of the
// environment read now.
func (g *Guard) Transport(base *http.Transport) http.RoundTripper {
	if base == nil {
		base = defaultTransport()
	}
	t := base.Clone()
	dial := t.DialContext
	if dial == nil {
		dial = (&net.Dialer{}).DialContext // the read's deadline bounds the dial
	}
	proxy := t.Proxy
	// The transport uses the proxy that proxiedTransport chose and judged for
	// the request, never one of its own choosing.
	t.Proxy = func(req *http.Request) (*url.URL, error) {
		u, _ := req.Context().Value(proxyKey{}).(*url.URL)
		return u, nil
	}
	t.DialContext = g.dialContext(dial)
	t.DialTLSContext = nil // the TLS handshake runs over the guarded dial
	return &proxiedTransport{base: t, proxy: proxy, guard: g}
}

// defaultTransport is http.DefaultTransport with HTTP_PROXY, HTTPS_PROXY and
// NO_PROXY read now (http.ProxyFromEnvironment reads them once per process).
func defaultTransport() *http.Transport {
	t, ok := http.DefaultTransport.(*http.Transport)
	if !ok { // another package replaced it: start from Go's defaults
		t = &http.Transport{ForceAttemptHTTP2: true, MaxIdleConns: 100, IdleConnTimeout: 90 * time.Second,
			TLSHandshakeTimeout: 10 * time.Second, ExpectContinueTimeout: time.Second}
	}
	t = t.Clone()
	fromEnv := httpproxy.FromEnvironment().ProxyFunc()
	t.Proxy = func(req *http.Request) (*url.URL, error) { return fromEnv(req.URL) }
	return t
}

// proxyKey carries, in a request's context, the proxy proxiedTransport chose
// for it (nil: none): the transport's Proxy returns it, and the dial lets a
// connection to it through. It is set here, for this package's transport
// only.
type proxyKey struct{}

// proxiedTransport chooses the proxy of each request and, when there is one,
// judges the request's destination before handing it over.
type proxiedTransport struct {
	base  *http.Transport
	proxy func(*http.Request) (*url.URL, error)
	guard *Guard
}

// CloseIdleConnections closes the connections the read keeps alive: a read
// ends with them (http.Client.CloseIdleConnections calls it).
func (t *proxiedTransport) CloseIdleConnections() { t.base.CloseIdleConnections() }

func (t *proxiedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	var via *url.URL
	if t.proxy != nil {
		u, err := t.proxy(req)
		if err == nil && u != nil {
			err = t.guard.judgeBeforeProxy(req.Context(), req.URL, u)
		}
		if err != nil {
			if req.Body != nil {
				_ = req.Body.Close() // a RoundTripper closes the body, even when it sends nothing
			}
			return nil, err
		}
		via = u
	}
	return t.base.RoundTrip(req.WithContext(context.WithValue(req.Context(), proxyKey{}, via)))
}

// judgeBeforeProxy judges target by every address its host resolves to here,
// before the request is handed to proxy: the proxy may connect to any of them.
func (g *Guard) judgeBeforeProxy(ctx context.Context, target, proxy *url.URL) error {
	g.mu.Lock()
	privateStart := g.decided && !g.startPublic
	g.mu.Unlock()
	if privateStart {
		return nil // the configuration chose a private start: nothing to judge
	}
	host := target.Hostname()
	addrs, err := g.resolve(ctx, host)
	if err != nil || len(addrs) == 0 {
		return &Refusal{fmt.Sprintf("%v: cannot judge %s before handing the request to the proxy %s: the host does "+
			"not resolve on this machine (%v). A live document is read through a proxy only when this machine can "+
			"tell where the proxy will connect; make the host resolvable here, or list it in NO_PROXY",
			errPrivateAddress, host, proxy.Redacted(), err)}
	}
	hp := HostPort(target)
	_, port, _ := net.SplitHostPort(hp)
	for _, a := range addrs {
		if err := g.allow(hp, host, netip.AddrPortFrom(a.Unmap(), parsePort(port))); err != nil {
			return err
		}
	}
	return nil
}

func (g *Guard) dialContext(dial func(ctx context.Context, network, addr string) (net.Conn, error)) func(ctx context.Context, network, addr string) (net.Conn, error) {
	return func(ctx context.Context, network, addr string) (net.Conn, error) {
		if via, _ := ctx.Value(proxyKey{}).(*url.URL); via != nil && strings.EqualFold(HostPort(via), addr) {
			return dial(ctx, network, addr) // the proxy chosen for this request, which judged its destination
		}
		host, port, err := net.SplitHostPort(addr)
		if err != nil {
			return nil, err
		}
		addrs, err := g.resolve(ctx, host)
		if err != nil {
			return nil, err
		}
		var refused error
		for _, a := range addrs {
			ap := netip.AddrPortFrom(a.Unmap(), parsePort(port))
			if err := g.allow(strings.ToLower(addr), host, ap); err != nil {
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
// else Resolve's answer.
func (g *Guard) resolve(ctx context.Context, host string) ([]netip.Addr, error) {
	if a, err := netip.ParseAddr(strings.Trim(host, "[]")); err == nil {
		return []netip.Addr{a}, nil
	}
	if g.Resolve != nil {
		return g.Resolve(ctx, host)
	}
	return net.DefaultResolver.LookupNetIP(ctx, "ip", host)
}

// judge judges ap, by Judge when it is set.
func (g *Guard) judge(ap netip.AddrPort) Verdict {
	if g.Judge != nil {
		return g.Judge(ap)
	}
	return Judge(ap.Addr())
}

// allow decides one candidate address ap of the dial to addr (host:port).
func (g *Guard) allow(addr, host string, ap netip.AddrPort) error {
	v := g.judge(ap)
	g.mu.Lock()
	defer g.mu.Unlock()
	if !g.decided && addr == g.start {
		g.decided, g.startPublic, g.startAddr = true, v.Public(), ap.String()
	}
	if v.Public() || !g.decided || !g.startPublic {
		return nil
	}
	target := ap.String()
	if net.ParseIP(strings.Trim(host, "[]")) == nil {
		target = host + " (" + ap.String() + ")"
	}
	return &Refusal{fmt.Sprintf("%v to %s, %s %s address (%s): this fetch started at the public address %s (%s), "+
		"and a live document never leads from a public address to one that is not globally reachable (a redirect, "+
		"an announced endpoint or a new DNS answer led there); fetch the document from that address directly if it "+
		"is meant to be read", errPrivateAddress, target, article(v.Kind), v.Kind, v.Source, g.startAddr, g.start)}
}
