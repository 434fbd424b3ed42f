package registryclient_test

// What the client's errors show of the credentials it holds and sends: a
// token service that echoes the request it refused, or answers a megabyte,
// and a registry that echoes the token it was sent.

import (
	"context"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// shows returns the part of text that gives secret away, in any of the
// ways the echoing stand-in writes it, or "".
func shows(text, secret string) string {
	for _, form := range []string{secret, url.QueryEscape(secret), strings.ReplaceAll(secret, "/", `\/`),
		hex.EncodeToString([]byte(secret)), base64.StdEncoding.EncodeToString([]byte(secret))} {
		if len(form) > 24 {
			form = form[len(form)/2-12 : len(form)/2+12] // a part from the middle: a cut form must not survive either
		}
		if strings.Contains(text, form) {
			return form
		}
	}
	return ""
}

// A token service that echoes the request it refuses, in several encodings,
// with 256 KiB after it: the error names the refusal, shows none of the
// credentials the request carried (the refresh token and client secret of an
// authorized_user file, the JWT assertion a service account key signs, the
// subject token of workload identity federation, the source token of an
// impersonation), and quotes a bounded excerpt of the answer.
func TestGoogleAuth_echoedCredentialsBlanked(t *testing.T) {
	auth := testkit.StartGoogleAuth(t)
	for _, c := range []struct {
		name    string
		cfg     func(t *testing.T) registryclient.Config
		secrets func() []string
	}{
		{"authorized_user", func(t *testing.T) registryclient.Config {
			return registryclient.Config{Google: registryclient.GoogleAuth{CredentialsJSON: []byte(auth.AuthorizedUser(t, ""))}}
		}, func() []string { return []string{testkit.UserRefreshToken, testkit.UserClientSecret} }},
		{"service account key", func(t *testing.T) registryclient.Config {
			return registryclient.Config{Google: registryclient.GoogleAuth{CredentialsJSON: []byte(auth.ServiceAccountKey(t, ""))}}
		}, func() []string { return []string{auth.CallsTo("/token")[0].Form.Get("assertion")} }},
		{"workload identity federation", func(t *testing.T) registryclient.Config {
			return registryclient.Config{Google: registryclient.GoogleAuth{CredentialsJSON: []byte(auth.ExternalAccount(t, t.TempDir(), ""))}}
		}, func() []string { return []string{testkit.SubjectToken} }},
		{"impersonation from an access token", func(*testing.T) registryclient.Config {
			return registryclient.Config{AccessToken: testkit.StaticSourceToken,
				Google: registryclient.GoogleAuth{ImpersonateServiceAccount: deployer, IAMCredentialsEndpoint: auth.URL}}
		}, func() []string { return []string{testkit.StaticSourceToken} }},
	} {
		t.Run(c.name, func(t *testing.T) {
			if c.name == "service account key" {
				// Sign one assertion as the plan would, to know what the echo holds.
				reg := testkit.StartRecordedRegistry(t, registryserver.Options{Token: testkit.ServiceAccountToken})
				callBoth(t, reg, c.cfg(t))
			}
			auth.Echo(true)
			defer auth.Echo(false)
			reg := testkit.StartRecordedRegistry(t, registryserver.Options{Token: "never-minted"})
			cfg := c.cfg(t)
			cfg.Endpoint, cfg.RetryMax = reg.URL, -1
			client, err := registryclient.New(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			_, err = client.ListAgents(ctxFor(t), "projects/p1/locations/global", "", 0)
			if err == nil || !strings.Contains(err.Error(), "refused") || !strings.Contains(err.Error(), "400") {
				t.Fatalf("error %v, want the token service's refusal", err)
			}
			for _, s := range c.secrets() {
				if part := shows(err.Error(), s); part != "" {
					t.Errorf("the error shows %q of a credential:\n%v", part, err)
				}
			}
			if n := len(err.Error()); n > 2048 {
				t.Errorf("the error is %d bytes long: the answer is quoted whole (%.300s...)", n, err)
			}
		})
	}
}

// A token service's error answer that is no OAuth or Google error is quoted
// by its first 64 bytes, safe for a terminal.
func TestGoogleAuth_tokenErrorAnswerCut(t *testing.T) {
	tokens := httptestServer(t, func(w http.ResponseWriter, _ *http.Request) {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte("\x1b[31mproxy refused" + strings.Repeat(" and refused", 100_000)))
	})
	file := `{"type":"authorized_user","client_id":"c","client_secret":"` + testkit.UserClientSecret +
		`","refresh_token":"` + testkit.UserRefreshToken + `","token_uri":"` + tokens + `/token"}`
	reg := testkit.StartRecordedRegistry(t, registryserver.Options{Token: testkit.UserToken})
	c, err := registryclient.New(context.Background(), registryclient.Config{Endpoint: reg.URL, RetryMax: -1,
		Google: registryclient.GoogleAuth{CredentialsJSON: []byte(file)}})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListAgents(ctxFor(t), "projects/p1/locations/global", "", 0)
	if err == nil || !strings.Contains(err.Error(), "proxy refused and refused") || strings.Contains(err.Error(), "\x1b") {
		t.Fatalf("error %q, want the start of the answer without its escape sequence", err)
	}
	if n := strings.Count(err.Error(), "refused"); n > 8 {
		t.Errorf("the error quotes %d times 'refused': more than the answer's first 64 bytes", n)
	}
}

// A registry that echoes the access token it was sent, raw and base64, in
// an error: the error blanks it.
func TestRegistryErrorEchoingTheTokenBlanked(t *testing.T) {
	const token = "ya29.the-registry-token-0123456789"
	reg := httptestServer(t, func(w http.ResponseWriter, r *http.Request) {
		auth := r.Header.Get("Authorization")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusForbidden)
		_, _ = w.Write([]byte(`{"error":{"code":403,"status":"PERMISSION_DENIED","message":"` + auth + ` (` +
			base64.StdEncoding.EncodeToString([]byte(auth)) + `) may not list"}}`))
	})
	secrets := &redact.Secrets{}
	c, err := registryclient.New(context.Background(), registryclient.Config{Endpoint: reg, AccessToken: token, RetryMax: -1,
		Secrets: secrets})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListAgents(ctxFor(t), "projects/p1/locations/global", "", 0)
	if err == nil || !strings.Contains(err.Error(), "PERMISSION_DENIED") || !strings.Contains(err.Error(), "may not list") {
		t.Fatalf("error %v, want the registry's refusal", err)
	}
	if part := shows(err.Error(), token); part != "" || strings.Contains(err.Error(), "dGhl") {
		t.Errorf("the error shows the token: %v", err)
	}
	if got := secrets.Blank("sent " + token); got != "sent ("+registryclient.LabelCredential+")" {
		t.Errorf("the provider's set does not hold the token: %q", got)
	}
}

// httptestServer serves h on a loopback listener for the test's duration and
// returns its URL.
func httptestServer(t *testing.T, h http.HandlerFunc) string {
	t.Helper()
	srv := httptest.NewServer(h)
	t.Cleanup(srv.Close)
	return srv.URL
}

// An error answer of the registry is kept up to its first MiB (blanking it
// costs memory in proportion): a 2 MiB message is not quoted whole.
func TestRegistryErrorAnswerOverAMiBIsCut(t *testing.T) {
	reg := httptestServer(t, func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"error":{"code":400,"status":"INVALID_ARGUMENT","message":"` + strings.Repeat("x", 2<<20) + `"}}`))
	})
	c, err := registryclient.New(context.Background(), registryclient.Config{Endpoint: reg, AccessToken: "ya29.a-token", RetryMax: -1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.ListAgents(ctxFor(t), "projects/p1/locations/global", "", 0)
	if err == nil || !strings.Contains(err.Error(), "400") || len(err.Error()) > 1<<10 {
		t.Fatalf("error of %d bytes (%.200s), want the status and a bounded excerpt", len(fmt.Sprint(err)), err)
	}
}
