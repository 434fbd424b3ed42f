package livedoctest

import (
	"context"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"strings"
	"sync"
	"testing"
)

// ForwardProxy is a real HTTP forward proxy on loopback, as a corporate proxy
// is to a CI runner: it tunnels CONNECT requests (https) and forwards
// absolute-form requests (http), streamed answers included. It resolves host
// names itself, through Hosts only (test names to loopback addresses), and
// dials nothing else: a request for any other host is answered 502 without a
// connection. It records every host:port it was asked for.
type ForwardProxy struct {
	*httptest.Server
	hosts map[string]string

	mu    sync.Mutex
	asked []string
}

// NewForwardProxy starts a forward proxy that resolves the given host names
// (lower case) to the given IP addresses.
func NewForwardProxy(t testing.TB, hosts map[string]string) *ForwardProxy {
	t.Helper()
	p := &ForwardProxy{hosts: hosts}
	forward := &httputil.ReverseProxy{
		Rewrite:   func(r *httputil.ProxyRequest) { r.Out.Host = r.In.Host }, // the URL is already absolute
		Transport: &http.Transport{DialContext: p.dial, Proxy: nil, DisableKeepAlives: true},
		ErrorHandler: func(w http.ResponseWriter, _ *http.Request, err error) {
			http.Error(w, "proxy: "+err.Error(), http.StatusBadGateway)
		},
	}
	p.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodConnect {
			p.record(r.Host)
			p.tunnel(w, r)
			return
		}
		if !r.URL.IsAbs() {
			http.Error(w, "proxy: expected an absolute-form request", http.StatusBadRequest)
			return
		}
		p.record(r.URL.Host)
		forward.ServeHTTP(w, r)
	}))
	t.Cleanup(p.Close)
	return p
}

// Asked returns the host:port of every request the proxy received, in order.
func (p *ForwardProxy) Asked() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]string(nil), p.asked...)
}

// WasAsked tells whether a request named host (with any port).
func (p *ForwardProxy) WasAsked(host string) bool {
	for _, a := range p.Asked() {
		if h, _, err := net.SplitHostPort(a); err == nil && strings.EqualFold(h, host) || strings.EqualFold(a, host) {
			return true
		}
	}
	return false
}

func (p *ForwardProxy) record(hostPort string) {
	p.mu.Lock()
	p.asked = append(p.asked, hostPort)
	p.mu.Unlock()
}

// dial connects to addr's host as the proxy resolves it: through hosts only.
func (p *ForwardProxy) dial(ctx context.Context, network, addr string) (net.Conn, error) {
	host, port, err := net.SplitHostPort(addr)
	if err != nil {
		return nil, err
	}
	ip, ok := p.hosts[strings.ToLower(host)]
	if !ok {
		return nil, fmt.Errorf("the test proxy resolves only its own host names, not %q", host)
	}
	var d net.Dialer
	return d.DialContext(ctx, network, net.JoinHostPort(ip, port))
}

func (p *ForwardProxy) tunnel(w http.ResponseWriter, r *http.Request) {
	upstream, err := p.dial(r.Context(), "tcp", r.Host)
	if err != nil {
		http.Error(w, "proxy: "+err.Error(), http.StatusBadGateway)
		return
	}
	w.WriteHeader(http.StatusOK)
	client, buffered, err := http.NewResponseController(w).Hijack()
	if err != nil {
		_ = upstream.Close()
		return
	}
	go func() {
		_, _ = io.Copy(upstream, buffered) // what the client sent after CONNECT, then the rest
		_ = upstream.Close()
	}()
	_, _ = io.Copy(client, upstream)
	_ = client.Close()
}
