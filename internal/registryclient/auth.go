package registryclient

// How requests are authenticated, with the Google provider's options and
// meaning: a static access token, a credentials file (service account key,
// authorized_user, workload identity federation's external_account...), or
// Application Default Credentials; optionally turned into a service
// account's tokens by impersonation; and the quota project every request
// names in X-Goog-User-Project. Tokens are minted by golang.org/x/oauth2/google
// and google.golang.org/api/impersonate: nothing here exchanges a token by
// hand.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"net/http"
	"net/url"
	"os"
	"strings"

	"github.com/hashicorp/go-cleanhttp"
	"golang.org/x/oauth2"
	"golang.org/x/oauth2/google"
	"google.golang.org/api/impersonate"
	"google.golang.org/api/option"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/googlecreds"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/secretfile"
)

// DefaultIAMCredentialsEndpoint is Google's IAM Credentials API, which mints
// an impersonated service account's tokens (generateAccessToken).
const DefaultIAMCredentialsEndpoint = "https://" + iamCredentialsHost

// GoogleAuth is the Google provider's credentials beyond Config.AccessToken
// and Config.UseADC. Its zero value adds nothing.
type GoogleAuth struct {
	// CredentialsJSON is a Google credentials file's content (not its path);
	// its type is one of googlecreds.Types. It takes the place of Application
	// Default Credentials and is ignored when Config.AccessToken is set.
	CredentialsJSON []byte
	// ImpersonateServiceAccount, when set, is the service account whose
	// tokens are sent, minted by the IAM Credentials API with the credentials
	// above (the access token, the file or Application Default Credentials),
	// through each of ImpersonateDelegates in turn.
	ImpersonateServiceAccount string
	ImpersonateDelegates      []string
	// UserProject is sent as X-Goog-User-Project on every request (the
	// Google provider's billing_project with user_project_override).
	// UserProjectFromRequest sends, when UserProject is empty, the project
	// each request names in its path (user_project_override alone). With
	// neither, the credentials file's quota_project_id is sent, unless
	// impersonating (the file's quota project is its principal's, not the
	// service account's).
	UserProject            string
	UserProjectFromRequest bool
	// IAMCredentialsEndpoint is the base URL that stands in for
	// DefaultIAMCredentialsEndpoint (empty: Google's). The impersonate
	// package fixes Google's URL, so requests to its host are sent here.
	IAMCredentialsEndpoint string
}

// authenticated tells whether requests carry credentials.
func (cfg Config) authenticated() bool {
	return cfg.AccessToken != "" || cfg.UseADC || len(cfg.Google.CredentialsJSON) > 0 || cfg.Google.ImpersonateServiceAccount != ""
}

// authorize wraps base with what authenticates a request: the bearer token,
// for the origins of the registry and App Hub only, and X-Goog-User-Project.
// Every credential it holds or mints is registered in cfg.Secrets.
func authorize(ctx context.Context, cfg Config, origins []string, base http.RoundTripper) (http.RoundTripper, error) {
	rt := base
	ts, quotaProject, err := tokenSource(ctx, cfg)
	if err != nil {
		return nil, cfg.Secrets.Error(err)
	}
	if ts != nil {
		rt = &bearerTransport{token: &sharedToken{src: ts}, origins: origins, base: rt}
	}
	g := cfg.Google
	if g.UserProject != "" || g.UserProjectFromRequest {
		quotaProject = g.UserProject
	}
	if quotaProject != "" || g.UserProjectFromRequest {
		rt = &userProjectTransport{project: quotaProject, fromRequest: g.UserProjectFromRequest, base: rt}
	}
	return rt, nil
}

// tokenSource is the source of the tokens requests carry (nil: none) and
// the quota project of the credentials file they come from.
func tokenSource(ctx context.Context, cfg Config) (oauth2.TokenSource, string, error) {
	if !cfg.authenticated() {
		return nil, "", nil
	}
	hc, err := tokenHTTPClient(cfg)
	if err != nil {
		return nil, "", err
	}
	// The token sources outlive the Configure call: keep ctx's values, drop
	// its cancellation; every token request is bounded in time and never
	// follows a redirect (tokenHTTPClient).
	ctx = context.WithValue(context.WithoutCancel(ctx), oauth2.HTTPClient, hc)
	ts, quotaProject, err := baseTokenSource(ctx, cfg)
	if err != nil || cfg.Google.ImpersonateServiceAccount == "" {
		return refusalsOf(ts, hc, cfg.Secrets), quotaProject, err
	}
	its, err := impersonate.CredentialsTokenSource(ctx, impersonate.CredentialsConfig{
		TargetPrincipal: cfg.Google.ImpersonateServiceAccount,
		Delegates:       cfg.Google.ImpersonateDelegates,
		Scopes:          []string{CloudPlatformScope},
	}, option.WithHTTPClient(&http.Client{
		Transport:     &oauth2.Transport{Source: ts, Base: hc.Transport},
		CheckRedirect: refuseRedirect,
		Timeout:       hc.Timeout,
	}))
	if err != nil {
		return nil, "", fmt.Errorf("impersonating %s: %w", cfg.Google.ImpersonateServiceAccount, err)
	}
	return refusalsOf(its, hc, cfg.Secrets), "", nil
}

