package registryclient

// What the token client's wire sees. Every token request goes through
// tokenWire, below the token libraries: it is the one place where the
// credentials they send can be seen before they leave (the JWT assertion a
// service account key signs is made inside x/oauth2 and exists nowhere
// else), and where what a token service answers can be cut before a library
// quotes it whole in an error.

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/termsafe"
)

// LabelCredential names a credential of the provider where it is blanked:
// the registry's access token, a token Google minted, and what a token
// request carries.
const LabelCredential = "a credential of the provider"

const (
	// maxTokenRequestBytes bounds what is read of a token request's body to
	// find its secrets (the library's own request: a few KiB at most).
	maxTokenRequestBytes = 64 << 10
	// maxTokenAnswerBytes bounds a token service's answer, as x/oauth2 bounds it.
	maxTokenAnswerBytes = 1 << 20
	// maxTokenErrorBytes bounds what is read of an error answer to find its
	// message: as much as of an answer, which x/oauth2 would read whole.
	maxTokenErrorBytes = maxTokenAnswerBytes
	// quotedBodyBytes is how much of an error answer that is not an OAuth or
	// Google error is quoted, as live reads quote a body.
	quotedBodyBytes = 64
	// quotedMessageRunes bounds the message of an OAuth or Google error.
	quotedMessageRunes = 256
)

// secretParams are the members of a token request's form that are
// credentials (RFC 6749, 7523, 8693).
var secretParams = []string{"assertion", "client_assertion", "client_secret", "refresh_token", "subject_token",
	"actor_token", "password", "code", "code_verifier"}

// secretAnswerFields are the members of a token answer that are credentials
// (OAuth's, and the IAM Credentials API's accessToken).
var secretAnswerFields = []string{"access_token", "id_token", "refresh_token", "accessToken", "token"}

// tokenWire registers in secrets every credential a token request carries
// (its Authorization and the secret members of its form) before it is sent,
// and every token the answer holds; it cuts an error answer to a bounded,
// blanked, terminal-safe excerpt; and it keeps the HTTP status of the latest
// answer. x/oauth2/google, its external account flow and api/impersonate
// report a refusal as a plain string (only x/oauth2's own token endpoint has
// a typed RetrieveError), so the status is read on the wire instead.
type tokenWire struct {
	base    http.RoundTripper
	secrets *redact.Secrets
	status  atomic.Int32
	// unresolved is the DNS error of the latest request, when its host
	// did not resolve (nil otherwise): api/impersonate reports it as a
	// string, and checkRetry must still see it to stop retrying.
	unresolved atomic.Pointer[net.DNSError]
}

func (t *tokenWire) RoundTrip(req *http.Request) (*http.Response, error) {
	t.addRequestSecrets(req)
	resp, err := t.base.RoundTrip(req)
	code := 0
	if err == nil {
		code = resp.StatusCode
	}
	t.status.Store(int32(code))
	var dns *net.DNSError
	if !errors.As(err, &dns) || !dns.IsNotFound {
		dns = nil
	}
	t.unresolved.Store(dns)
	if err != nil {
		return nil, t.secrets.Error(err)
	}
	if code < 200 || code > 299 {
		return t.cutError(resp), nil
	}
	return t.addAnswerSecrets(resp)
}

// addRequestSecrets registers the credentials req carries.
func (t *tokenWire) addRequestSecrets(req *http.Request) {
	if scheme, credential, ok := strings.Cut(req.Header.Get("Authorization"), " "); ok {
		t.secrets.Add(LabelCredential, credential)
		if strings.EqualFold(scheme, "Basic") { // client_id:client_secret, each form-encoded (RFC 6749 2.3.1)
			if pair, err := base64.StdEncoding.DecodeString(credential); err == nil {
				_, secret, _ := strings.Cut(string(pair), ":")
				unescaped, _ := url.QueryUnescape(secret)
				t.secrets.Add(LabelCredential, unescaped)
			}
		}
	}
	if req.GetBody == nil {
		return
	}
	body, err := req.GetBody()
	if err != nil {
		return
	}
	defer body.Close() //nolint:errcheck // a copy of a body in memory
	raw, _ := io.ReadAll(io.LimitReader(body, maxTokenRequestBytes))
	form, _ := url.ParseQuery(string(raw))
	for _, name := range secretParams {
		for _, v := range form[name] {
			t.secrets.Add(LabelCredential, v)
		}
	}
}

