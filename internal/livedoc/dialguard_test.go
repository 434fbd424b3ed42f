package livedoc

// A live fetch that starts at a public address never reaches loopback,
// link-local or private addresses, checked on the address dialled: the dial
// guard (netguard) under every read. The tests run on loopback: publicNet
// makes one httptest server (the "public" start) count as public, and maps
// test host names to loopback.

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"
	"net/netip"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/netguard"
)

const internalSecret = "INTERNAL-SECRET-c0ffee: admin password hunter2"

// internalService is a loopback service that must never be read from a
// public start; it counts the requests that reached it.
func internalService(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		hits.Add(1)
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte(internalSecret + "\n"))
	}))
	t.Cleanup(srv.Close)
	return srv, &hits
}

func addrPort(t *testing.T, srv *httptest.Server) netip.AddrPort {
	t.Helper()
	ap, err := netip.ParseAddrPort(srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	return ap
}

// publicNet is a network that counts the given servers as public and
// resolves the given hosts (no other): the n-th lookup of a host gets its
// n-th answer, and the last one repeats (a rebinding host changes its).
func publicNet(t *testing.T, hosts map[string][][]netip.Addr, public ...*httptest.Server) network {
	t.Helper()
	publicAt := map[netip.AddrPort]bool{}
	for _, s := range public {
		publicAt[addrPort(t, s)] = true
	}
	var mu sync.Mutex
	lookups := map[string]int{}
	resolve := func(_ context.Context, host string) ([]netip.Addr, error) {
		answers := hosts[strings.ToLower(host)]
		if len(answers) == 0 {
			return nil, fmt.Errorf("lookup %s: no such host (test network)", host)
		}
		mu.Lock()
		defer mu.Unlock()
		i := min(lookups[host], len(answers)-1)
		lookups[host]++
		return answers[i], nil
	}
	judge := func(ap netip.AddrPort) netguard.Verdict {
		if publicAt[ap] {
			return netguard.Verdict{}
		}
		return netguard.Judge(ap.Addr())
	}
	return network{resolve: resolve, judge: judge}
}

// on is o reading through the network n.
func (o Options) on(n network) Options {
	o.network = n
	return o
}

// redirectTo answers every request with a 307 to target (path kept).
func redirectTo(target string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, target+r.URL.Path, http.StatusTemporaryRedirect)
	}
}

func wantRefused(t *testing.T, err error, kind string, hits *atomic.Int64) {
	t.Helper()
	if err == nil {
		t.Fatal("the fetch succeeded; want it refused")
	}
	msg := err.Error()
	article := "a"
	if strings.ContainsAny(kind[:1], "aeiouAEIOU") {
		article = "an"
	}
	wantContains(t, msg, article+" "+kind+" address (", "started at the public address", "never leads from a public address")
	if strings.Contains(msg, "INTERNAL-SECRET") || strings.Contains(msg, "hunter2") {
		t.Errorf("the error quotes the internal service's answer: %q", msg)
	}
	if hits != nil && hits.Load() != 0 {
		t.Errorf("the internal service was reached %d times", hits.Load())
	}
}

func TestDialGuard_cardRedirectFromPublicToLoopbackRefused(t *testing.T) {
	internal, hits := internalService(t)
	public := httptest.NewServer(redirectTo(internal.URL))
	defer public.Close()
	_, err := FetchAgentCard(context.Background(), public.URL+"/card.json", Options{}.on(publicNet(t, nil, public)))
	wantRefused(t, err, "loopback", hits)
}

// The same through a host name: the start resolves to a public address.
func TestDialGuard_cardRedirectByHostNameRefused(t *testing.T) {
	internal, hits := internalService(t)
	public := httptest.NewServer(redirectTo("http://internal.test:" + internal.URL[strings.LastIndex(internal.URL, ":")+1:]))
	defer public.Close()
	loop := netip.MustParseAddr("127.0.0.1")
	n := publicNet(t, map[string][][]netip.Addr{"agent.test": {{loop}}, "internal.test": {{loop}}}, public)
	_, port, _ := net.SplitHostPort(public.Listener.Addr().String())
	_, err := FetchAgentCard(context.Background(), "http://agent.test:"+port+"/card.json", Options{}.on(n))
	wantRefused(t, err, "loopback", hits)
	wantContains(t, err.Error(), "internal.test (127.0.0.1:")
}

// Link-local (cloud metadata) and private targets are refused before any
// packet is sent to them.
func TestDialGuard_linkLocalAndPrivateRefused(t *testing.T) {
	for _, tc := range []struct{ target, kind string }{
		{"http://169.254.169.254", "link-local"},
		{"http://10.0.0.1", "private"},
		{"http://192.168.1.1:8080", "private"},
		{"http://[fd00::1]", "private"},
		{"http://0.0.0.0:8080", "unspecified"},
		{"http://[::ffff:127.0.0.1]:8080", "loopback"},
		{"http://100.64.0.1", "shared (carrier-grade NAT)"},
		{"http://192.0.0.192", "IETF protocol assignment"},
		{"http://198.18.0.1", "benchmarking"},
		{"http://[64:ff9b::a01:203]", "private"},
		{"http://[64:ff9b::a9fe:a9fe]", "link-local"},
		{"http://[2002:7f00:1::1]:8080", "loopback"},
		{"http://240.0.0.1", "reserved"},
	} {
		t.Run(tc.target, func(t *testing.T) {
			public := httptest.NewServer(redirectTo(tc.target))
			defer public.Close()
			_, err := FetchAgentCard(context.Background(), public.URL+"/card.json", Options{}.on(publicNet(t, nil, public)))
			wantRefused(t, err, tc.kind, nil)
		})
	}
}

