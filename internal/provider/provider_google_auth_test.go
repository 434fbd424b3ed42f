package provider

// The Google provider's credentials options, through the CLIs: the tokens
// the stand-in for Google's token services mints (testkit.GoogleAuth) reach
// the bundled registry on registry and App Hub requests, with the
// X-Goog-User-Project the configuration asks for; what is wrong is an error
// at validate or plan that never shows a secret, not in the output nor in a
// TRACE log.

import (
	"context"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// googleAuthReads reads the registry (agents) and App Hub (a workload).
const googleAuthReads = `
data "agentregistry_agents" "all" {}
data "agentregistry_agent_properties" "currency" {
  workload = "` + googleAuthWorkload + `"
}
`

const googleAuthWorkload = "projects/test-project/locations/us-central1/applications/payments/workloads/currency"

// startGoogleRegistry starts a recorded registry that accepts token, with
// the workload googleAuthReads reads (seeded, then forgotten by the record).
func startGoogleRegistry(t *testing.T, token string) *testkit.RecordedRegistry {
	t.Helper()
	reg := testkit.StartRecordedRegistry(t, registryserver.Options{Token: token, AppHubWritable: true})
	c, err := registryclient.New(context.Background(), registryclient.Config{Endpoint: reg.URL, AppHubEndpoint: reg.URL, AccessToken: token})
	if err != nil {
		t.Fatal(err)
	}
	props := json.RawMessage(`{"displayName":"Currency Agent"}`)
	if _, err := c.SetWorkloadMetadata(t.Context(), googleAuthWorkload, registryclient.AgentPropertiesKey, props, true); err != nil {
		t.Fatal(err)
	}
	reg.Reset()
	return reg
}

// clearGoogleEnvironment unsets every variable the provider's credentials
// come from, so that the test's configuration is all there is.
func clearGoogleEnvironment(t *testing.T) {
	t.Helper()
	withoutCredentials(t)
	for _, v := range append([]string{"AGENTREGISTRY_CREDENTIALS", "AGENTREGISTRY_IMPERSONATE_SERVICE_ACCOUNT",
		"AGENTREGISTRY_BILLING_PROJECT", "AGENTREGISTRY_USER_PROJECT_OVERRIDE", "GOOGLE_IMPERSONATE_SERVICE_ACCOUNT",
		"GOOGLE_BILLING_PROJECT", "USER_PROJECT_OVERRIDE"}, append(googleAccessTokenVars, googleCredentialsVars...)...) {
		t.Setenv(v, "")
		_ = os.Unsetenv(v)
	}
}

// sentWith checks that the registry saw both reads, each with the token and
// user project.
func sentWith(reg *testkit.RecordedRegistry, token, userProject string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		var registry, appHub int
		for _, r := range reg.Seen() {
			if got := r.Header.Get("Authorization"); got != "Bearer "+token {
				return fmt.Errorf("%s %s carried Authorization %q, want the token %s", r.Method, r.Path, got, token)
			}
			if got := r.Header.Get("X-Goog-User-Project"); got != userProject {
				return fmt.Errorf("%s %s carried X-Goog-User-Project %q, want %q", r.Method, r.Path, got, userProject)
			}
			if strings.Contains(r.Path, "/workloads/") {
				appHub++
			} else {
				registry++
			}
		}
		if registry == 0 || appHub == 0 {
			return fmt.Errorf("the registry saw %d registry and %d App Hub requests, want both", registry, appHub)
		}
		return nil
	}
}

// googleAuthConfig is a provider block for endpoint with attrs (HCL lines),
// and the reads of googleAuthReads.
func googleAuthConfig(endpoint string, attrs ...string) string {
	return fmt.Sprintf("provider \"agentregistry\" {\n  endpoint = %q\n  project  = \"test-project\"\n  %s\n}\n",
		endpoint, strings.Join(attrs, "\n  ")) + googleAuthReads
}

func writeSecretFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// A service account key by its path, with billing_project and
// user_project_override; then the same from the environment
// (AGENTREGISTRY_CREDENTIALS, GOOGLE_BILLING_PROJECT, USER_PROJECT_OVERRIDE).
func TestAccProviderGoogleAuth_serviceAccountKey(t *testing.T) {
	clearGoogleEnvironment(t)
	auth := testkit.StartGoogleAuth(t)
	reg := startGoogleRegistry(t, testkit.ServiceAccountToken)
	key := writeSecretFile(t, "key.json", auth.ServiceAccountKey(t, "key-quota"))
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: googleAuthConfig(reg.URL, fmt.Sprintf("credentials = %q", key), `billing_project = "billing-project"`,
					"user_project_override = true"),
				Check: sentWith(reg, testkit.ServiceAccountToken, "billing-project"),
			},
			{
				// Without the override, the key's own quota project.
				Config:    googleAuthConfig(reg.URL, fmt.Sprintf("credentials = %q", key), `billing_project = "ignored-without-the-override"`),
				PreConfig: reg.Reset,
				Check:     sentWith(reg, testkit.ServiceAccountToken, "key-quota"),
			},
			{
				PreConfig: func() {
					reg.Reset()
					t.Setenv("AGENTREGISTRY_CREDENTIALS", key)
					t.Setenv("GOOGLE_BILLING_PROJECT", "billing-from-env")
					t.Setenv("USER_PROJECT_OVERRIDE", "true")
				},
				Config: googleAuthConfig(reg.URL),
				Check:  sentWith(reg, testkit.ServiceAccountToken, "billing-from-env"),
			},
		},
	})
}

// A CI's identity: workload identity federation (an external_account file,
// its subject token read from a file) impersonating a deploy service
// account through a delegate; the registry sees only the deploy account's
// token, and the IAM Credentials stand-in was asked with the federated one.
func TestAccProviderGoogleAuth_workloadIdentityImpersonation(t *testing.T) {
	clearGoogleEnvironment(t)
	auth := testkit.StartGoogleAuth(t)
	reg := startGoogleRegistry(t, testkit.ImpersonatedToken)
	wif := writeSecretFile(t, "wif.json", auth.ExternalAccount(t, t.TempDir(), ""))
	iamCredentialsEndpoint = auth.URL
	t.Cleanup(func() { iamCredentialsEndpoint = "" })
	const deployer = "deployer@test-project.iam.gserviceaccount.com"
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: googleAuthConfig(reg.URL, fmt.Sprintf("credentials = %q", wif), fmt.Sprintf("impersonate_service_account = %q", deployer),
				`impersonate_service_account_delegates = ["hop@test-project.iam.gserviceaccount.com"]`),
			Check: resource.ComposeTestCheckFunc(sentWith(reg, testkit.ImpersonatedToken, ""), func(*terraform.State) error {
				calls := auth.CallsTo(":generateAccessToken")
				if len(calls) == 0 {
					return fmt.Errorf("no generateAccessToken call")
				}
				c := calls[0]
				if !strings.Contains(c.Path, "/serviceAccounts/"+deployer+":") || c.Authorization != "Bearer "+testkit.FederatedToken ||
					fmt.Sprint(c.Body["delegates"]) != "[projects/-/serviceAccounts/hop@test-project.iam.gserviceaccount.com]" {
					return fmt.Errorf("generateAccessToken call %+v, want %s impersonated with the federated token through hop", c, deployer)
				}
				return nil
			}),
		}},
	})
}

