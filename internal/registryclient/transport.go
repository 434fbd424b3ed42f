package registryclient

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/hashicorp/go-cleanhttp"
	"github.com/hashicorp/go-retryablehttp"
	"github.com/hashicorp/terraform-plugin-log/tflog"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

// maxRetryAfter caps a server's Retry-After; the request's deadline
// (deadlineTransport) and the caller's context bound the total wait in any
// case.
const maxRetryAfter = 5 * time.Minute

// maxResponseBytes bounds how much of a response is buffered in memory.
const maxResponseBytes = 32 << 20

// maxErrorAnswerBytes bounds what is kept of an error answer: its first MiB
// holds any message an error quotes, and blanking the provider's credentials
// out of it (redact) costs memory in proportion to what it reads.
const maxErrorAnswerBytes = 1 << 20

var errResponseTooLarge = fmt.Errorf("response body exceeds %d bytes", maxResponseBytes)

// errResponseTooManyValues is an answer outside a paged read with more JSON
// values than a whole paged read may hold (DefaultValues): its cost in the
// provider would follow its values, not its bytes. It is not retried.
var errResponseTooManyValues = fmt.Errorf("response body holds more than %d JSON values", DefaultValues)

// errCredentialsRedirect is a redirect refused because it would carry the
// credentials to another origin.
var errCredentialsRedirect = errors.New("refusing to follow the redirect")

// keepCredentialsHome is the CheckRedirect of a client that sends
// credentials: a redirect to another origin (scheme, host and port) is
// refused, not followed. net/http removes Authorization on a redirect to
// another host only when the first request carried it, and here the bearer
// transport adds it below the client, on every hop; it also refuses a hop to
// an origin that is not the registry's or App Hub's (bearerTransport), so
// that the rule holds at the layer that adds the token.
func keepCredentialsHome(req *http.Request, via []*http.Request) error {
	from, to := origin(via[0].URL), origin(req.URL)
	switch {
	case from != to:
		return fmt.Errorf("%w from %s to %s: the request carries the provider's credentials, which go only to the origin "+
			"they are configured for; set endpoint to the registry's own address", errCredentialsRedirect, from, to)
	case len(via) >= 10:
		return errors.New("stopped after 10 redirects") // net/http's default limit
	}
	return nil
}

