// Package httpclient is the HTTP of a live read, below what is read (a card,
// MCP, OAuth) and above the dial guard: where the configured headers go (the
// origin of url, and nowhere else: SameOrigin is the one rule of where a
// credential may go), which redirects are followed, the deadline and the
// bound of every answer, and what a failed exchange says.
package httpclient

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/netguard"
)

const (
	// MaxRedirects is the most redirects one request follows.
	MaxRedirects = 5
	// MaxAnswerBytes bounds one HTTP answer of a peer, or one event of an
	// event stream: reading stops past it.
	MaxAnswerBytes = 1 << 20
)

// SameOrigin reports whether two URLs have the same origin (RFC 6454: scheme,
// host and port, the scheme's default port filled in). It is the one rule of
// where a credential may go (headers, the OAuth client's credentials and its
// token: to the origin they were configured for, or nowhere) and of whose
// body an error may quote.
func SameOrigin(a, b *url.URL) bool {
	return a != nil && b != nil && strings.EqualFold(a.Scheme, b.Scheme) && netguard.HostPort(a) == netguard.HostPort(b)
}

// Origin is the origin of u as messages show it: scheme://host[:port].
func Origin(u *url.URL) string {
	return (&url.URL{Scheme: strings.ToLower(u.Scheme), Host: u.Host}).String()
}

