// Package livedoc fetches the documents that an agent or an MCP server actually
// serves: an A2A agent card over HTTP (FetchAgentCard) and an MCP tools/list
// result through the official MCP Go SDK, over HTTP (FetchToolSpec) or from an
// MCP server it starts as a process on this machine and stops when the tools
// are read (FetchToolSpecCommand, the stdio transport). It only fetches:
// validation stays in internal/spec and canonical bytes in the canonical JSON
// package, so a fetched document is checked exactly like one written by hand.
//
// A read of tools reaches its server through one of two transports (server.go):
// HTTP (server_http.go, which carries OAuth) or a started process
// (server_process.go). The packages below it each do one thing and import
// nothing above them (layout_test.go): netguard judges every destination,
// httpclient is the HTTP of a read (headers for the origin of url only,
// redirects, bounds), mcpauth the OAuth flow, stdio the process, quote what a
// message quotes of a peer.
//
// Headers, the environment of a server and OAuth credentials often are
// secrets. This package never logs anything; the secrets of a read are
// registered once (NewSecrets) and every error is blanked of them where it
// leaves the package, whatever a peer echoes (internal/redact).
package livedoc

import (
	"context"
	"fmt"
	"net/http"
	"net/netip"
	"net/url"
	"strings"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/httpclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/mcpauth"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/netguard"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

const (
	// DefaultTimeout bounds a whole fetch when Options.Timeout is zero.
	DefaultTimeout = 10 * time.Second
	// MaxTimeout is the longest Options.Timeout: a live document is read at
	// plan time, and a server that answers slowly must not hold a plan for
	// longer than this.
	MaxTimeout = 2 * time.Minute
)

// Options are the settings shared by both fetchers.
type Options struct {
	// Headers are added to every request sent to the origin (scheme, host
	// and port) of the URL given (for example Authorization). Their values
	// are treated as secrets.
	Headers map[string]string
	// Secrets are the values never shown in an error, as NewSecrets makes
	// them for the read: a caller that masks its own logs with them makes
	// them first and passes them here. Nil: the read makes them.
	Secrets *redact.Secrets
	// Timeout bounds the whole fetch: redirects, the body and, for MCP, the
	// handshake and every page. Zero means DefaultTimeout.
	Timeout time.Duration
	// Transport carries the requests; nil means http.DefaultTransport with
	// the environment's proxy settings read for each fetch. Tests inject one
	// that trusts (or not) their TLS server. It is an *http.Transport so that
	// its dials and its proxy can be guarded (netguard).
	Transport *http.Transport

	// network stands in for the machine's network in this package's tests:
	// the dial guard's resolver and address judge (netguard.Guard).
	network network
}

// network is what the dial guard of a read resolves and judges by; nil
// fields are the machine's resolver and the IANA registries.
type network struct {
	resolve func(ctx context.Context, host string) ([]netip.Addr, error)
	judge   func(netip.AddrPort) netguard.Verdict
}

// guard is the dial guard of a read that starts at start.
func (o Options) guard(start *url.URL) *netguard.Guard {
	g := netguard.New(start)
	g.Resolve, g.Judge = o.network.resolve, o.network.judge
	return g
}

func (o Options) timeout() time.Duration {
	if o.Timeout > 0 {
		return o.Timeout
	}
	return DefaultTimeout
}

// check refuses options a fetch does not take: a timeout over MaxTimeout.
func (o Options) check() error {
	if o.Timeout > MaxTimeout {
		return fmt.Errorf("the timeout %s is over the limit of %s", o.Timeout, MaxTimeout)
	}
	return nil
}

// NewSecrets registers, once for a read, the values of its configuration
// that no message may show: each value of headers (and the credential of an
// "Authorization: Bearer <token>" value alone), each value of env, and what
// the OAuth client holds (nil: none).
func NewSecrets(headers, env map[string]string, oauth *mcpauth.Client) *redact.Secrets {
	s := &redact.Secrets{}
	for _, v := range headers {
		s.Add("a value of headers", v)
		if _, credential, ok := strings.Cut(v, " "); ok { // "Bearer <token>": the token alone too
			s.Add("a value of headers", credential)
		}
	}
	for _, v := range env {
		s.Add("a value of env", v)
	}
	oauth.AddSecrets(s)
	return s
}

// secrets are the read's secrets: the caller's, or those NewSecrets makes.
func (o Options) secrets(env map[string]string, oauth *mcpauth.Client) *redact.Secrets {
	if o.Secrets != nil {
		return o.Secrets
	}
	return NewSecrets(o.Headers, env, oauth)
}

// parseURL accepts only absolute http and https URLs: anything else would be
// handed to a transport that cannot fetch it, with a less helpful message.
func parseURL(raw string) (*url.URL, error) {
	u, err := url.Parse(raw)
	if err != nil {
		return nil, fmt.Errorf("invalid URL %q: %v", raw, err)
	}
	if (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("invalid URL %s: expected an absolute http:// or https:// URL", u.Redacted())
	}
	return u, nil
}

// newClient returns the HTTP client of one fetch that started at start: its
// requests guarded, the headers sent to the origin of start only, the
// read's redirect policy. The timeout is applied through the context, not
// http.Client.Timeout, so that the MCP SDK's own requests are bounded by the
// same deadline.
func newClient(start *url.URL, o Options) *http.Client {
	rt := httpclient.Transport(o.Transport, o.guard(start), start, o.Headers)
	return &http.Client{Transport: rt, CheckRedirect: httpclient.CheckRedirect}
}