// newHTTPClient builds the transport stack, outermost first:
//
//	net/http client (follows redirects; with credentials, only within the request's origin)
//	  -> the request's deadline (every attempt and every wait counts against it)
//	    -> retryablehttp (retries, backoff, logging)
//	    -> User-Agent
//	    -> authorize (auth.go: bearer token for the configured origins and X-Goog-User-Project; absent without credentials)
//	    -> response buffering (a connection dropped mid-body becomes a retryable error; an error answer is
//	       blanked of the provider's credentials)
//	    -> pooled net/http transport
func newHTTPClient(ctx context.Context, cfg Config, origins []string) (*http.Client, error) {
	var rt http.RoundTripper = &bufferingTransport{base: cleanhttp.DefaultPooledTransport(), attemptTimeout: cfg.RequestTimeout,
		secrets: cfg.Secrets}

	rt, err := authorize(ctx, cfg, origins, rt) // auth.go
	if err != nil {
		return nil, err
	}
	rt = &userAgentTransport{userAgent: cfg.UserAgent, base: rt}

	rc := retryablehttp.NewClient()
	// Redirects are followed by the outer client (below), once per redirect,
	// each hop with its own retries; this one hands a redirect back as is.
	rc.HTTPClient = &http.Client{Transport: rt, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	rc.RetryMax = cfg.RetryMax
	rc.RetryWaitMin = cfg.RetryWaitMin
	rc.RetryWaitMax = cfg.RetryWaitMax
	rc.CheckRetry = checkRetry
	rc.Backoff = backoff
	rc.ErrorHandler = errorHandler
	// retryablehttp's own logger has no context and would bypass tflog: log
	// from the hooks, with the request's context, method and URL only.
	rc.Logger = nil
	l := &requestLogger{secrets: cfg.Secrets}
	rc.RequestLogHook = l.request
	rc.ResponseLogHook = l.response
	hc := rc.StandardClient()
	hc.Transport = newDeadlineTransport(hc.Transport, cfg)
	if cfg.authenticated() {
		hc.CheckRedirect = keepCredentialsHome
	}
	return hc, nil
}

// checkRetry retries connection errors (including a connection closed before
// or during the response, on any method: every write carries a requestId) and
// 429, 500, 502, 503, 504. Other statuses, including every other 4xx, are final.
func checkRetry(ctx context.Context, resp *http.Response, err error) (bool, error) {
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	if err != nil {
		var refused *TokenRefusedError
		if errors.Is(err, errResponseTooLarge) || errors.Is(err, errPageBytes) || errors.Is(err, errResponseTooManyValues) ||
			errors.Is(err, errPageValues) || refusedOnLoopback(err) || unresolvable(err) || errors.As(err, &refused) ||
			errors.Is(err, errForeignOrigin) {
			return false, nil
		}
		retry, _ := retryablehttp.ErrorPropagatedRetryPolicy(ctx, nil, err)
		if retry {
			tflog.Debug(ctx, "agent registry request failed, will retry", map[string]any{"error": err.Error()})
		}
		return retry, nil
	}
	if !retryableStatus(resp.StatusCode) {
		return false, nil
	}
	if err := retryAfterPastDeadline(ctx, resp); err != nil {
		return false, err
	}
	return true, nil
}

// refusedOnLoopback tells a connection refused by this machine: nothing
// listens on that port, and waiting will not change that within a plan (a
// remote host that refuses may be restarting behind a load balancer, and is
// retried). Failing at once turns ten seconds of retries into an error that
// says what to start.
func refusedOnLoopback(err error) bool {
	var ue *url.Error
	if !errors.Is(err, syscall.ECONNREFUSED) || !errors.As(err, &ue) {
		return false
	}
	u, perr := url.Parse(ue.URL)
	if perr != nil {
		return false
	}
	if u.Hostname() == "localhost" {
		return true
	}
	ip := net.ParseIP(u.Hostname())
	return ip != nil && ip.IsLoopback()
}

// unresolvable tells a host name that DNS says does not exist (a typo in an
// endpoint, Google's IAM Credentials API from a machine that cannot see
// Google): asking again within a plan gets the same answer. A resolver that
// did not answer, or answered with a temporary failure, is retried.
func unresolvable(err error) bool {
	var dns *net.DNSError
	return errors.As(err, &dns) && dns.IsNotFound
}

func retryableStatus(code int) bool {
	switch code {
	case http.StatusTooManyRequests, http.StatusInternalServerError, http.StatusBadGateway,
		http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return true
	}
	return false
}

// backoff honours Retry-After (delta-seconds or an HTTP date) when the response
// carries one; otherwise it waits first*2^attempt, capped at most, with jitter
// (uniformly between half and all of that).
func backoff(first, most time.Duration, attempt int, resp *http.Response) time.Duration {
	if resp != nil {
		if d, ok := retryAfter(resp.Header.Get("Retry-After"), time.Now()); ok {
			return d
		}
	}
	d := most
	if attempt < 32 {
		if exp := first << uint(attempt); exp > 0 && exp < most {
			d = exp
		}
	}
	half := d / 2
	return half + rand.N(d-half+1)
}

// retryAfter parses a Retry-After header value relative to now.
func retryAfter(v string, now time.Time) (time.Duration, bool) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, false
	}
	var d time.Duration
	if secs, err := strconv.ParseInt(v, 10, 64); err == nil {
		if secs < 0 {
			return 0, false
		}
		if secs > int64(maxRetryAfter/time.Second) {
			return maxRetryAfter, true
		}
		d = time.Duration(secs) * time.Second
	} else if t, err := http.ParseTime(v); err == nil {
		d = max(t.Sub(now), 0)
	} else {
		return 0, false
	}
	return min(d, maxRetryAfter), true
}

// errorHandler runs when retries are exhausted (or CheckRetry stopped on an
// error): hand back the last response so the generated client turns its body
// into a *googleapi.Error with the server's message.
func errorHandler(resp *http.Response, err error, attempts int) (*http.Response, error) {
	var de *DeadlineError
	if errors.As(err, &de) {
		if resp != nil {
			_ = resp.Body.Close() // buffered: nothing is lost
		}
		return nil, err
	}
	if resp != nil {
		return resp, nil
	}
	if err == nil {
		err = errors.New("no response")
	}
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return nil, err
	}
	// The outer client names the method and URL again: keep only the cause.
	var ue *url.Error
	if errors.As(err, &ue) {
		err = ue.Err
	}
	return nil, fmt.Errorf("giving up after %d attempt(s): %w", attempts, err)
}

// requestLogger logs each attempt through tflog at debug level: method and
// URL, never headers or bodies.
type requestLogger struct {
	secrets *redact.Secrets // masked defensively, should one ever appear in a message
}

func (l *requestLogger) ctx(ctx context.Context) context.Context {
	if masked := l.secrets.Strings(); len(masked) > 0 {
		ctx = tflog.MaskAllFieldValuesStrings(ctx, masked...)
		ctx = tflog.MaskMessageStrings(ctx, masked...)
	}
	return ctx
}