// What is wrong is an error of the provider's own wording, at validate for
// the configuration's values.
func TestAccProviderGoogleAuth_invalid(t *testing.T) {
	clearGoogleEnvironment(t)
	cfg := func(attrs string) string { return googleAuthConfig("http://127.0.0.1:1", attrs) }
	notJSON := writeSecretFile(t, "key.json", "private_key = not-json-secret")
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      cfg(`access_token = "t"` + "\n" + `credentials = "{\"type\":\"service_account\"}"`),
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Combination.*"credentials".*"access_token"`),
			},
			{
				Config:      cfg(fmt.Sprintf("credentials = %q", notJSON)),
				ExpectError: relWords("Invalid Credentials", "the file it names: it is not JSON (syntax error at byte"),
			},
			{
				Config:      cfg(`credentials = "{\"type\": \"installed\"}"`),
				ExpectError: relWords("Invalid Credentials", `it has type "installed"; expected a Google credentials file of type service_account`),
			},
			{
				Config:      cfg(fmt.Sprintf("credentials = %q", filepath.Join(t.TempDir(), "missing.json"))),
				ExpectError: relWords("Invalid Credentials", "neither JSON content", "nor the path of a file that can be read (no such file or directory)"),
			},
			{
				Config:      cfg(`impersonate_service_account = "deployer"`),
				ExpectError: relWords("must be a service account's email"),
			},
			{
				Config:      cfg(`impersonate_service_account_delegates = ["hop@p.iam.gserviceaccount.com"]`),
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Combination.*impersonate_service_account`),
			},
			{
				PreConfig:   func() { t.Setenv("USER_PROJECT_OVERRIDE", "yes please") },
				Config:      cfg(""),
				ExpectError: relWords("Invalid User Project Override", `(from USER_PROJECT_OVERRIDE) is "yes please"; expected true or false`),
			},
		},
	})
}

// A plan's output and a TRACE log of the CLI and of the provider show none
// of the secrets: not the key, the refresh token, the client secret, the
// subject token, nor a token minted from them. The capture is checked to
// hold the provider's own log lines, so that an empty log cannot pass.
func TestAccProviderGoogleAuth_secretsNeverLogged(t *testing.T) {
	clearGoogleEnvironment(t)
	auth := testkit.StartGoogleAuth(t)
	reg := startGoogleRegistry(t, testkit.ImpersonatedToken)
	iamCredentialsEndpoint = auth.URL
	t.Cleanup(func() { iamCredentialsEndpoint = "" })
	t.Setenv("TF_LOG", "TRACE")
	h := newCLIHarness(t)
	cliLog := filepath.Join(h.dir, "cli.log")
	h.env = append(h.env, "TF_LOG_PATH="+cliLog)
	key := auth.ServiceAccountKey(t, "")
	h.write(t, "main.tf", exampleProviders+fmt.Sprintf(`
variable "key" {
  type      = string
  sensitive = true
}
provider "agentregistry" {
  endpoint                    = %q
  project                     = "test-project"
  credentials                 = var.key
  impersonate_service_account = "deployer@test-project.iam.gserviceaccount.com"
}
`, reg.URL)+googleAuthReads)
	h.write(t, "terraform.tfvars", fmt.Sprintf("key = %q\n", key))
	h.mustRun(t, "init", "-input=false")
	out := withStderrTo(t, filepath.Join(h.dir, "provider.log"), func() string {
		return h.mustRun(t, "plan", "-input=false")
	})
	if len(auth.CallsTo(":generateAccessToken")) == 0 || len(reg.Seen()) == 0 {
		t.Fatal("the plan did not impersonate and read the registry: nothing was exercised")
	}
	providerLog := h.readFile(t, "provider.log")
	if !strings.Contains(providerLog, "agent registry request") {
		t.Fatalf("the provider's TRACE log was not captured (no request line):\n%.2000s", providerLog)
	}
	cliLogText := h.readFile(t, "cli.log")
	if !strings.Contains(cliLogText, "[TRACE]") || !strings.Contains(cliLogText, "agentregistry") {
		t.Fatalf("the CLI's TRACE log was not captured:\n%.2000s", cliLogText)
	}
	secrets := []string{auth.PrivateKeyLine(t), testkit.ServiceAccountToken, testkit.ImpersonatedToken}
	for name, text := range map[string]string{"output": out, "CLI log": cliLogText, "provider log": providerLog} {
		for _, s := range secrets {
			if strings.Contains(text, s) {
				t.Errorf("the %s shows the secret %.24s...", name, s)
			}
		}
	}
}