// addAnswerSecrets registers the tokens of a successful answer and hands it
// on, read into memory.
func (t *tokenWire) addAnswerSecrets(resp *http.Response) (*http.Response, error) {
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxTokenAnswerBytes+1))
	_ = resp.Body.Close() // read to its end or its limit
	switch {
	case err != nil:
		return nil, t.secrets.Error(fmt.Errorf("reading the token service's answer: %w", err))
	case len(body) > maxTokenAnswerBytes:
		return nil, fmt.Errorf("the token service's answer is over %d KiB", maxTokenAnswerBytes>>10)
	}
	var fields map[string]any
	if json.Unmarshal(body, &fields) != nil {
		form, _ := url.ParseQuery(string(body)) // x/oauth2 accepts a form-encoded answer too
		fields = map[string]any{}
		for k := range form {
			fields[k] = form.Get(k)
		}
	}
	for _, name := range secretAnswerFields {
		v, _ := fields[name].(string)
		t.secrets.Add(LabelCredential, v)
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	return resp, nil
}

// cutError replaces an error answer's body with what an error may quote of
// it (errorExcerpt): the token libraries quote the body they read whole.
func (t *tokenWire) cutError(resp *http.Response) *http.Response {
	body, _ := io.ReadAll(io.LimitReader(resp.Body, maxTokenErrorBytes))
	_ = resp.Body.Close() // what is past the limit is not needed
	excerpt := errorExcerpt(t.secrets, body)
	// Plain text, which no library takes for a token answer.
	resp.Header = resp.Header.Clone()
	resp.Header.Set("Content-Type", "text/plain; charset=utf-8")
	resp.Body = io.NopCloser(strings.NewReader(excerpt))
	resp.ContentLength = int64(len(excerpt))
	return resp
}

// errorExcerpt is what an error quotes of a token service's error answer:
// the error and its description (OAuth: error, error_description; Google:
// error.status, error.message), the description at most quotedMessageRunes
// long; or else the answer's first quotedBodyBytes bytes. It is blanked of
// every credential before it is cut (a credential cut in two would no longer
// be found whole) and made safe for a terminal.
func errorExcerpt(secrets *redact.Secrets, body []byte) string {
	code, message, ok := errorFields(body)
	if !ok {
		text := termsafe.Line(secrets.Blank(string(body)))
		if len(text) > quotedBodyBytes {
			text = strings.ToValidUTF8(text[:quotedBodyBytes], "") + "..."
		}
		return secrets.Blank(text)
	}
	quote := func(s string, n int) string {
		return secrets.Blank(termsafe.Truncate(termsafe.Line(secrets.Blank(s)), n))
	}
	switch {
	case message == "":
		return quote(code, quotedMessageRunes)
	case code == "":
		return quote(message, quotedMessageRunes)
	}
	return quote(code, quotedBodyBytes) + ": " + quote(message, quotedMessageRunes)
}

// errorFields reads an OAuth error ({"error": "...", "error_description":
// "..."}) or a Google API error ({"error": {"status", "message"}}).
func errorFields(body []byte) (code, message string, ok bool) {
	var e struct {
		Error json.RawMessage `json:"error"`
		Desc  string          `json:"error_description"`
	}
	if json.Unmarshal(body, &e) != nil || e.Error == nil {
		return "", "", false
	}
	if json.Unmarshal(e.Error, &code) == nil {
		return code, e.Desc, code != ""
	}
	var g struct {
		Status  string `json:"status"`
		Message string `json:"message"`
	}
	if json.Unmarshal(e.Error, &g) != nil || g.Status+g.Message == "" {
		return "", "", false
	}
	return g.Status, g.Message, true
}