func (l *requestLogger) request(_ retryablehttp.Logger, req *http.Request, attempt int) {
	fields := map[string]any{"http_method": req.Method, "http_url": redactURL(req.URL)}
	msg := "agent registry request"
	if attempt > 0 {
		msg = "agent registry request (retry)"
		fields["retry"] = attempt
	}
	tflog.Debug(l.ctx(req.Context()), msg, fields)
}

func (l *requestLogger) response(_ retryablehttp.Logger, resp *http.Response) {
	if resp == nil || resp.Request == nil {
		return
	}
	tflog.Debug(l.ctx(resp.Request.Context()), "agent registry response", map[string]any{
		"http_method":      resp.Request.Method,
		"http_url":         redactURL(resp.Request.URL),
		"http_status_code": resp.StatusCode,
	})
}

func redactURL(u *url.URL) string {
	if u == nil {
		return ""
	}
	return u.Redacted()
}

// userAgentTransport puts the provider's product token first in User-Agent,
// keeping the generated client's own token after it.
type userAgentTransport struct {
	userAgent string
	base      http.RoundTripper
}

func (t *userAgentTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	ua := t.userAgent
	if prev := req.Header.Get("User-Agent"); prev != "" && !strings.HasPrefix(prev, ua) {
		ua += " " + prev
	}
	r := req.Clone(req.Context())
	r.Header.Set("User-Agent", ua)
	return t.base.RoundTrip(r)
}

// bufferingTransport reads each response body completely before returning,
// so that a connection reset or EOF in the middle of a body is a transport
// error, which retryablehttp retries, rather than a JSON decoding failure.
// It also bounds each attempt: sending, waiting for the answer and reading
// its body take at most attemptTimeout (none when zero).
type bufferingTransport struct {
	base           http.RoundTripper
	attemptTimeout time.Duration
	// secrets are blanked out of an error answer's body before the
	// generated client quotes it (a registry may echo the request's token).
	secrets *redact.Secrets
}

// errAttemptTimeout is an attempt that took longer than the request timeout;
// checkRetry retries it like a dropped connection.
var errAttemptTimeout = errors.New("the registry did not answer within the request timeout")

func (t *bufferingTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if t.attemptTimeout <= 0 {
		return t.roundTrip(req)
	}
	ctx, cancel := context.WithTimeoutCause(req.Context(), t.attemptTimeout, errAttemptTimeout)
	defer cancel() // the body is in memory by then
	resp, err := t.roundTrip(req.WithContext(ctx))
	if err != nil && req.Context().Err() == nil && errors.Is(context.Cause(ctx), errAttemptTimeout) {
		// The caller's error names the method and URL already.
		return nil, fmt.Errorf("%w of %s (the provider's request_timeout)", errAttemptTimeout, t.attemptTimeout)
	}
	return resp, err
}

func (t *bufferingTransport) roundTrip(req *http.Request) (*http.Response, error) {
	resp, err := t.base.RoundTrip(req)
	if err != nil || resp.Body == nil || resp.Body == http.NoBody {
		return resp, err
	}
	// A paged read's byte cap (pager.go) bounds the body as well: no more is
	// read than what is left of it.
	limit := int64(maxResponseBytes)
	budget := byteBudgetFrom(req.Context())
	if budget != nil {
		limit = min(limit, max(budget.left.Load(), 0))
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, limit+1))
	_ = resp.Body.Close() // read to its end or its limit: nothing is lost if closing fails
	if budget != nil {
		budget.used.Add(int64(len(body)))
		if budget.left.Add(-int64(len(body))) < 0 {
			budget.exceeded.Store(true)
			return nil, fmt.Errorf("response to %s %s: %w", req.Method, redactURL(req.URL), errPageBytes)
		}
	}
	if err != nil {
		return nil, fmt.Errorf("reading response to %s %s: %w", req.Method, redactURL(req.URL), err)
	}
	if len(body) > maxResponseBytes {
		return nil, fmt.Errorf("response to %s %s: %w", req.Method, redactURL(req.URL), errResponseTooLarge)
	}
	if err := countAnswerValues(budget, body); err != nil {
		return nil, fmt.Errorf("response to %s %s: %w", req.Method, redactURL(req.URL), err)
	}
	if resp.StatusCode >= 400 {
		body = []byte(t.secrets.Blank(string(body[:min(len(body), maxErrorAnswerBytes)])))
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	resp.ContentLength = int64(len(body))
	return resp, nil
}

// countAnswerValues counts an answer's JSON values against its paged read's
// budget, or alone against DefaultValues when it is not part of one.
func countAnswerValues(budget *byteBudget, body []byte) error {
	n := countValues(body)
	switch {
	case budget == nil && n > DefaultValues:
		return errResponseTooManyValues
	case budget != nil && budget.valuesLeft.Add(-n) < 0:
		budget.valuesExceeded.Store(true)
		return errPageValues
	}
	return nil
}