// withStderrTo runs f with the process's stderr, where the provider served
// in process logs, sent to a file.
func withStderrTo(t *testing.T, name string, f func() string) string {
	t.Helper()
	file, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close() //nolint:errcheck // written through, read back by name
	saved := os.Stderr
	os.Stderr = file
	defer func() { os.Stderr = saved }()
	return f()
}

// The precedence of the configuration and the environment, as in the
// Google provider, and the Google provider's variables read only for
// Google's endpoint (a Google credential in a CI's environment never goes
// to another registry).
func TestResolveGoogleAuth_precedence(t *testing.T) {
	auth := testkit.StartGoogleAuth(t)
	keyA := writeSecretFile(t, "a.json", auth.ServiceAccountKey(t, "a"))
	keyB := writeSecretFile(t, "b.json", auth.ServiceAccountKey(t, "b"))
	const local, google = "http://127.0.0.1:8787", "https://agentregistry.googleapis.com"
	for _, c := range []struct {
		name, endpoint   string
		cfg              providerModel
		env              map[string]string
		token, quota, sa string
	}{
		{name: "the configuration's token beats every variable", endpoint: google, cfg: providerModel{AccessToken: types.StringValue("cfg")},
			env: map[string]string{"AGENTREGISTRY_CREDENTIALS": keyA, "GOOGLE_OAUTH_ACCESS_TOKEN": "env"}, token: "cfg"},
		{name: "the configuration's credentials beat every variable", endpoint: google, cfg: providerModel{Credentials: types.StringValue(keyB)},
			env: map[string]string{"AGENTREGISTRY_ACCESS_TOKEN": "env"}, quota: "b"},
		{name: "AGENTREGISTRY_* beat GOOGLE_*", endpoint: google,
			env: map[string]string{"AGENTREGISTRY_CREDENTIALS": keyA, "GOOGLE_OAUTH_ACCESS_TOKEN": "google"}, quota: "a"},
		{name: "a token beats a file of its layer", endpoint: google,
			env: map[string]string{"GOOGLE_CREDENTIALS": keyA, "GOOGLE_OAUTH_ACCESS_TOKEN": "google"}, token: "google"},
		{name: "GOOGLE_CREDENTIALS for Google's endpoint", endpoint: google, env: map[string]string{"GOOGLE_CREDENTIALS": keyA}, quota: "a"},
		{name: "GOOGLE_CLOUD_KEYFILE_JSON for Google's endpoint", endpoint: google, env: map[string]string{"GOOGLE_CLOUD_KEYFILE_JSON": keyB}, quota: "b"},
		{name: "no GOOGLE_* credentials for another endpoint", endpoint: local,
			env: map[string]string{"GOOGLE_CREDENTIALS": keyA, "GOOGLE_OAUTH_ACCESS_TOKEN": "google", "GOOGLE_IMPERSONATE_SERVICE_ACCOUNT": "x@y"}},
		{name: "GOOGLE_IMPERSONATE_SERVICE_ACCOUNT for Google's endpoint", endpoint: google,
			env: map[string]string{"GOOGLE_IMPERSONATE_SERVICE_ACCOUNT": "x@y"}, sa: "x@y"},
		{name: "AGENTREGISTRY_IMPERSONATE_SERVICE_ACCOUNT anywhere", endpoint: local,
			env: map[string]string{"AGENTREGISTRY_IMPERSONATE_SERVICE_ACCOUNT": "x@y"}, sa: "x@y"},
	} {
		t.Run(c.name, func(t *testing.T) {
			clearGoogleEnvironment(t)
			for k, v := range c.env {
				t.Setenv(k, v)
			}
			c.cfg.Endpoint, c.cfg.Project = types.StringValue(c.endpoint), types.StringValue("p")
			c.cfg.ImpersonateServiceAccountDelegates = types.ListNull(types.StringType)
			s, diags := resolveSettings(context.Background(), c.cfg)
			if diags.HasError() {
				t.Fatal(diags)
			}
			if s.accessToken != c.token || quotaOf(s.google.credentials) != c.quota || s.google.impersonate != c.sa {
				t.Errorf("token %q, credentials of quota project %q, impersonate %q; want %q, %q, %q",
					s.accessToken, quotaOf(s.google.credentials), s.google.impersonate, c.token, c.quota, c.sa)
			}
		})
	}
}

