package registryclient

// The deadline of one request: the attempts that request_timeout bounds and
// every wait between them, Retry-After included, count against it, so that a
// registry that keeps asking to be retried later cannot hold a read for
// longer than the provider's documentation states.

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"
)

// requestDeadline is when one request, its retries and the waits between
// them must be over, and how the provider documents that deadline.
type requestDeadline struct {
	at     time.Time
	length time.Duration
	// made says what the deadline is made of, for an error.
	made string
}

type requestDeadlineKey struct{}

func requestDeadlineFrom(ctx context.Context) *requestDeadline {
	d, _ := ctx.Value(requestDeadlineKey{}).(*requestDeadline)
	return d
}

// errRequestDeadline is the cause of a request context that reached its deadline.
var errRequestDeadline = errors.New("the request passed its deadline")

// DeadlineError ends a request whose attempts and waits reached its
// deadline, or would have: the registry asked to be retried (Retry-After)
// after the deadline.
type DeadlineError struct {
	// Deadline is the request's deadline: (retries + 1) attempts of at most
	// the request timeout and a wait of at most the longest backoff between
	// two attempts.
	Deadline time.Duration
	// Made says what Deadline is made of.
	Made string
	// RetryAfter is the wait the registry asked for with the status Status;
	// zero when the deadline came during an attempt or a wait.
	RetryAfter time.Duration
	Status     int
}

func (e *DeadlineError) Error() string {
	if e.RetryAfter > 0 {
		return fmt.Sprintf("the registry answered %d %s and asked to be retried in %s (Retry-After), past this request's "+
			"deadline of %s (%s): stopped instead of waiting; try again later, or raise request_timeout",
			e.Status, http.StatusText(e.Status), e.RetryAfter, e.Deadline, e.Made)
	}
	return fmt.Sprintf("the request and its retries passed their deadline of %s (%s)", e.Deadline, e.Made)
}

// Unwrap makes a deadline reached during an attempt or a wait a
// context.DeadlineExceeded, as it is.
func (e *DeadlineError) Unwrap() error {
	if e.RetryAfter > 0 {
		return nil
	}
	return context.DeadlineExceeded
}

// deadlineGrace is how long after its deadline a request's context ends. The
// deadline holds by construction (each attempt ends at RequestTimeout, each
// backoff at RetryWaitMax, and a Retry-After past the deadline ends the
// request at once); the context is a backstop that must not cut the last
// attempt for the microseconds spent between attempts.
const deadlineGrace = time.Second

// deadlineTransport gives each request (each redirect hop, with its retries)
// its deadline: RetryMax+1 attempts of RequestTimeout and RetryMax waits of
// RetryWaitMax. The exponential backoff never waits longer than RetryWaitMax,
// so only a Retry-After can reach the deadline, and checkRetry stops the
// request at once when it would (retryAfterPastDeadline).
type deadlineTransport struct {
	base   http.RoundTripper
	length time.Duration
	made   string
	grace  time.Duration // deadlineGrace; shorter in tests
}

func newDeadlineTransport(base http.RoundTripper, cfg Config) *deadlineTransport {
	attempts := cfg.RetryMax + 1
	return &deadlineTransport{
		base:   base,
		grace:  deadlineGrace,
		length: time.Duration(attempts)*cfg.RequestTimeout + time.Duration(cfg.RetryMax)*cfg.RetryWaitMax,
		made: fmt.Sprintf("%d attempt(s) of at most %s (the provider's request_timeout) and %d wait(s) of at most %s "+
			"between them", attempts, cfg.RequestTimeout, cfg.RetryMax, cfg.RetryWaitMax),
	}
}

func (t *deadlineTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	d := &requestDeadline{at: time.Now().Add(t.length), length: t.length, made: t.made}
	ctx, cancel := context.WithDeadlineCause(context.WithValue(req.Context(), requestDeadlineKey{}, d), d.at.Add(t.grace), errRequestDeadline)
	defer cancel() // every body is in memory by then (bufferingTransport)
	resp, err := t.base.RoundTrip(req.WithContext(ctx))
	if err != nil && req.Context().Err() == nil && errors.Is(context.Cause(ctx), errRequestDeadline) {
		return nil, &DeadlineError{Deadline: d.length, Made: d.made}
	}
	return resp, err
}

// retryAfterPastDeadline is the error that ends a request whose answer asks
// to be retried (Retry-After) after the request's deadline; nil otherwise.
func retryAfterPastDeadline(ctx context.Context, resp *http.Response) error {
	d := requestDeadlineFrom(ctx)
	now := time.Now()
	wait, ok := retryAfter(resp.Header.Get("Retry-After"), now)
	if d == nil || !ok || !now.Add(wait).After(d.at) {
		return nil
	}
	return &DeadlineError{Deadline: d.length, Made: d.made, RetryAfter: wait, Status: resp.StatusCode}
}
