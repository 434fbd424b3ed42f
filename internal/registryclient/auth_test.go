package registryclient_test

// Every way of authenticating to Google, observed on the wire: the
// stand-in for Google's token services (testkit.GoogleAuth) mints the
// tokens, and the bundled registry server accepts only the one the test
// expects, on registry and App Hub requests alike, with the
// X-Goog-User-Project the configuration asks for.

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

const deployer = "deployer@my-project.iam.gserviceaccount.com"

// callBoth makes one registry request and one App Hub request of the
// registry at url with cfg, and returns what the registry saw. A request
// the registry refused (a wrong token) fails the test.
func callBoth(t *testing.T, reg *testkit.RecordedRegistry, cfg registryclient.Config) []testkit.SeenRequest {
	t.Helper()
	cfg.Endpoint, cfg.AppHubEndpoint, cfg.RetryMax = reg.URL, reg.URL, -1
	c, err := registryclient.New(context.Background(), cfg)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	ctx := ctxFor(t)
	if _, err := c.ListAgents(ctx, "projects/p1/locations/global", "", 0); err != nil {
		t.Fatalf("registry request: %v", err)
	}
	_, err = c.GetWorkload(ctx, "projects/p1/locations/us-central1/applications/a/workloads/w")
	var ae *registryclient.APIError
	if !errors.As(err, &ae) || ae.Code != http.StatusNotFound {
		t.Fatalf("App Hub request: %v; want NOT_FOUND from an authorised request", err)
	}
	seen := reg.Seen()
	if len(seen) != 2 || !strings.Contains(seen[1].Path, "/workloads/") {
		t.Fatalf("the registry saw %d requests (%v), want a registry and an App Hub request", len(seen), seen)
	}
	return seen
}

func wantHeaders(t *testing.T, seen []testkit.SeenRequest, token, userProject string) {
	t.Helper()
	for _, r := range seen {
		if got := r.Header.Get("Authorization"); got != "Bearer "+token {
			t.Errorf("%s %s: Authorization %q, want Bearer %s", r.Method, r.Path, got, token)
		}
		if got := r.Header.Get("X-Goog-User-Project"); got != userProject {
			t.Errorf("%s %s: X-Goog-User-Project %q, want %q", r.Method, r.Path, got, userProject)
		}
	}
}

func TestGoogleAuth_credentialsFiles(t *testing.T) {
	auth := testkit.StartGoogleAuth(t)
	for _, c := range []struct {
		name, token, userProject string
		credentials              func(t *testing.T) string
		google                   registryclient.GoogleAuth
	}{
		{name: "service account key, its quota project", token: testkit.ServiceAccountToken, userProject: "key-quota",
			credentials: func(t *testing.T) string { return auth.ServiceAccountKey(t, "key-quota") }},
		{name: "service account key, billing_project overrides it", token: testkit.ServiceAccountToken, userProject: "billing",
			credentials: func(t *testing.T) string { return auth.ServiceAccountKey(t, "key-quota") },
			google:      registryclient.GoogleAuth{UserProject: "billing", UserProjectFromRequest: true}},
		{name: "user_project_override alone sends the request's project", token: testkit.ServiceAccountToken, userProject: "p1",
			credentials: func(t *testing.T) string { return auth.ServiceAccountKey(t, "") },
			google:      registryclient.GoogleAuth{UserProjectFromRequest: true}},
		{name: "authorized_user", token: testkit.UserToken, userProject: "user-quota",
			credentials: func(t *testing.T) string { return auth.AuthorizedUser(t, "user-quota") }},
		{name: "external_account with a file-sourced subject token", token: testkit.FederatedToken,
			credentials: func(t *testing.T) string { return auth.ExternalAccount(t, t.TempDir(), "") }},
	} {
		t.Run(c.name, func(t *testing.T) {
			reg := testkit.StartRecordedRegistry(t, registryserver.Options{Token: c.token})
			c.google.CredentialsJSON = []byte(c.credentials(t))
			wantHeaders(t, callBoth(t, reg, registryclient.Config{Google: c.google}), c.token, c.userProject)
		})
	}
	sts := auth.CallsTo("/v1/token")
	if len(sts) != 1 || sts[0].Form.Get("subject_token") != testkit.SubjectToken {
		t.Errorf("STS calls %+v, want one exchanging the file's subject token", sts)
	}
}