// quotaOf names a key file written by the test by its quota project ("" for none).
func quotaOf(content []byte) string {
	if m := regexp.MustCompile(`"quota_project_id": "([^"]*)"`).FindSubmatch(content); m != nil {
		return string(m[1])
	}
	return ""
}

// The errors about a credentials value say what is wrong and show nothing
// of it, through the CLI: a file that is not JSON (at plan), and JSON
// content cut short (at validate).
func TestAccProviderGoogleAuth_errorsShowNoSecret(t *testing.T) {
	clearGoogleEnvironment(t)
	const secret = "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcw-never-printed"
	for _, c := range []struct{ name, credentials, want string }{
		{"a file that is not JSON", writeSecretFile(t, "key.pem", "-----BEGIN PRIVATE KEY-----\n"+secret+"\n"), "the file it names: it is not JSON"},
		{"JSON cut short", `{"type":"service_account","private_key":"` + secret, "it is not JSON"},
	} {
		t.Run(c.name, func(t *testing.T) {
			h := newCLIHarness(t)
			h.write(t, "main.tf", exampleProviders+`
variable "credentials" {
  type = string
}
`+googleAuthConfig("http://127.0.0.1:1", "credentials = var.credentials"))
			h.write(t, "terraform.tfvars", fmt.Sprintf("credentials = %q\n", c.credentials))
			h.mustRun(t, "init", "-input=false")
			out := h.mustExit(t, 1, "plan", "-input=false")
			if !strings.Contains(out, "Invalid Credentials") || !strings.Contains(strings.Join(strings.Fields(out), " "), c.want) {
				t.Fatalf("the plan does not say %q:\n%s", c.want, out)
			}
			if strings.Contains(out, secret) || strings.Contains(out, "BEGIN PRIVATE") {
				t.Errorf("the plan's output shows the secret:\n%s", out)
			}
		})
	}
}

// A token service that echoes the request it refuses (its form
// URL-encoded, each value as PHP writes JSON and as hex, its Authorization,
// then 256 KiB): the plan fails with the refusal, and neither its output nor
// the TRACE logs of the CLI and the provider show the refresh token, the
// client secret or the signed JWT assertion, in any of those forms; the
// answer is quoted bounded.
func TestAccProviderGoogleAuth_echoedCredentialsBlanked(t *testing.T) {
	clearGoogleEnvironment(t)
	auth := testkit.StartGoogleAuth(t)
	auth.Echo(true)
	reg := startGoogleRegistry(t, "never-minted")
	t.Setenv("TF_LOG", "TRACE")
	for name, key := range map[string]string{"authorized_user": auth.AuthorizedUser(t, ""), "service account key": auth.ServiceAccountKey(t, "")} {
		t.Run(name, func(t *testing.T) {
			h := newCLIHarness(t)
			h.env = append(h.env, "TF_LOG_PATH="+filepath.Join(h.dir, "cli.log"))
			h.write(t, "main.tf", exampleProviders+`
variable "key" {
  type      = string
  sensitive = true
}
`+googleAuthConfig(reg.URL, "credentials = var.key"))
			h.write(t, "terraform.tfvars", fmt.Sprintf("key = %q\n", key))
			h.mustRun(t, "init", "-input=false")
			before := len(auth.Calls())
			out := withStderrTo(t, filepath.Join(h.dir, "provider.log"), func() string {
				return h.mustExit(t, 1, "plan", "-input=false")
			})
			flat := strings.Join(strings.Fields(out), " ")
			if !strings.Contains(flat, "Google's token service refused the credentials (HTTP 400)") {
				t.Fatalf("the plan does not report the refusal:\n%s", out)
			}
			calls := auth.Calls()[before:]
			if len(calls) == 0 {
				t.Fatal("the token service was not called")
			}
			if !strings.Contains(h.readFile(t, "provider.log"), "Google's token service refused") {
				t.Fatal("the provider's TRACE log does not hold the diagnostic: nothing was checked there")
			}
			secrets := []string{testkit.UserRefreshToken, testkit.UserClientSecret}
			for _, c := range calls {
				if a := c.Form.Get("assertion"); a != "" {
					secrets = append(secrets, a)
				}
			}
			for name, text := range map[string]string{"output": out, "CLI log": h.readFile(t, "cli.log"),
				"provider log": h.readFile(t, "provider.log")} {
				for _, s := range secrets {
					if part := echoedForm(text, s); part != "" {
						t.Errorf("the %s shows %q of a credential", name, part)
					}
				}
			}
			if strings.Contains(out, strings.Repeat("x", 1024)) {
				t.Errorf("the plan quotes the answer's padding: the answer is not bounded")
			}
		})
	}
}

