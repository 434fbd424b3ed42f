package livedoc

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"mime"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/httpclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/quote"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

const (
	// MaxCardBytes is the largest card body read; a larger one is refused
	// without reading the rest.
	MaxCardBytes = 1 << 20

	wellKnownCard = "/.well-known/agent-card.json"

	// a2aVersionHeader and a2aVersion ask for the A2A 1.0 card: an agent
	// whose SDK serves both versions (@a2a-js/sdk with legacyCompat) takes a
	// request without the header for A2A 0.3 and answers it with a hybrid
	// 0.3 card. A header of the caller's own is sent instead (see cardFetch).
	a2aVersionHeader = "A2A-Version"
	a2aVersion       = "1.0"
	// wellKnownCardV02 is where A2A 0.2 agents serve their card.
	wellKnownCardV02 = "/.well-known/agent.json"
)

// Card is an agent card as served.
type Card struct {
	// Body is the response body, unparsed.
	Body []byte
	// URL is the URL the card came from after redirects (without any
	// user:password part).
	URL string
	// ETag and ContentType are the response's headers, empty when absent.
	ETag        string
	ContentType string
}

// FetchAgentCard fetches the A2A agent card of rawURL.
//
// A URL whose path is empty or "/" is the agent's base URL: the card is
// discovered at /.well-known/agent-card.json, falling back to
// /.well-known/agent.json (A2A 0.2) when that answers 404. Any other path is
// the card's own URL and is fetched as is, so agents serving several cards
// under path prefixes are named by their full card URL. (RFC 8615 puts
// well-known URIs at the root only, so a path is never guessed at.)
//
// The request asks for the A2A 1.0 card (A2A-Version: 1.0) unless
// opts.Headers sets A2A-Version. The card is not parsed: no URL inside it is
// ever followed.
func FetchAgentCard(ctx context.Context, rawURL string, opts Options) (*Card, error) {
	secrets := opts.secrets(nil, nil)
	card, err := fetchAgentCard(ctx, rawURL, opts, secrets)
	return card, secrets.Error(err)
}

func fetchAgentCard(ctx context.Context, rawURL string, opts Options, secrets *redact.Secrets) (*Card, error) {
	u, err := parseURL(rawURL)
	if err != nil {
		return nil, err
	}
	if err := opts.check(); err != nil {
		return nil, err
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, opts.timeout())
	defer cancel()
	f := newCardFetch(parent, u, opts, secrets)
	defer f.client.CloseIdleConnections()
	return f.card(ctx, u)
}

// newCardFetch is the fetch of the cards of the agent at u.
func newCardFetch(parent context.Context, u *url.URL, opts Options, secrets *redact.Secrets) *cardFetch {
	return &cardFetch{parent: parent, client: newClient(u, opts), timeout: opts.timeout(), secrets: secrets,
		sendVersion: !hasHeader(opts.Headers, a2aVersionHeader)}
}

// card reads the card of u: at u itself when it has a path, else at the
// well-known URLs.
func (f *cardFetch) card(ctx context.Context, u *url.URL) (*Card, error) {
	if u.Path != "" && u.Path != "/" {
		return f.get(ctx, u)
	}
	card, err := f.get(ctx, u.JoinPath(wellKnownCard))
	var se *statusError
	if !errors.As(err, &se) || se.code != http.StatusNotFound {
		return card, err
	}
	card, err = f.get(ctx, u.JoinPath(wellKnownCardV02))
	if errors.As(err, &se) && se.code == http.StatusNotFound {
		return nil, fmt.Errorf("no agent card at %s: %s and the A2A 0.2 location %s both answered 404 Not Found",
			u.Redacted(), wellKnownCard, wellKnownCardV02)
	}
	return card, err
}

// statusError is a non-2xx answer; its code drives the 0.2 fallback, its
// body (its start) and challenges explain a refused extended card.
type statusError struct {
	code       int
	status     string
	url        string
	answered   *url.URL
	body       []byte
	challenges []string // WWW-Authenticate
}

// maxErrorBody bounds what is read of an error's body: enough for an A2A
// error (its status, message and reason).
const maxErrorBody = 64 << 10