// Application Default Credentials: the file GOOGLE_APPLICATION_CREDENTIALS
// names, with its quota project (what `gcloud auth application-default
// login` and `set-quota-project` write).
func TestGoogleAuth_applicationDefaultCredentials(t *testing.T) {
	auth := testkit.StartGoogleAuth(t)
	adc := filepath.Join(t.TempDir(), "application_default_credentials.json")
	if err := os.WriteFile(adc, []byte(auth.AuthorizedUser(t, "adc-quota")), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", adc)
	reg := testkit.StartRecordedRegistry(t, registryserver.Options{Token: testkit.UserToken})
	wantHeaders(t, callBoth(t, reg, registryclient.Config{UseADC: true}), testkit.UserToken, "adc-quota")
}

// Impersonation: the source credentials (a key, an access token, a
// workload identity federation file, ADC) call generateAccessToken for the
// service account through its delegates, and the registry sees only the
// service account's token, without the source file's quota project.
func TestGoogleAuth_impersonation(t *testing.T) {
	auth := testkit.StartGoogleAuth(t)
	delegates := []string{"hop-1@my-project.iam.gserviceaccount.com", "hop-2@my-project.iam.gserviceaccount.com"}
	for _, c := range []struct {
		name, source string
		cfg          func(t *testing.T) registryclient.Config
	}{
		{"from a service account key", testkit.ServiceAccountToken, func(t *testing.T) registryclient.Config {
			return registryclient.Config{Google: registryclient.GoogleAuth{CredentialsJSON: []byte(auth.ServiceAccountKey(t, "key-quota"))}}
		}},
		{"from an access token", testkit.StaticSourceToken, func(*testing.T) registryclient.Config {
			return registryclient.Config{AccessToken: testkit.StaticSourceToken}
		}},
		{"from workload identity federation", testkit.FederatedToken, func(t *testing.T) registryclient.Config {
			return registryclient.Config{Google: registryclient.GoogleAuth{CredentialsJSON: []byte(auth.ExternalAccount(t, t.TempDir(), ""))}}
		}},
		{"from Application Default Credentials", testkit.UserToken, func(t *testing.T) registryclient.Config {
			adc := filepath.Join(t.TempDir(), "adc.json")
			if err := os.WriteFile(adc, []byte(auth.AuthorizedUser(t, "adc-quota")), 0o600); err != nil {
				t.Fatal(err)
			}
			t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", adc)
			return registryclient.Config{UseADC: true}
		}},
	} {
		t.Run(c.name, func(t *testing.T) {
			before := len(auth.CallsTo(":generateAccessToken"))
			reg := testkit.StartRecordedRegistry(t, registryserver.Options{Token: testkit.ImpersonatedToken})
			cfg := c.cfg(t)
			cfg.Google.ImpersonateServiceAccount, cfg.Google.ImpersonateDelegates = deployer, delegates
			cfg.Google.IAMCredentialsEndpoint = auth.URL
			wantHeaders(t, callBoth(t, reg, cfg), testkit.ImpersonatedToken, "")
			calls := auth.CallsTo(":generateAccessToken")[before:]
			if len(calls) != 1 {
				t.Fatalf("%d generateAccessToken calls, want 1 (the token is reused)", len(calls))
			}
			wantImpersonation(t, calls[0], c.source, deployer, delegates)
		})
	}
}

func wantImpersonation(t *testing.T, call testkit.AuthCall, source, account string, delegates []string) {
	t.Helper()
	if want := "/v1/projects/-/serviceAccounts/" + account + ":generateAccessToken"; call.Path != want {
		t.Errorf("impersonation path %q, want %q", call.Path, want)
	}
	if call.Authorization != "Bearer "+source {
		t.Errorf("impersonation made with %q, want the source token %s", call.Authorization, source)
	}
	var gotDelegates, gotScopes []string
	for _, d := range asList(call.Body["delegates"]) {
		gotDelegates = append(gotDelegates, strings.TrimPrefix(d, "projects/-/serviceAccounts/"))
	}
	gotScopes = asList(call.Body["scope"])
	if !slices.Equal(gotDelegates, delegates) || !slices.Equal(gotScopes, []string{testkit.CloudPlatformScope}) {
		t.Errorf("impersonation body %v, want delegates %v and the cloud-platform scope", call.Body, delegates)
	}
}

func asList(v any) []string {
	var out []string
	items, _ := v.([]any)
	for _, i := range items {
		s, _ := i.(string)
		out = append(out, s)
	}
	return out
}

// A token endpoint that redirects is not followed (a 307 would resend the
// refresh token to wherever it points), and one that never answers ends
// the request at the request timeout instead of hanging the plan.
func TestGoogleAuth_tokenRequestsBounded(t *testing.T) {
	elsewhere := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {
		t.Error("the token request followed a redirect to another host")
	}))
	defer elsewhere.Close()
	release := make(chan struct{})
	tokens := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/redirect" {
			http.Redirect(w, r, elsewhere.URL+"/token", http.StatusTemporaryRedirect)
			return
		}
		<-release
	}))
	defer tokens.Close()
	defer close(release)
	reg := testkit.StartRecordedRegistry(t, registryserver.Options{Token: testkit.UserToken})
	for _, path := range []string{"/redirect", "/hang"} {
		file := `{"type":"authorized_user","client_id":"c","client_secret":"` + testkit.UserClientSecret +
			`","refresh_token":"` + testkit.UserRefreshToken + `","token_uri":"` + tokens.URL + path + `"}`
		c, err := registryclient.New(context.Background(), registryclient.Config{Endpoint: reg.URL, RetryMax: -1,
			RequestTimeout: 200 * time.Millisecond, Google: registryclient.GoogleAuth{CredentialsJSON: []byte(file)}})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.ListAgents(ctxFor(t), "projects/p1/locations/global", "", 0)
		if err == nil {
			t.Fatalf("%s: the request succeeded without a token", path)
		}
		if strings.Contains(err.Error(), testkit.UserRefreshToken) || strings.Contains(err.Error(), testkit.UserClientSecret) {
			t.Errorf("%s: the error shows a secret: %v", path, err)
		}
	}
	if n := len(reg.Seen()); n != 0 {
		t.Errorf("the registry received %d requests without a token", n)
	}
}