// DNS rebinding: the start host answers a public address first and loopback
// on the next lookup; the second connection (keep-alives off) is refused.
func TestDialGuard_dnsRebindingRefused(t *testing.T) {
	public := livedoctest.Serve(t, map[string]http.HandlerFunc{}) // 404 everywhere: the card fetch tries a second path
	_, port, _ := net.SplitHostPort(public.Listener.Addr().String())
	pub := netip.MustParseAddr("127.0.0.1")
	rebound := netip.MustParseAddr("127.0.0.2")
	n := publicNet(t, map[string][][]netip.Addr{"rebind.test": {{pub}, {rebound}}}, public)
	_, err := FetchAgentCard(context.Background(), "http://rebind.test:"+port, Options{Transport: &http.Transport{DisableKeepAlives: true}}.on(n))
	wantRefused(t, err, "loopback", nil)
	wantContains(t, err.Error(), "rebind.test (127.0.0.2:"+port+")")
}

// A start that is itself loopback or private keeps working, redirects
// between loopback servers included.
func TestDialGuard_privateStartKeepsWorking(t *testing.T) {
	card := livedoctest.Serve(t, map[string]http.HandlerFunc{"/card.json": jsonBody(testCard)})
	hop := httptest.NewServer(redirectTo(card.URL))
	defer hop.Close()
	got, err := FetchAgentCard(context.Background(), hop.URL+"/card.json", Options{})
	if err != nil || string(got.Body) != testCard {
		t.Fatalf("loopback start: %v", err)
	}
	// A host name that resolves to loopback is a private start too.
	_, port, _ := net.SplitHostPort(hop.Listener.Addr().String())
	n := publicNet(t, map[string][][]netip.Addr{"localhost.test": {{netip.MustParseAddr("127.0.0.1")}}})
	if _, err := FetchAgentCard(context.Background(), "http://localhost.test:"+port+"/card.json", Options{}.on(n)); err != nil {
		t.Fatalf("host name on loopback: %v", err)
	}
}

// A public start redirected to another public host that answers something
// other than a card: the error names it but quotes none of its body.
func TestDialGuard_crossHostBodyNotQuoted(t *testing.T) {
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = w.Write([]byte(internalSecret))
	}))
	defer other.Close()
	public := httptest.NewServer(redirectTo(other.URL))
	defer public.Close()
	_, err := FetchAgentCard(context.Background(), public.URL+"/card.json", Options{}.on(publicNet(t, nil, public, other)))
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("error %v; want one that quotes nothing of the other host's body", err)
	}
	wantContains(t, err.Error(), "not shown: it came from another origin than "+public.URL)
	// From the start host itself, the start of the body is still shown.
	_, err = FetchAgentCard(context.Background(), other.URL+"/card.json", Options{})
	wantContains(t, err.Error(), "INTERNAL-SECRET")
}

// MCP: a Streamable HTTP endpoint on a public start that redirects its POST
// to a loopback MCP server is refused; the same server at a loopback start
// answers.
func TestDialGuard_mcpRedirectToLoopbackRefused(t *testing.T) {
	mcpSrv := livedoctest.ServeMCP(t, livedoctest.NewMCPServer(0, livedoctest.NamedTools("a")...), false, nil)
	public := httptest.NewServer(redirectTo(mcpSrv.URL))
	defer public.Close()
	_, err := FetchToolSpec(context.Background(), public.URL+"/mcp", ToolSpecOptions{Options: Options{}.on(publicNet(t, nil, public))})
	wantRefused(t, err, "loopback", nil)
	if _, err := FetchToolSpec(context.Background(), public.URL+"/mcp", ToolSpecOptions{}); err != nil {
		t.Fatalf("from a loopback start: %v", err)
	}
}

// MCP: an odd answer from another origin is named, its body not quoted.
func TestDialGuard_mcpCrossHostBodyNotQuoted(t *testing.T) {
	other, _ := internalService(t)
	public := httptest.NewServer(redirectTo(other.URL))
	defer public.Close()
	_, err := FetchToolSpec(context.Background(), public.URL+"/mcp", ToolSpecOptions{Options: Options{}.on(publicNet(t, nil, public, other))})
	if err == nil || strings.Contains(err.Error(), "hunter2") {
		t.Fatalf("error %v; want one that quotes nothing of the other host's body", err)
	}
	wantContains(t, err.Error(), "(its body is not shown: it came from another origin than "+public.URL+")")
}