func (e *statusError) Error() string {
	return fmt.Sprintf("GET %s answered %s; expected a 2xx status with the agent card", e.url, e.status)
}

type cardFetch struct {
	parent  context.Context
	client  *http.Client
	timeout time.Duration
	// sendVersion: the caller's headers do not set A2A-Version, so the
	// request asks for A2A 1.0. When they do, the request carries none of its
	// own, so that a redirect to another host, which never gets the caller's
	// headers, does not get another version than the caller asked for.
	sendVersion bool
	secrets     *redact.Secrets // never shown in an error
}

// hasHeader reports whether headers set name, in any case.
func hasHeader(headers map[string]string, name string) bool {
	for k := range headers {
		if strings.EqualFold(k, name) {
			return true
		}
	}
	return false
}

func (f *cardFetch) get(ctx context.Context, u *url.URL) (*Card, error) {
	return f.getWith(ctx, u, nil)
}

// getWith is get with the headers given (an Authorization) added.
func (f *cardFetch) getWith(ctx context.Context, u *url.URL, header http.Header) (*Card, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u.String(), nil)
	if err != nil {
		return nil, fmt.Errorf("invalid URL %s: %v", u.Redacted(), err)
	}
	for k, v := range header {
		req.Header[k] = v
	}
	req.Header.Set("Accept", cardAccept)
	if f.sendVersion {
		req.Header.Set(a2aVersionHeader, a2aVersion)
	}
	resp, err := f.client.Do(req)
	if err != nil {
		return nil, httpclient.TransportError(f.parent, err, u.Redacted(), f.timeout)
	}
	defer func() { _ = resp.Body.Close() }() // read whole or refused; closing loses nothing
	final := resp.Request.URL.Redacted()
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		body, _ := io.ReadAll(io.LimitReader(resp.Body, maxErrorBody)) // what came is enough to explain
		return nil, &statusError{code: resp.StatusCode, status: resp.Status, url: final, answered: resp.Request.URL,
			body: body, challenges: resp.Header.Values("WWW-Authenticate")}
	}
	body, err := f.readBody(resp, final)
	if err != nil {
		return nil, err
	}
	ct := resp.Header.Get("Content-Type")
	if !isJSONMediaType(ct) && !json.Valid(body) && !httpclient.SameOrigin(u, resp.Request.URL) {
		return nil, fmt.Errorf("%s answered with content type %q and a body that is not JSON (not shown: it came from "+
			"another origin than %s); expected the agent card as application/json", final, ct, httpclient.Origin(u))
	}
	if !isJSONMediaType(ct) && !json.Valid(body) {
		return nil, fmt.Errorf("%s answered with content type %q and a body that is not JSON (it starts %q); expected the agent card as application/a2a+json or application/json",
			final, ct, quote.Start(f.secrets, body))
	}
	return &Card{Body: body, URL: final, ETag: resp.Header.Get("ETag"), ContentType: ct}, nil
}

// readBody reads at most MaxCardBytes+1 bytes: one more than the limit tells
// an oversize body from one of exactly the limit, and nothing more is buffered.
func (f *cardFetch) readBody(resp *http.Response, final string) ([]byte, error) {
	tooLarge := fmt.Errorf("the agent card at %s is over the %d-byte (1 MiB) limit; stopped reading", final, MaxCardBytes)
	if resp.ContentLength > MaxCardBytes {
		return nil, tooLarge
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxCardBytes+1))
	if err != nil {
		return nil, httpclient.TransportError(f.parent, err, final, f.timeout)
	}
	if len(body) > MaxCardBytes {
		return nil, tooLarge
	}
	return body, nil
}

// cardAccept asks for the media type A2A 1.0.1's HTTP binding prefers,
// application/a2a+json, and takes application/json as well (every A2A 0.3
// agent, and most 1.0 ones, serve their card as that).
const cardAccept = "application/a2a+json, application/json;q=0.9"

// isJSONMediaType accepts application/json and any +json suffix type
// (application/a2a+json among them).
func isJSONMediaType(ct string) bool {
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}