// Transport is the round tripper of a read that starts at start, guarded by
// guard over base (nil: the default transport with the environment's proxy),
// that adds headers to the requests for the origin of start only.
func Transport(base *http.Transport, guard *netguard.Guard, start *url.URL, headers map[string]string) http.RoundTripper {
	return &headerTransport{base: guard.Transport(base), headers: headers, origin: start}
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

// CloseIdleConnections closes the idle connections of the transport below.
func (t *headerTransport) CloseIdleConnections() { CloseIdle(t.base) }

func (t *headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(t.headers) == 0 || !SameOrigin(req.URL, t.origin) {
		return t.base.RoundTrip(req)
	}
	// A RoundTripper must not modify the request it was given.
	r := req.Clone(req.Context())
	for k, v := range t.headers {
		r.Header.Set(k, v)
	}
	return t.base.RoundTrip(r)
}

// CloseIdle closes the idle connections of rt, when it keeps any: a read
// closes them when it ends, since each read has a transport of its own (its
// dial guard) whose keep-alive connections no later read can use, and would
// otherwise hold them (a file descriptor each) for the idle timeout.
func CloseIdle(rt http.RoundTripper) {
	if c, ok := rt.(interface{ CloseIdleConnections() }); ok {
		c.CloseIdleConnections()
	}
}

// Refusal is a request refused by the read's own policy (a redirect); its
// message says why, and is shown as is.
type Refusal struct{ msg string }

func (r *Refusal) Error() string { return r.msg }

// Refuse is a Refusal saying msg.
func Refuse(msg string) *Refusal { return &Refusal{msg: msg} }

// Refused is the refusal in err's chain, of the read's policy or of the dial
// guard; nil when there is none.
func Refused(err error) error {
	var ref *Refusal
	if errors.As(err, &ref) {
		return ref
	}
	var guard *netguard.Refusal
	if errors.As(err, &guard) {
		return guard
	}
	return nil
}

// CheckRedirect is the redirect policy of a read: at most MaxRedirects, and
// never from https to http.
func CheckRedirect(req *http.Request, via []*http.Request) error {
	if len(via) > MaxRedirects {
		return Refuse(fmt.Sprintf("refusing to follow more than %d redirects (started at %s, the next was %s)",
			MaxRedirects, via[0].URL.Redacted(), req.URL.Redacted()))
	}
	prev := via[len(via)-1].URL
	if prev.Scheme == "https" && req.URL.Scheme != "https" {
		return Refuse(fmt.Sprintf("refusing a redirect from https to %s: %s redirected to %s",
			req.URL.Scheme, prev.Redacted(), req.URL.Redacted()))
	}
	return nil
}

// SameOriginRedirects is CheckRedirect that also refuses to leave the origin
// of start: the redirect policy of the MCP requests of a read with OAuth,
// whose token (and whose client's credentials, should the other origin's 401
// name an authorization server of its own) are for that origin only.
func SameOriginRedirects(start *url.URL) func(*http.Request, []*http.Request) error {
	return func(req *http.Request, via []*http.Request) error {
		if err := CheckRedirect(req, via); err != nil {
			return err
		}
		if !SameOrigin(req.URL, start) {
			return Refuse(fmt.Sprintf("refusing a redirect to another origin with oauth: %s %s was redirected from %s to %s "+
				"(%s); the OAuth credentials and the token are for the origin of url only: set url to the server's "+
				"endpoint itself", req.Method, via[0].URL.Redacted(), Origin(start), Origin(req.URL), req.URL.Redacted()))
		}
		return nil
	}
}

// WithDeadline returns req ended at deadline, and the function that releases
// what the deadline holds (call it once the answer's body is closed).
func WithDeadline(req *http.Request, deadline time.Time) (*http.Request, context.CancelFunc) {
	ctx, cancel := context.WithDeadline(req.Context(), deadline)
	return req.WithContext(ctx), cancel
}

// ReleaseOnClose is body, which calls release once closed.
func ReleaseOnClose(body io.ReadCloser, release func()) io.ReadCloser {
	return &releaseOnClose{ReadCloser: body, release: release}
}

type releaseOnClose struct {
	io.ReadCloser
	release func()
}

func (c *releaseOnClose) Close() error {
	err := c.ReadCloser.Close()
	c.release()
	return err
}

// Bounded ends every request at Deadline and reads every answer up to
// MaxAnswerBytes: the transport of the requests a read makes besides the
// document's own (an OAuth flow's), whose caller says what went over.
type Bounded struct {
	Base     http.RoundTripper
	Deadline time.Time
}

// CloseIdleConnections closes the idle connections of the transport below.
func (t *Bounded) CloseIdleConnections() { CloseIdle(t.Base) }

func (t *Bounded) RoundTrip(req *http.Request) (*http.Response, error) {
	req, cancel := WithDeadline(req, t.Deadline)
	resp, err := t.Base.RoundTrip(req)
	if err != nil {
		cancel()
		return resp, err
	}
	resp.Body = CapBody(ReleaseOnClose(resp.Body, cancel), false, func() {})
	return resp, nil
}

// ErrTooLarge ends the reading of an answer over MaxAnswerBytes.
var ErrTooLarge = errors.New("the answer is over the size limit")

// CapBody is body failing a read past MaxAnswerBytes: of the whole body or,
// for an event stream (events), of one event (an empty line ends an event;
// lines end with CRLF, LF or CR). over is called when it does.
func CapBody(body io.ReadCloser, events bool, over func()) io.ReadCloser {
	return &cappedBody{ReadCloser: body, events: events, lineStart: true, over: over}
}

type cappedBody struct {
	io.ReadCloser
	events    bool
	n         int  // bytes of the body, or of the current event
	lineStart bool // the next byte starts a line
	prevCR    bool // the last byte was a CR
	over      func()
}

func (c *cappedBody) Read(p []byte) (int, error) {
	n, err := c.ReadCloser.Read(p)
	for i, b := range p[:n] {
		if c.events {
			switch {
			case b == '\n' && c.prevCR: // the LF of a CRLF
			case b == '\n' || b == '\r':
				if c.lineStart {
					c.n = 0 // an empty line: the event ended
				}
				c.lineStart = true
			default:
				c.lineStart = false
			}
			c.prevCR = b == '\r'
		}
		if c.n++; c.n > MaxAnswerBytes {
			c.over()
			return i, ErrTooLarge
		}
	}
	return n, err
}

// TransportError turns an error of an exchange with target into a message
// that says why: a refusal, a TLS failure with its reason, or the timeout.
// parent is the caller's context, to tell the read's timeout from theirs.
func TransportError(parent context.Context, err error, target string, timeout time.Duration) error {
	if ref := Refused(err); ref != nil {
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
