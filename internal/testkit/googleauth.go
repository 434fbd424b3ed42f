package testkit

// A stand-in for Google's token services, so that every way the provider
// authenticates to Google runs in a test without a Google account: the OAuth
// 2.0 token endpoint (a service account key's signed JWT grant, an
// authorized_user's refresh token), the Security Token Service (workload
// identity federation's token exchange) and the IAM Credentials API
// (generateAccessToken, for impersonation). It checks what each call carries,
// mints a fixed token per kind of grant and records every call; the bundled
// registry server (RecordedRegistry) then accepts only the token the test
// expects.

import (
	"crypto/rand"
	"crypto/rsa"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
)

// The tokens GoogleAuth mints, one per kind of grant.
const (
	ServiceAccountToken = "ya29.service-account-token-from-jwt-grant"
	UserToken           = "ya29.user-token-from-refresh-token"
	FederatedToken      = "ya29.federated-token-from-sts"
	ImpersonatedToken   = "ya29.impersonated-token-from-iam-credentials"
)

// The secrets the credentials files GoogleAuth writes hold; a test checks
// that none of them reaches an output or a log.
const (
	UserClientSecret = "user-client-secret-never-printed"
	UserRefreshToken = "user-refresh-token-never-printed"
	SubjectToken     = "subject-token-from-the-ci-never-printed"
)

// CloudPlatformScope is the scope every token is asked for.
const CloudPlatformScope = "https://www.googleapis.com/auth/cloud-platform"

// GoogleAuth is the stand-in, on a loopback listener at URL.
type GoogleAuth struct {
	URL string
	key *rsa.PrivateKey

	mu    sync.Mutex
	calls []AuthCall
	echo  bool
}

// AuthCall is one call GoogleAuth answered.
type AuthCall struct {
	Path          string
	Authorization string
	Form          url.Values     // a token endpoint's or STS's form
	Body          map[string]any // generateAccessToken's JSON body
}

// StartGoogleAuth starts the stand-in for the test's duration.
func StartGoogleAuth(t testing.TB) *GoogleAuth {
	t.Helper()
	key, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	g := &GoogleAuth{key: key}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /token", g.token)
	mux.HandleFunc("POST /v1/token", g.sts)
	mux.HandleFunc("POST /v1/projects/-/serviceAccounts/{account}", g.generateAccessToken)
	ts := httptest.NewServer(g.echoing(mux))
	t.Cleanup(ts.Close)
	g.URL = ts.URL
	return g
}

// Echo(true) makes every token service refuse every call from then on with an
// error that echoes the request, as a service in debug mode or a proxy that
// quotes what it refused does: its form (URL-encoded, so its secrets
// percent-encoded), each value again as PHP writes JSON (\/) and as hex, its
// Authorization header, and then EchoPadding bytes more, so that a client
// quoting the whole answer would quote a large one. Echo(false) ends it.
func (g *GoogleAuth) Echo(on bool) {
	g.mu.Lock()
	g.echo = on
	g.mu.Unlock()
}

// EchoPadding is the size of the filler an echoed error ends with.
const EchoPadding = 256 << 10

func (g *GoogleAuth) echoing(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		g.mu.Lock()
		echo := g.echo
		g.mu.Unlock()
		if !echo {
			next.ServeHTTP(w, r)
			return
		}
		raw, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		form, _ := url.ParseQuery(string(raw))
		g.record(AuthCall{Path: r.URL.Path, Authorization: r.Header.Get("Authorization"), Form: form})
		var values []string
		for _, vs := range form {
			for _, v := range vs {
				values = append(values, strings.ReplaceAll(v, "/", `\/`), hex.EncodeToString([]byte(v)))
			}
		}
		writeJSON(w, http.StatusBadRequest, map[string]any{
			"error": "invalid_request",
			"error_description": "refused " + string(raw) + " with Authorization " + r.Header.Get("Authorization") +
				" (values: " + strings.Join(values, " ") + ")",
			"padding": strings.Repeat("x", EchoPadding),
		})
	})
}

// Calls returns the calls answered so far.
func (g *GoogleAuth) Calls() []AuthCall {
	g.mu.Lock()
	defer g.mu.Unlock()
	return append([]AuthCall(nil), g.calls...)
}

// CallsTo returns the calls whose path ends with suffix.
func (g *GoogleAuth) CallsTo(suffix string) []AuthCall {
	var out []AuthCall
	for _, c := range g.Calls() {
		if strings.HasSuffix(c.Path, suffix) {
			out = append(out, c)
		}
	}
	return out
}

func (g *GoogleAuth) record(c AuthCall) {
	g.mu.Lock()
	g.calls = append(g.calls, c)
	g.mu.Unlock()
}

// ServiceAccountEmail is the client_email of ServiceAccountKey's file.
const ServiceAccountEmail = "ci-deployer@my-project.iam.gserviceaccount.com"

