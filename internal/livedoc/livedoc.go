// Package livedoc fetches the documents that an agent or an MCP server actually
// serves: an A2A agent card over HTTP (FetchAgentCard) and an MCP tools/list
// result through the official MCP Go SDK, over HTTP (FetchToolSpec) or from an
// MCP server it starts as a process on this machine and stops when the tools
// are read (FetchToolSpecCommand, the stdio transport). It only fetches:
// validation stays in internal/spec and canonical bytes in the canonical JSON
// package, so a fetched document is checked exactly like one written by hand.
//
// Headers and the environment of a server often carry credentials. This
// package never logs anything, blanks their values (and the caller's
// Options.Secrets) out of every error, whatever a peer echoes (quote.go,
// internal/redact), and sends the headers only to the origin of the URL it was
// given (see headerTransport).
package livedoc

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

const (
	// DefaultTimeout bounds a whole fetch when Options.Timeout is zero.
	DefaultTimeout = 10 * time.Second
	// MaxTimeout is the longest Options.Timeout: a live document is read at
	// plan time, and a server that answers slowly must not hold a plan for
	// longer than this.
	MaxTimeout = 2 * time.Minute
	// maxRedirects is the most redirects one fetch follows.
	maxRedirects = 5
)

// Options are the settings shared by both fetchers.
type Options struct {
	// Headers are added to every request sent to the origin (scheme, host
	// and port) of the URL given (for example Authorization). Their values
	// are treated as secrets.
	Headers map[string]string
	// Secrets are values never shown in an error, beside those of Headers and
	// Command.Env, which a fetch adds to it; nil means none.
	Secrets *redact.Secrets
	// Timeout bounds the whole fetch: redirects, the body and, for MCP, the
	// handshake and every page. Zero means DefaultTimeout.
	Timeout time.Duration
	// Transport carries the requests; nil means http.DefaultTransport with
	// the environment's proxy settings read for each fetch. Tests inject one
	// that trusts (or not) their TLS server. It is an *http.Transport so that
	// its dials and its proxy can be guarded (dialguard.go).
	Transport *http.Transport
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

// newClient returns the HTTP client of one fetch that started at start.
// The timeout is applied through the context, not http.Client.Timeout, so that
// the MCP SDK's own requests are bounded by the same deadline.
func newClient(start *url.URL, o Options, wrap func(http.RoundTripper) http.RoundTripper) *http.Client {
	base := guardTransport(o.Transport, start) // dialguard.go: no public start leads into private networks
	var rt http.RoundTripper = &headerTransport{base: base, headers: o.Headers, origin: start}
	if wrap != nil {
		rt = wrap(rt)
	}
	return &http.Client{Transport: rt, CheckRedirect: checkRedirect}
}

// headerTransport adds the caller's headers to requests for the starting
// origin only. Go's client copies custom headers to every redirect target (it
// strips only Authorization and Cookie, and only for a different domain, even
// on another port or scheme), so headers are never set on the request
// itself: a redirect to another origin, or an MCP SSE endpoint announced on
// one, never receives them.
type headerTransport struct {
	base    http.RoundTripper
	headers map[string]string
	origin  *url.URL
}

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.headers) == 0 || !sameOrigin(req.URL, t.origin) {
		return t.base.RoundTrip(req)
	}
	// A RoundTripper must not modify the request it was given.
	r := req.Clone(req.Context())
	for k, v := range t.headers {
		r.Header.Set(k, v)
	}
	return t.base.RoundTrip(r)
}

// sameOrigin reports whether two URLs have the same origin (RFC 6454: scheme,
// host and port, the scheme's default port filled in). It is the one rule of
// where a credential may go (headers, the OAuth client's credentials and its
// token: to the origin they were configured for, or nowhere) and of whose
// body an error may quote.
func sameOrigin(a, b *url.URL) bool {
	return a != nil && b != nil && strings.EqualFold(a.Scheme, b.Scheme) && hostPort(a) == hostPort(b)
}

// origin is the origin of u as messages show it: scheme://host[:port].
func origin(u *url.URL) string {
	return (&url.URL{Scheme: strings.ToLower(u.Scheme), Host: u.Host}).String()
}

// refusal is an error of this package's own making during a redirect; it is
// returned as is, without the url.Error wrapping of net/http.
type refusal struct{ msg string }

func (r *refusal) Error() string { return r.msg }

func checkRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > maxRedirects {
		return &refusal{fmt.Sprintf("refusing to follow more than %d redirects (started at %s, the next was %s)",
			maxRedirects, via[0].URL.Redacted(), req.URL.Redacted())}
	}
	prev := via[len(via)-1].URL
	if prev.Scheme == "https" && req.URL.Scheme != "https" {
		return &refusal{fmt.Sprintf("refusing a redirect from https to %s: %s redirected to %s",
			req.URL.Scheme, prev.Redacted(), req.URL.Redacted())}
	}
	return nil
}

// sameOriginRedirects is checkRedirect that also refuses to leave the origin
// of start: the redirect policy of the MCP requests of a read with OAuth, whose
// token (and whose client's credentials, should the other origin's 401 name an
// authorization server of its own) are for that origin only.
func sameOriginRedirects(start *url.URL) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if err := checkRedirect(req, via); err != nil {
			return err
		}
		if !sameOrigin(req.URL, start) {
			return &refusal{fmt.Sprintf("refusing a redirect to another origin with oauth: %s %s was redirected from %s to %s "+
				"(%s); the OAuth credentials and the token are for the origin of url only: set url to the MCP server's "+
				"endpoint itself", req.Method, via[0].URL.Redacted(), origin(start), origin(req.URL), req.URL.Redacted())}
		}
		return nil
	}
}

// transportError turns an error of an HTTP exchange with target into a message
// that says why: a refused redirect, a TLS failure with its reason, or the
// timeout. parent is the caller's context, to tell our timeout from theirs.
func transportError(parent context.Context, err error, target string, timeout time.Duration) error {
	var ref *refusal
	if errors.As(err, &ref) {
		return ref
	}
	var cve *tls.CertificateVerificationError
	if errors.As(err, &cve) {
		return fmt.Errorf("TLS error talking to %s: the server's certificate is not accepted: %v", target, cve.Err)
	}
	var rhe tls.RecordHeaderError
	if errors.As(err, &rhe) {
		return fmt.Errorf("TLS error talking to %s: the server did not answer with TLS", target)
	}
	if errors.Is(err, context.DeadlineExceeded) && parent.Err() == nil {
		return fmt.Errorf("timed out after %s waiting for %s", timeout, target)
	}
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err // its text repeats the URL, which the message below already names
	}
	return fmt.Errorf("request to %s failed: %v", target, err)
}