// baseTokenSource is the token source of the access token, the credentials
// file or Application Default Credentials, in that order, with the quota
// project the file names.
func baseTokenSource(ctx context.Context, cfg Config) (oauth2.TokenSource, string, error) {
	switch {
	case cfg.AccessToken != "":
		cfg.Secrets.Add(LabelCredential, cfg.AccessToken)
		return oauth2.StaticTokenSource(&oauth2.Token{AccessToken: cfg.AccessToken, TokenType: "Bearer"}), "", nil
	case len(cfg.Google.CredentialsJSON) > 0:
		creds, err := credentialsFromFile(ctx, cfg)
		if err != nil {
			return nil, "", err
		}
		return creds.TokenSource, quotaProjectOf(creds.JSON), nil
	default:
		creds, err := applicationDefaultCredentials(ctx, cfg)
		if err != nil {
			return nil, "", err
		}
		return creds.TokenSource, quotaProjectOf(creds.JSON), nil
	}
}

// credentialsFromFile reads the credentials file's content, its secrets
// registered and the files it names checked (googlecreds.CheckSources).
func credentialsFromFile(ctx context.Context, cfg Config) (*google.Credentials, error) {
	content := cfg.Google.CredentialsJSON
	googlecreds.AddSecrets(cfg.Secrets, content)
	t, err := googlecreds.TypeOf(content)
	if err != nil {
		return nil, fmt.Errorf("the credentials: %w", err)
	}
	if err := googlecreds.CheckSources(content); err != nil {
		return nil, fmt.Errorf("the credentials (a %s file): %w", t, err)
	}
	creds, err := google.CredentialsFromJSONWithTypeAndParams(ctx, content, t,
		google.CredentialsParams{Scopes: []string{CloudPlatformScope}})
	if err != nil {
		return nil, fmt.Errorf("the credentials (a %s file): %w", t, err)
	}
	return creds, nil
}

// applicationDefaultCredentials finds Application Default Credentials. The
// file GOOGLE_APPLICATION_CREDENTIALS names, which x/oauth2 reads itself, is
// checked first (secretfile.Check: a named pipe would block the read),
// and so are the files it names in turn.
func applicationDefaultCredentials(ctx context.Context, cfg Config) (*google.Credentials, error) {
	why := ""
	if cfg.Google.ImpersonateServiceAccount != "" {
		why = fmt.Sprintf("impersonate_service_account (%s) needs Google credentials of a principal allowed to "+
			"impersonate it, to ask the IAM Credentials API for its tokens, and none was given; ", cfg.Google.ImpersonateServiceAccount)
	}
	const hint = "; set access_token (or AGENTREGISTRY_ACCESS_TOKEN) or credentials, or run `gcloud auth application-default login`"
	if path := os.Getenv("GOOGLE_APPLICATION_CREDENTIALS"); path != "" {
		if err := secretfile.Check(path); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				err = fmt.Errorf("%s: %w", path, err) // a path a variable names, not a secret
			}
			return nil, fmt.Errorf("%sfinding Google Application Default Credentials: the file GOOGLE_APPLICATION_CREDENTIALS "+
				"names: %w"+hint, why, err)
		}
	}
	creds, err := google.FindDefaultCredentials(ctx, CloudPlatformScope)
	if err != nil {
		return nil, fmt.Errorf("%sfinding Google Application Default Credentials: %w"+hint, why, err)
	}
	googlecreds.AddSecrets(cfg.Secrets, creds.JSON)
	if err := googlecreds.CheckSources(creds.JSON); err != nil {
		return nil, fmt.Errorf("the Google Application Default Credentials: %w", err)
	}
	return creds, nil
}

// quotaProjectOf is a credentials file's quota_project_id ("" for none, or
// for credentials from the metadata server, which have no file).
func quotaProjectOf(content []byte) string {
	var f struct {
		QuotaProject string `json:"quota_project_id"`
	}
	if len(content) == 0 || json.Unmarshal(content, &f) != nil {
		return ""
	}
	return f.QuotaProject
}