// ServiceAccountKey is a service account key file whose token_uri is the
// stand-in's, with quotaProject as its quota_project_id when not empty.
func (g *GoogleAuth) ServiceAccountKey(t testing.TB, quotaProject string) string {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(g.key)
	if err != nil {
		t.Fatal(err)
	}
	return mustJSON(t, map[string]any{
		"type": "service_account", "project_id": "my-project", "private_key_id": "key-1",
		"private_key":  string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})),
		"client_email": ServiceAccountEmail, "client_id": "1234567890", "token_uri": g.URL + "/token",
		"quota_project_id": quotaProject,
	})
}

// PrivateKeyLine is a line of ServiceAccountKey's private key, which no
// output or log may show.
func (g *GoogleAuth) PrivateKeyLine(t testing.TB) string {
	t.Helper()
	der, err := x509.MarshalPKCS8PrivateKey(g.key)
	if err != nil {
		t.Fatal(err)
	}
	return strings.Split(string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: der})), "\n")[3]
}

// AuthorizedUser is the file `gcloud auth application-default login`
// writes, with the stand-in's token_uri and quotaProject.
func (g *GoogleAuth) AuthorizedUser(t testing.TB, quotaProject string) string {
	t.Helper()
	return mustJSON(t, map[string]any{
		"type": "authorized_user", "client_id": "user-client.apps.googleusercontent.com",
		"client_secret": UserClientSecret, "refresh_token": UserRefreshToken,
		"token_uri": g.URL + "/token", "quota_project_id": quotaProject,
	})
}

// WorkloadAudience is the workload identity provider ExternalAccount names.
const WorkloadAudience = "//iam.googleapis.com/projects/123456/locations/global/workloadIdentityPools/ci/providers/github"

// ExternalAccount is the file `gcloud iam workload-identity-pools
// create-cred-config` writes for a CI: the subject token read from a file
// in dir (written here), exchanged at the stand-in's STS; with
// impersonateURL, the federated token is exchanged again for a service
// account's (service_account_impersonation_url).
func (g *GoogleAuth) ExternalAccount(t testing.TB, dir, impersonateAccount string) string {
	t.Helper()
	tokenFile := filepath.Join(dir, "ci-oidc-token")
	if err := os.WriteFile(tokenFile, []byte(SubjectToken), 0o600); err != nil {
		t.Fatal(err)
	}
	return g.externalAccount(t, tokenFile, impersonateAccount)
}

// ExternalAccountReadingAPipe is an ExternalAccount file whose
// credential_source.file is a named pipe that no one writes to (made in dir,
// and returned): what would block a reader that opens it.
func (g *GoogleAuth) ExternalAccountReadingAPipe(t testing.TB, dir string) (content, pipe string) {
	t.Helper()
	pipe = filepath.Join(dir, "pipe")
	if err := syscall.Mkfifo(pipe, 0o600); err != nil {
		t.Fatal(err)
	}
	return g.externalAccount(t, pipe, ""), pipe
}

func (g *GoogleAuth) externalAccount(t testing.TB, tokenFile, impersonateAccount string) string {
	t.Helper()
	doc := map[string]any{
		"type": "external_account", "audience": WorkloadAudience,
		"subject_token_type": "urn:ietf:params:oauth:token-type:jwt",
		"token_url":          g.URL + "/v1/token",
		"credential_source":  map[string]any{"file": tokenFile},
	}
	if impersonateAccount != "" {
		doc["service_account_impersonation_url"] = g.URL + "/v1/projects/-/serviceAccounts/" + impersonateAccount + ":generateAccessToken"
	}
	return mustJSON(t, doc)
}

func mustJSON(t testing.TB, v any) string {
	t.Helper()
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// token is the OAuth 2.0 token endpoint: a service account's JWT grant
// (RFC 7523), signed with the key of ServiceAccountKey, or an
// authorized_user's refresh token.
func (g *GoogleAuth) token(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, "invalid_request", err.Error())
		return
	}
	g.record(AuthCall{Path: r.URL.Path, Authorization: r.Header.Get("Authorization"), Form: r.PostForm})
	switch r.PostForm.Get("grant_type") {
	case "urn:ietf:params:oauth:grant-type:jwt-bearer":
		if err := g.checkAssertion(r.PostForm.Get("assertion"), g.URL+"/token"); err != "" {
			oauthError(w, "invalid_grant", err)
			return
		}
		writeToken(w, ServiceAccountToken)
	case "refresh_token":
		f := r.PostForm
		if f.Get("refresh_token") != UserRefreshToken || f.Get("client_secret") != UserClientSecret {
			oauthError(w, "invalid_grant", "unknown refresh token or client")
			return
		}
		writeToken(w, UserToken)
	default:
		oauthError(w, "unsupported_grant_type", r.PostForm.Get("grant_type"))
	}
}

