package registryclient

// How a request gets its bearer token: from a token source shared by every
// request, waited for within the request's own deadline, and only for the
// origins the configuration names.
//
// oauth2.Transport would do neither: it asks its source for a token with no
// context, and oauth2.ReuseTokenSource holds a lock while it fetches one, so
// ten reads against a token endpoint that never answers queued behind each
// other for minutes past their deadline; and it adds Authorization to every
// request it sends, a redirected one to another host included.

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"

	"golang.org/x/oauth2"
)

// sharedToken hands out the token of src, fetching a new one when the one it
// holds is no longer valid. One fetch runs at a time, and every request that
// needs a token meanwhile waits for that fetch or for the end of its own
// context, whichever comes first: nothing waits on a lock. A fetch is bounded
// by the token client's timeout (tokenHTTPClient), so one that outlives the
// requests that started it ends by itself.
type sharedToken struct {
	src oauth2.TokenSource

	mu     sync.Mutex
	token  *oauth2.Token
	flight *tokenFlight // the fetch under way, or nil
}

// tokenFlight is one fetch of a token; done is closed when token or err is set.
type tokenFlight struct {
	done  chan struct{}
	token *oauth2.Token
	err   error
}

// Token returns a valid token, or ctx's error when ctx ends first.
func (s *sharedToken) Token(ctx context.Context) (*oauth2.Token, error) {
	s.mu.Lock()
	if s.token.Valid() {
		t := s.token
		s.mu.Unlock()
		return t, nil
	}
	f := s.flight
	if f == nil {
		f = &tokenFlight{done: make(chan struct{})}
		s.flight = f
		go s.fetch(f)
	}
	s.mu.Unlock()
	select {
	case <-f.done:
		return f.token, f.err
	case <-ctx.Done():
		return nil, fmt.Errorf("waiting for a Google token: %w", context.Cause(ctx))
	}
}

func (s *sharedToken) fetch(f *tokenFlight) {
	f.token, f.err = s.src.Token()
	s.mu.Lock()
	s.flight = nil
	if f.err == nil {
		s.token = f.token
	}
	s.mu.Unlock()
	close(f.done)
}

// origin is a URL's scheme, host and port, the unit a credential is
// configured for: "https://agentregistry.googleapis.com:443".
func origin(u *url.URL) string {
	port := u.Port()
	if port == "" {
		port = map[string]string{"http": "80", "https": "443"}[u.Scheme]
	}
	return strings.ToLower(u.Scheme) + "://" + strings.ToLower(u.Hostname()) + ":" + port
}

// errForeignOrigin is a request to an origin the credentials were not
// configured for.
var errForeignOrigin = fmt.Errorf("refusing to send the provider's credentials")

// bearerTransport sets Authorization on the requests to origins (the
// registry's and App Hub's endpoints) and refuses every other request: the
// redirect check (keepCredentialsHome) keeps the client on those origins,
// and this is the layer that adds the token, so it holds the rule too.
type bearerTransport struct {
	token   *sharedToken
	origins []string
	base    http.RoundTripper
}

func (t *bearerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if o := origin(req.URL); !slices.Contains(t.origins, o) {
		closeBody(req)
		return nil, fmt.Errorf("%w to %s, an origin other than the registry's and App Hub's (%s)",
			errForeignOrigin, o, strings.Join(t.origins, ", "))
	}
	tok, err := t.token.Token(req.Context())
	if err != nil {
		closeBody(req)
		return nil, err
	}
	r := req.Clone(req.Context())
	tok.SetAuthHeader(r)
	return t.base.RoundTrip(r)
}

// closeBody closes the body of a request that is not sent, as a RoundTripper
// must.
func closeBody(req *http.Request) {
	if req.Body != nil {
		_ = req.Body.Close() // nothing was sent: nothing is lost
	}
}