// echoedForm is the part of text that gives secret away in one of the
// forms the echoing stand-in writes it (raw, URL-encoded, PHP's \/, hex),
// or "": a part from the middle of each form, so that a form cut short is
// found too.
func echoedForm(text, secret string) string {
	for _, form := range []string{secret, url.QueryEscape(secret), strings.ReplaceAll(secret, "/", `\/`), hex.EncodeToString([]byte(secret))} {
		if len(form) > 24 {
			form = form[len(form)/2-12 : len(form)/2+12]
		}
		if strings.Contains(text, form) {
			return form
		}
	}
	return ""
}

// A credentials file the plan would hang on is refused at once, naming its
// path: a named pipe given as credentials, and one given as an
// external_account's credential_source.file (which x/oauth2 opens itself).
func TestAccProviderGoogleAuth_filesThatWouldHang(t *testing.T) {
	clearGoogleEnvironment(t)
	auth := testkit.StartGoogleAuth(t)
	external, fifo := auth.ExternalAccountReadingAPipe(t, t.TempDir())
	for name, c := range map[string]struct{ credentials, want string }{
		"credentials":            {fifo, "Invalid Credentials.*the file it names: " + fifo + " is a named pipe \\(FIFO\\), not a regular file"},
		"credential_source.file": {writeSecretFile(t, "wif.json", external), "Cannot Create Agent Registry Client.*credential_source.file.*" + fifo + " is a named pipe"},
	} {
		t.Run(name, func(t *testing.T) {
			h := newCLIHarness(t)
			h.write(t, "main.tf", exampleProviders+googleAuthConfig("http://127.0.0.1:1", fmt.Sprintf("credentials = %q", c.credentials)))
			h.mustRun(t, "init", "-input=false")
			out := h.mustExit(t, 1, "plan", "-input=false")
			if !regexp.MustCompile(c.want).MatchString(strings.Join(strings.Fields(out), " ")) {
				t.Errorf("the plan does not say %q:\n%s", c.want, out)
			}
		})
	}
}

// Impersonation against a registry that is not Google's: without
// credentials, the error says that impersonate_service_account is why
// Google credentials are needed; with a token, an IAM Credentials API whose
// name does not resolve fails after one attempt, not seven.
func TestAccProviderGoogleAuth_impersonationElsewhere(t *testing.T) {
	clearGoogleEnvironment(t)
	reg := startGoogleRegistry(t, testkit.ImpersonatedToken)
	const account = `impersonate_service_account = "deployer@test-project.iam.gserviceaccount.com"`
	iamCredentialsEndpoint = "http://iamcredentials.invalid"
	t.Cleanup(func() { iamCredentialsEndpoint = "" })
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: googleAuthConfig(reg.URL, account),
				ExpectError: relWords("Cannot Create Agent Registry Client", "impersonate_service_account",
					"(deployer@test-project.iam.gserviceaccount.com) needs Google credentials"),
			},
			{
				Config:      googleAuthConfig(reg.URL, account, `access_token = "ya29.a-source-token"`),
				ExpectError: relWords("giving up after 1 attempt(s)", "no such host"),
			},
		},
	})
}