// checkAssertion verifies a JWT grant's signature and claims, as Google's
// token endpoint does; it returns what is wrong, or "".
func (g *GoogleAuth) checkAssertion(assertion, audience string) string {
	tok, err := jwt.ParseSigned(assertion, []jose.SignatureAlgorithm{jose.RS256})
	if err != nil {
		return "the assertion is not a signed JWT: " + err.Error()
	}
	var claims jwt.Claims
	var extra struct {
		Scope string `json:"scope"`
	}
	if err := tok.Claims(&g.key.PublicKey, &claims, &extra); err != nil {
		return "the assertion's signature does not verify: " + err.Error()
	}
	err = claims.Validate(jwt.Expected{Issuer: ServiceAccountEmail, AnyAudience: jwt.Audience{audience}, Time: time.Now()})
	switch {
	case err != nil:
		return "the assertion's claims: " + err.Error()
	case extra.Scope != CloudPlatformScope:
		return "the assertion asks for scope " + extra.Scope
	}
	return ""
}

// sts is the Security Token Service's token exchange (RFC 8693), as
// workload identity federation calls it.
func (g *GoogleAuth) sts(w http.ResponseWriter, r *http.Request) {
	if err := r.ParseForm(); err != nil {
		oauthError(w, "invalid_request", err.Error())
		return
	}
	f := r.PostForm
	g.record(AuthCall{Path: r.URL.Path, Authorization: r.Header.Get("Authorization"), Form: f})
	if f.Get("grant_type") != "urn:ietf:params:oauth:grant-type:token-exchange" || f.Get("subject_token") != SubjectToken ||
		f.Get("audience") != WorkloadAudience {
		oauthError(w, "invalid_grant", "the token exchange is not the one the external_account file describes")
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"access_token": FederatedToken, "issued_token_type": "urn:ietf:params:oauth:token-type:access_token",
		"token_type": "Bearer", "expires_in": 3600,
	})
}

// generateAccessToken is the IAM Credentials API's method: it accepts a
// caller holding any token the stand-in minted (or StaticSourceToken).
func (g *GoogleAuth) generateAccessToken(w http.ResponseWriter, r *http.Request) {
	var body map[string]any
	if err := json.NewDecoder(r.Body).Decode(&body); err != nil {
		writeJSON(w, http.StatusBadRequest, map[string]any{"error": map[string]any{"code": 400, "message": err.Error()}})
		return
	}
	auth := r.Header.Get("Authorization")
	g.record(AuthCall{Path: r.URL.Path, Authorization: auth, Body: body})
	switch strings.TrimPrefix(auth, "Bearer ") {
	case ServiceAccountToken, UserToken, FederatedToken, StaticSourceToken:
	default:
		writeJSON(w, http.StatusUnauthorized, map[string]any{"error": map[string]any{"code": 401, "message": "no valid token",
			"status": "UNAUTHENTICATED"}})
		return
	}
	if !strings.HasSuffix(r.PathValue("account"), ":generateAccessToken") {
		writeJSON(w, http.StatusNotFound, map[string]any{"error": map[string]any{"code": 404, "message": "no such method"}})
		return
	}
	writeJSON(w, http.StatusOK, map[string]any{
		"accessToken": ImpersonatedToken, "expireTime": time.Now().Add(time.Hour).UTC().Format(time.RFC3339),
	})
}

// StaticSourceToken is an access token a test configures and then
// impersonates with.
const StaticSourceToken = "ya29.static-token-of-the-ci"

func writeToken(w http.ResponseWriter, token string) {
	writeJSON(w, http.StatusOK, map[string]any{"access_token": token, "token_type": "Bearer", "expires_in": 3600})
}

func oauthError(w http.ResponseWriter, code, description string) {
	writeJSON(w, http.StatusBadRequest, map[string]any{"error": code, "error_description": description})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v) // the client sees a cut answer if this fails
}

// RecordedRegistry is the bundled registry server whose listener records
// the headers of every request it receives (registry and App Hub alike):
// what the provider sends to Google is observed on it.
type RecordedRegistry struct {
	URL string

	mu   sync.Mutex
	seen []SeenRequest
}

// SeenRequest is a request RecordedRegistry received.
type SeenRequest struct {
	Method, Path string
	Header       http.Header
}

// StartRecordedRegistry starts it with opts for the test's duration.
func StartRecordedRegistry(t testing.TB, opts registryserver.Options) *RecordedRegistry {
	t.Helper()
	srv, err := registryserver.New(opts)
	if err != nil {
		t.Fatal(err)
	}
	r := &RecordedRegistry{}
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		r.mu.Lock()
		r.seen = append(r.seen, SeenRequest{Method: req.Method, Path: req.URL.Path, Header: req.Header.Clone()})
		r.mu.Unlock()
		srv.ServeHTTP(w, req)
	}))
	t.Cleanup(func() {
		ts.Close()
		if err := srv.Close(); err != nil {
			t.Errorf("close registry server: %v", err)
		}
	})
	r.URL = ts.URL
	return r
}

// Seen returns the requests received so far.
func (r *RecordedRegistry) Seen() []SeenRequest {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]SeenRequest(nil), r.seen...)
}

// Reset forgets the requests received so far.
func (r *RecordedRegistry) Reset() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.seen = nil
}