// A token request that Google's token services refuse for good (a 4xx
// other than 408 and 429: wrong credentials, no permission to impersonate)
// ends the request at once with an error that says so; it is not retried
// as a connection error would be (on an earlier main: every attempt asked
// again, seven calls and about twelve seconds of backoff by default). Here
// the IAM Credentials stand-in refuses a source token it never minted.
func TestGoogleAuth_refusedTokenIsFinal(t *testing.T) {
	auth := testkit.StartGoogleAuth(t)
	reg := testkit.StartRecordedRegistry(t, registryserver.Options{Token: testkit.ImpersonatedToken})
	c, err := registryclient.New(context.Background(), registryclient.Config{
		Endpoint: reg.URL, AccessToken: "ya29.a-token-iam-does-not-know", RetryMax: 3, RetryWaitMin: 10 * time.Millisecond,
		Google: registryclient.GoogleAuth{ImpersonateServiceAccount: deployer, IAMCredentialsEndpoint: auth.URL},
	})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListAgents(ctxFor(t), "projects/p1/locations/global", "", 0)
	var refused *registryclient.TokenRefusedError
	if !errors.As(err, &refused) || refused.Status != http.StatusUnauthorized {
		t.Fatalf("error %v; want a TokenRefusedError with status 401", err)
	}
	for _, want := range []string{"refused", "401", "iam.serviceAccountTokenCreator"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if n := len(auth.CallsTo(":generateAccessToken")); n != 1 {
		t.Errorf("%d generateAccessToken calls, want 1: a refusal is not retried", n)
	}
	if n := len(reg.Seen()); n != 0 {
		t.Errorf("the registry received %d requests without a token", n)
	}
}

// Which answers of a token service are final: every 4xx but 408 and 429
// ends the request at once; 408, 429 and 5xx are retried as any request
// is, and the request goes on once the service answers. The stand-in in
// front of the IAM Credentials one answers status twice, then passes on.
func TestGoogleAuth_tokenServiceStatuses(t *testing.T) {
	auth := testkit.StartGoogleAuth(t)
	for status, final := range map[int]bool{
		http.StatusBadRequest: true, http.StatusForbidden: true, http.StatusNotFound: true, 499: true,
		http.StatusRequestTimeout: false, http.StatusTooManyRequests: false,
		http.StatusInternalServerError: false, http.StatusServiceUnavailable: false,
	} {
		var calls atomic.Int32
		iam := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if calls.Add(1) <= 2 {
				http.Error(w, `{"error":{"code":`+strconv.Itoa(status)+`}}`, status)
				return
			}
			httputil.NewSingleHostReverseProxy(mustParse(t, auth.URL)).ServeHTTP(w, r)
		}))
		reg := testkit.StartRecordedRegistry(t, registryserver.Options{Token: testkit.ImpersonatedToken})
		c, err := registryclient.New(context.Background(), registryclient.Config{
			Endpoint: reg.URL, AccessToken: testkit.StaticSourceToken, RetryMax: 3, RetryWaitMin: 10 * time.Millisecond,
			Google: registryclient.GoogleAuth{ImpersonateServiceAccount: deployer, IAMCredentialsEndpoint: iam.URL},
		})
		if err != nil {
			t.Fatal(err)
		}
		_, err = c.ListAgents(ctxFor(t), "projects/p1/locations/global", "", 0)
		iam.Close()
		var refused *registryclient.TokenRefusedError
		switch {
		case final && (!errors.As(err, &refused) || refused.Status != status || calls.Load() != 1):
			t.Errorf("%d: %v after %d calls; want a TokenRefusedError with status %d after 1", status, err, calls.Load(), status)
		case !final && (err != nil || calls.Load() != 3):
			t.Errorf("%d: %v after %d calls; want the request to succeed on the third", status, err, calls.Load())
		}
	}
}

func mustParse(t *testing.T, raw string) *url.URL {
	t.Helper()
	u, err := url.Parse(raw)
	if err != nil {
		t.Fatal(err)
	}
	return u
}
