package registryclient_test

// Waiting for a Google token, and where a token may go.

import (
	"context"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// Ten reads at once against a token endpoint that never answers all end
// by their documented deadline ((retries + 1) request timeouts and the waits
// between them, plus the second of grace the deadline's context has): a
// read that needs a token waits for it within its own deadline, never in a
// queue behind the others' fetches.
func TestGoogleAuth_tokenWaitWithinTheDeadline(t *testing.T) {
	stop := make(chan struct{})
	tokens := httptestServer(t, func(_ http.ResponseWriter, r *http.Request) {
		select { // never answers, until the test ends
		case <-r.Context().Done():
		case <-stop:
		}
	})
	defer close(stop)
	file := `{"type":"authorized_user","client_id":"c","client_secret":"` + testkit.UserClientSecret +
		`","refresh_token":"` + testkit.UserRefreshToken + `","token_uri":"` + tokens + `/token"}`
	reg := testkit.StartRecordedRegistry(t, registryserver.Options{Token: testkit.UserToken})
	const timeout, retries, wait = 300 * time.Millisecond, 2, 20 * time.Millisecond
	c, err := registryclient.New(context.Background(), registryclient.Config{Endpoint: reg.URL,
		RequestTimeout: timeout, RetryMax: retries, RetryWaitMin: wait, RetryWaitMax: wait,
		Google: registryclient.GoogleAuth{CredentialsJSON: []byte(file)}})
	if err != nil {
		t.Fatal(err)
	}
	deadline := (retries+1)*timeout + retries*wait + time.Second
	began := time.Now()
	var wg sync.WaitGroup
	took := make([]time.Duration, 10)
	for i := range took {
		wg.Go(func() {
			_, err := c.ListAgents(ctxFor(t), "projects/p1/locations/global", "", 0)
			took[i] = time.Since(began)
			if err == nil {
				t.Error("a read succeeded without a token")
			}
		})
	}
	wg.Wait()
	for i, d := range took {
		if d > deadline+time.Second { // a second of slack for a busy machine; a queue takes 10 times as long
			t.Errorf("read %d ended after %s, past its deadline of %s", i, d.Round(time.Millisecond), deadline)
		}
	}
}

// A request of the client to an origin that is neither the registry's nor
// App Hub's carries no token, whichever way it gets there (here the
// generated client is pointed elsewhere, as a redirect would): it is
// refused before it is sent.
func TestBearerTokenOnlyForTheConfiguredOrigins(t *testing.T) {
	var sawToken bool
	var mu sync.Mutex
	elsewhere := httptestServer(t, func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		sawToken = sawToken || r.Header.Get("Authorization") != ""
		mu.Unlock()
		w.WriteHeader(http.StatusNotFound)
	})
	reg := testkit.StartRecordedRegistry(t, registryserver.Options{Token: testkit.StaticSourceToken})
	c, err := registryclient.New(context.Background(), registryclient.Config{Endpoint: reg.URL, RetryMax: -1,
		AccessToken: testkit.StaticSourceToken})
	if err != nil {
		t.Fatal(err)
	}
	c.Registry().BasePath = elsewhere + "/"
	_, err = c.ListAgents(ctxFor(t), "projects/p1/locations/global", "", 0)
	if err == nil || !strings.Contains(err.Error(), "refusing to send the provider's credentials to "+elsewhere) {
		t.Errorf("error %v, want the request refused", err)
	}
	mu.Lock()
	defer mu.Unlock()
	if sawToken {
		t.Error("the other origin received the token")
	}
}

// A name that does not resolve is not retried: impersonation against an
// IAM Credentials endpoint whose host does not exist fails after one
// attempt (a DNS answer that the name does not exist will not change within
// a plan; a timeout of the resolver is retried as before).
func TestGoogleAuth_unresolvableNameNotRetried(t *testing.T) {
	reg := testkit.StartRecordedRegistry(t, registryserver.Options{Token: testkit.ImpersonatedToken})
	c, err := registryclient.New(context.Background(), registryclient.Config{Endpoint: reg.URL, AccessToken: testkit.StaticSourceToken,
		RetryMax: 6, RetryWaitMin: time.Millisecond, RetryWaitMax: time.Millisecond,
		Google: registryclient.GoogleAuth{ImpersonateServiceAccount: deployer, IAMCredentialsEndpoint: "http://iamcredentials.invalid"}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListAgents(ctxFor(t), "projects/p1/locations/global", "", 0)
	if err == nil || !strings.Contains(err.Error(), "no such host") {
		t.Skipf("this machine's resolver did not answer that iamcredentials.invalid does not exist: %v", err)
	}
	if !strings.Contains(err.Error(), "giving up after 1 attempt(s)") {
		t.Errorf("error %v, want the request given up after 1 attempt", err)
	}
}

// Impersonation with no credentials to impersonate with says that
// impersonate_service_account is why Google credentials are needed.
func TestGoogleAuth_impersonationWithoutCredentialsSaysWhy(t *testing.T) {
	t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", filepath.Join(t.TempDir(), "missing.json"))
	_, err := registryclient.New(context.Background(), registryclient.Config{Endpoint: "http://127.0.0.1:1", UseADC: true,
		Google: registryclient.GoogleAuth{ImpersonateServiceAccount: deployer}})
	if err == nil || !strings.Contains(err.Error(), "impersonate_service_account ("+deployer+") needs Google credentials") ||
		!strings.Contains(err.Error(), "missing.json: no such file or directory") {
		t.Errorf("error %v, want it to say why Google credentials are needed and what was looked for", err)
	}
}

// Files that x/oauth2 would open itself, and block on when they are named
// pipes, are checked first: the file GOOGLE_APPLICATION_CREDENTIALS names,
// and an external_account's credential_source.file. Each is refused at
// once, naming the path.
func TestGoogleAuth_credentialFilesThatWouldHang(t *testing.T) {
	auth := testkit.StartGoogleAuth(t)
	dir := t.TempDir()
	external, fifo := auth.ExternalAccountReadingAPipe(t, dir)
	t.Run("GOOGLE_APPLICATION_CREDENTIALS", func(t *testing.T) {
		t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", fifo)
		_, err := registryclient.New(context.Background(), registryclient.Config{UseADC: true})
		if err == nil || !strings.Contains(err.Error(), fifo+" is a named pipe (FIFO), not a regular file") {
			t.Errorf("error %v, want the pipe refused", err)
		}
	})
	t.Run("credential_source.file", func(t *testing.T) {
		_, err := registryclient.New(context.Background(), registryclient.Config{Endpoint: "http://127.0.0.1:1",
			Google: registryclient.GoogleAuth{CredentialsJSON: []byte(external)}})
		if err == nil || !strings.Contains(err.Error(), "credential_source.file (the token the workload identity pool exchanges): "+fifo+" is a named pipe") {
			t.Errorf("error %v, want the pipe refused", err)
		}
	})
	t.Run("ADC naming credential_source.file", func(t *testing.T) {
		adc := filepath.Join(dir, "adc.json")
		if err := os.WriteFile(adc, []byte(external), 0o600); err != nil {
			t.Fatal(err)
		}
		t.Setenv("GOOGLE_APPLICATION_CREDENTIALS", adc)
		_, err := registryclient.New(context.Background(), registryclient.Config{UseADC: true})
		if err == nil || !strings.Contains(err.Error(), fifo+" is a named pipe") {
			t.Errorf("error %v, want the pipe refused", err)
		}
	})
}