// tokenHTTPClient is the client of every token request: each bounded by the
// request timeout, none following a redirect (a 307 would resend a refresh
// token or a signed assertion to wherever it points), and requests for
// Google's IAM Credentials API sent to Config.Google.IAMCredentialsEndpoint
// when set.
func tokenHTTPClient(cfg Config) (*http.Client, error) {
	var rt http.RoundTripper = cleanhttp.DefaultPooledTransport()
	if e := cfg.Google.IAMCredentialsEndpoint; e != "" {
		to, err := url.Parse(e)
		if err != nil || (to.Scheme != "http" && to.Scheme != "https") || to.Host == "" {
			return nil, fmt.Errorf("the IAM Credentials endpoint %q is not an http(s) URL", e)
		}
		rt = &iamEndpointTransport{to: to, base: rt}
	}
	rt = &tokenWire{base: rt, secrets: cfg.Secrets}
	// cfg has its defaults (withDefaults): RequestTimeout is set.
	return &http.Client{Transport: rt, CheckRedirect: refuseRedirect, Timeout: cfg.RequestTimeout}, nil
}

func refuseRedirect(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }

// iamCredentialsHost is the host of DefaultIAMCredentialsEndpoint.
const iamCredentialsHost = "iamcredentials.googleapis.com"

// iamEndpointTransport sends the requests for Google's IAM Credentials API
// to another base URL, and every other request as it is.
type iamEndpointTransport struct {
	to   *url.URL
	base http.RoundTripper
}

func (t *iamEndpointTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL.Host != iamCredentialsHost {
		return t.base.RoundTrip(req)
	}
	r := req.Clone(req.Context())
	r.URL.Scheme, r.URL.Host, r.Host = t.to.Scheme, t.to.Host, t.to.Host
	r.URL.Path = strings.TrimSuffix(t.to.Path, "/") + req.URL.Path
	r.URL.RawPath = ""
	return t.base.RoundTrip(r)
}

// userProjectTransport sets X-Goog-User-Project: project, or the project
// the request's path names when fromRequest and project is empty.
type userProjectTransport struct {
	project     string
	fromRequest bool
	base        http.RoundTripper
}

func (t *userProjectTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	project := t.project
	if project == "" && t.fromRequest {
		project = projectOf(req.URL.Path)
	}
	if project == "" {
		return t.base.RoundTrip(req)
	}
	r := req.Clone(req.Context())
	r.Header.Set("X-Goog-User-Project", project)
	return t.base.RoundTrip(r)
}

// projectOf is the project a request's path names (/v1/projects/{p}/...),
// or "" for none or a wildcard.
func projectOf(path string) string {
	segments := strings.Split(path, "/")
	for i := 0; i+1 < len(segments); i++ {
		if segments[i] == "projects" && segments[i+1] != "" && segments[i+1] != "-" {
			return segments[i+1]
		}
	}
	return ""
}

// TokenRefusedError is a token request that Google's token services (token
// endpoint, STS, IAM Credentials) refused for good: a 4xx other than 408
// and 429, such as wrong credentials or no permission to impersonate.
// Asking again cannot change the answer, so the request that needed the
// token is not retried.
type TokenRefusedError struct {
	Status int   // the token service's HTTP status
	Err    error // the token library's error, with the service's message
}

func (e *TokenRefusedError) Error() string {
	return fmt.Sprintf("Google's token service refused the credentials (HTTP %d); check that they are current and, "+
		"when impersonating, that their principal holds roles/iam.serviceAccountTokenCreator on the service account: %v",
		e.Status, e.Err)
}

func (e *TokenRefusedError) Unwrap() error { return e.Err }

// refusalsOf wraps ts so that a token error after a final refusal on hc's
// wire is a *TokenRefusedError, and every token error is blanked of the
// credentials in secrets. Concurrent token requests share the status: at
// worst an error is called refused when another request was refused at the
// same moment, which is then true of the credentials too.
func refusalsOf(ts oauth2.TokenSource, hc *http.Client, secrets *redact.Secrets) oauth2.TokenSource {
	wire, ok := hc.Transport.(*tokenWire) // as tokenHTTPClient builds it
	if ts == nil || !ok {
		return ts
	}
	return &refusalTokenSource{ts: ts, wire: wire, secrets: secrets}
}

type refusalTokenSource struct {
	ts      oauth2.TokenSource
	wire    *tokenWire
	secrets *redact.Secrets
}

func (s *refusalTokenSource) Token() (*oauth2.Token, error) {
	tok, err := s.ts.Token()
	if err == nil {
		return tok, nil
	}
	err = s.secrets.Error(err)
	if code := int(s.wire.status.Load()); code >= 400 && code < 500 && code != http.StatusRequestTimeout && code != http.StatusTooManyRequests {
		return nil, &TokenRefusedError{Status: code, Err: err}
	}
	if dns := s.wire.unresolved.Load(); dns != nil {
		return nil, &withCause{err: err, cause: dns}
	}
	return nil, err
}

// withCause is err, which a token library wrote as a string, with the cause
// it lost put back in its chain (for errors.As), its message unchanged.
type withCause struct {
	err, cause error
}

func (e *withCause) Error() string   { return e.err.Error() }
func (e *withCause) Unwrap() []error { return []error{e.err, e.cause} }
