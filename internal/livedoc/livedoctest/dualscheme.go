package livedoctest

import (
	"bufio"
	"crypto/tls"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
)

// DualScheme is one loopback port that speaks both plain HTTP and HTTPS (it
// tells them apart by the first byte a client sends): the same host and
// port under two schemes, which are two origins.
type DualScheme struct {
	HTTPURL, HTTPSURL string
	trusted           *httptest.Server // holds the certificate the HTTPS side serves
}

// ServeBothSchemes serves h over plain HTTP and HTTPS on one loopback port
// until the test ends; r.TLS tells which scheme a request came over.
func ServeBothSchemes(t testing.TB, h http.Handler) *DualScheme {
	t.Helper()
	trusted := httptest.NewUnstartedServer(h)
	trusted.StartTLS() // for its certificate, and a client that trusts it
	t.Cleanup(trusted.Close)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: h} //nolint:gosec // a test server, closed with its test
	go func() { _ = srv.Serve(&sniffing{Listener: l, tls: trusted.TLS}) }()
	t.Cleanup(func() { _ = srv.Close() })
	addr := l.Addr().String()
	return &DualScheme{HTTPURL: "http://" + addr, HTTPSURL: "https://" + addr, trusted: trusted}
}

// Transport trusts the certificate of the HTTPS side.
func (d *DualScheme) Transport() *http.Transport {
	t, ok := d.trusted.Client().Transport.(*http.Transport)
	if !ok {
		panic(fmt.Sprintf("httptest's client has a %T", d.trusted.Client().Transport))
	}
	return t.Clone()
}

// sniffing hands out TLS connections for clients whose first byte starts a
// TLS handshake record (0x16), plain ones for the others.
type sniffing struct {
	net.Listener
	tls *tls.Config
}

func (s *sniffing) Accept() (net.Conn, error) {
	c, err := s.Listener.Accept()
	if err != nil {
		return nil, err
	}
	r := bufio.NewReader(c)
	first, err := r.Peek(1)
	conn := &peeked{Conn: c, r: r}
	if err == nil && first[0] == 0x16 {
		return tls.Server(conn, s.tls), nil
	}
	return conn, nil
}

// peeked is a connection whose first bytes were read ahead into r.
type peeked struct {
	net.Conn
	r *bufio.Reader
}

func (p *peeked) Read(b []byte) (int, error) { return p.r.Read(b) }
