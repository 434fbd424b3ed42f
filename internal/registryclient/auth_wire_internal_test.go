package registryclient

// tokenWire on its own, below the token libraries: what it registers of a
// request and an answer, and what it leaves of an error answer.

import (
	"context"
	"encoding/base64"
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
	"golang.org/x/oauth2"
)

// answering is a token service that answers every request with status and
// body, and keeps the request's body.
type answering struct {
	status int
	body   string
	got    string
}

func (a *answering) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.Body != nil {
		b, _ := io.ReadAll(req.Body)
		a.got = string(b)
	}
	return &http.Response{StatusCode: a.status, Header: http.Header{"Content-Type": {"application/json"}},
		Body: io.NopCloser(strings.NewReader(a.body)), Request: req}, nil
}

func roundTrip(t *testing.T, w *tokenWire, req *http.Request) string {
	t.Helper()
	resp, err := w.RoundTrip(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close() //nolint:errcheck // in memory
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

func tokenRequest(t *testing.T, form url.Values, authorization string) *http.Request {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, "https://oauth2.googleapis.com/token", strings.NewReader(form.Encode()))
	if err != nil {
		t.Fatal(err)
	}
	if authorization != "" {
		req.Header.Set("Authorization", authorization)
	}
	return req
}

// The credentials of a request are registered before it is sent: the
// Authorization's credential, the secret of a Basic pair (form-decoded), and
// the secret members of the form, whose body still reaches the service whole.
func TestTokenWire_registersTheRequestsCredentials(t *testing.T) {
	secrets := &redact.Secrets{}
	service := &answering{status: http.StatusOK, body: `{"access_token":"ya29.minted-access-token-0001"}`}
	w := &tokenWire{base: service, secrets: secrets}
	form := url.Values{"grant_type": {"urn:ietf:params:oauth:grant-type:jwt-bearer"},
		"assertion": {"signed.jwt-assertion-0002"}, "client_secret": {"form-client-secret-0003"}}
	basic := "Basic " + base64.StdEncoding.EncodeToString([]byte("client-id:basic+secret/0004"))
	roundTrip(t, w, tokenRequest(t, form, basic))
	if service.got != form.Encode() {
		t.Errorf("the service got %q, want the form whole", service.got)
	}
	registered := secrets.Strings()
	for _, want := range []string{"signed.jwt-assertion-0002", "form-client-secret-0003", "basic+secret/0004",
		strings.TrimPrefix(basic, "Basic "), "ya29.minted-access-token-0001"} {
		if !slices.Contains(registered, want) {
			t.Errorf("%q not registered", want)
		}
	}
}

// A request whose body cannot be read again registers nothing of it, and
// one with none is sent as it is.
func TestTokenWire_requestWithoutABodyToRead(t *testing.T) {
	secrets := &redact.Secrets{}
	w := &tokenWire{base: &answering{status: http.StatusOK, body: `{}`}, secrets: secrets}
	req := tokenRequest(t, url.Values{"client_secret": {"unread-client-secret-0005"}}, "")
	req.GetBody = func() (io.ReadCloser, error) { return nil, io.ErrUnexpectedEOF }
	roundTrip(t, w, req)
	get, _ := http.NewRequest(http.MethodGet, "https://metadata.example/token", nil)
	roundTrip(t, w, get)
	if got := secrets.Strings(); len(got) != 0 {
		t.Errorf("registered %q, want nothing", got)
	}
}

// Every 2xx answer is handed on whole with its tokens registered, JSON or
// form-encoded; an answer of exactly maxTokenAnswerBytes is read whole, one
// byte more is refused.
func TestTokenWire_answers(t *testing.T) {
	padded := `{"access_token":"ya29.padded-token-0006"}`
	padded += strings.Repeat(" ", maxTokenAnswerBytes-len(padded))
	for _, c := range []struct {
		status      int
		body, token string
	}{
		{http.StatusOK, `{"access_token":"ya29.json-token-0007","token_type":"Bearer"}`, "ya29.json-token-0007"},
		{299, `{"accessToken":"ya29.iam-token-0008"}`, "ya29.iam-token-0008"},
		{http.StatusOK, "access_token=form-token-0009&token_type=bearer", "form-token-0009"},
		{http.StatusOK, padded, "ya29.padded-token-0006"},
	} {
		secrets := &redact.Secrets{}
		w := &tokenWire{base: &answering{status: c.status, body: c.body}, secrets: secrets}
		if got := roundTrip(t, w, tokenRequest(t, url.Values{}, "")); got != c.body {
			t.Errorf("status %d: handed on %d bytes, want the answer whole (%d bytes)", c.status, len(got), len(c.body))
		}
		if !slices.Contains(secrets.Strings(), c.token) {
			t.Errorf("status %d: %q not registered", c.status, c.token)
		}
	}
	w := &tokenWire{base: &answering{status: http.StatusOK, body: padded + " "}, secrets: &redact.Secrets{}}
	resp, err := w.RoundTrip(tokenRequest(t, url.Values{}, ""))
	if err == nil || !strings.Contains(err.Error(), "the token service's answer is over 1024 KiB") {
		t.Errorf("an answer one byte over: %v, %v; want it refused", resp, err)
	}
}

// An error answer becomes what an error may quote of it: an OAuth or a
// Google error's code and message, else the first quotedBodyBytes bytes.
func TestErrorExcerpt(t *testing.T) {
	exactly := strings.Repeat("x", quotedBodyBytes)
	for body, want := range map[string]string{
		`{"error":"invalid_grant","error_description":"the assertion expired"}`: "invalid_grant: the assertion expired",
		`{"error":"invalid_grant"}`:                                   "invalid_grant",
		`{"error":"","error_description":"no code"}`:                  `{"error":"","error_description":"no code"}`,
		`{"error":{"status":"PERMISSION_DENIED","message":"denied"}}`: "PERMISSION_DENIED: denied",
		`{"error":{"message":"only a message"}}`:                      "only a message",
		`{"error":{}}`:                                                `{"error":{}}`,
		`{"error":5}`:                                                 `{"error":5}`,
		`{"status":"no error member"}`:                                `{"status":"no error member"}`,
		`not JSON {"error":"invalid_grant"}`:                          `not JSON {"error":"invalid_grant"}`,
		exactly:                                                       exactly,
		exactly + "y":                                                 exactly + "...",
	} {
		if got := errorExcerpt(&redact.Secrets{}, []byte(body)); got != want {
			t.Errorf("errorExcerpt(%.40q) = %q, want %q", body, got, want)
		}
	}
}

// countingSource hands out a token valid for an hour, or err, and counts
// how often it was asked.
type countingSource struct {
	asked int
	err   error
}

func (c *countingSource) Token() (*oauth2.Token, error) {
	c.asked++
	if c.err != nil {
		return nil, c.err
	}
	return &oauth2.Token{AccessToken: "ya29.shared", Expiry: time.Now().Add(time.Hour)}, nil
}

// A token fetched is kept while it is valid; a failed fetch keeps nothing,
// so the next request asks again.
func TestSharedToken_keepsAValidTokenOnly(t *testing.T) {
	ok := &countingSource{}
	s := &sharedToken{src: ok}
	for range 3 {
		if tok, err := s.Token(context.Background()); err != nil || tok.AccessToken != "ya29.shared" {
			t.Fatalf("Token() = %v, %v", tok, err)
		}
	}
	if ok.asked != 1 {
		t.Errorf("the source was asked %d times for three requests, want once", ok.asked)
	}
	failing := &countingSource{err: errors.New("refused")}
	s = &sharedToken{src: failing}
	for range 2 {
		if _, err := s.Token(context.Background()); err == nil {
			t.Fatal("Token() succeeded, want the source's error")
		}
	}
	if failing.asked != 2 {
		t.Errorf("a failing source was asked %d times for two requests, want twice", failing.asked)
	}
}
