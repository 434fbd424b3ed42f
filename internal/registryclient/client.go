// Package registryclient is the provider's API client for the Agent Registry
// REST API v1 and the App Hub v1 subset it uses. It wraps the official
// generated clients (google.golang.org/api/agentregistry/v1 and
// google.golang.org/api/apphub/v1) and adds what a Terraform provider needs:
// authentication, bounded retries with Retry-After, idempotent writes
// (requestId), long-running operation polling, paging, and errors that read
// well in a diagnostic.
package registryclient

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"time"

	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/apphub/v1"
	"google.golang.org/api/option"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/redact"
)

const (
	// DefaultEndpoint is Google's Agent Registry API.
	DefaultEndpoint = "https://agentregistry.googleapis.com/"
	// DefaultAppHubEndpoint is Google's App Hub API.
	DefaultAppHubEndpoint = "https://apphub.googleapis.com/"
	// CloudPlatformScope is the OAuth scope requested for Application Default Credentials.
	CloudPlatformScope = "https://www.googleapis.com/auth/cloud-platform"
	// UserAgentProduct is the product token of the User-Agent header.
	UserAgentProduct = "terraform-provider-agentregistry"

	defaultRetryMax        = 6
	defaultRetryWaitMin    = 200 * time.Millisecond
	defaultRetryWaitMax    = 10 * time.Second
	defaultPollInterval    = 500 * time.Millisecond
	defaultPollMaxInterval = 5 * time.Second
	defaultRequestTimeout  = time.Minute
)

// Config configures a Client. Zero values select the documented defaults.
type Config struct {
	// Endpoint and AppHubEndpoint are base URLs, e.g. https://agentregistry.googleapis.com.
	// Empty selects Google's endpoints. A trailing "/" is added when missing.
	Endpoint, AppHubEndpoint string
	// AccessToken, when set, is sent as a static OAuth2 bearer token.
	AccessToken string
	// UseADC selects Google Application Default Credentials when AccessToken is empty.
	// With neither, nor Google's credentials, requests carry no credentials (a plain local endpoint).
	UseADC bool
	// Google holds the Google provider's other credentials options (auth.go).
	Google GoogleAuth
	// UserAgent is the User-Agent product, e.g. "terraform-provider-agentregistry/1.2.3".
	// A bare version ("1.2.3") is expanded to that form; empty means ".../dev".
	UserAgent string
	// RetryMax is the number of retries after the first attempt (default 6);
	// RetryWaitMin/RetryWaitMax bound the exponential backoff (defaults 200ms, 10s).
	// A negative RetryMax disables retries.
	RetryMax                   int
	RetryWaitMin, RetryWaitMax time.Duration
	// RequestTimeout is the most one HTTP attempt may take, from sending the
	// request to the last byte of the response (default 1 minute). An attempt
	// that takes longer is abandoned and retried like a dropped connection, so
	// a registry that accepts connections and never answers ends a call after
	// at most RetryMax+1 attempts instead of hanging it.
	RequestTimeout time.Duration
	// PollInterval is the scale of the first wait before an operations.get poll
	// of a kind of operation not yet seen finished (default 500ms; the first
	// poll comes after 1 to 2 times it, the next at 3 times the first, then
	// twice as late each time);
	// operations of a kind seen finished poll around the time it took
	// (polling.go). No wait between two polls is over PollMaxInterval (default 5s).
	PollInterval, PollMaxInterval time.Duration
	// PageLimits bound every paged read (zero fields: DefaultPageLimits).
	PageLimits PageLimits
	// Secrets receives every credential the client holds or is sent (the
	// access token, a credentials file's secrets, the assertions, refresh
	// tokens and tokens of every token request and answer), and blanks the
	// client's token errors and the error answers of the registry; the
	// provider passes the set that blanks its own messages. Nil: a set of the
	// client's own.
	Secrets *redact.Secrets
}

// Client talks to the Agent Registry and App Hub APIs. It is safe for
// concurrent use.
type Client struct {
	registry        *agentregistry.APIService
	apphub          *apphub.APIService
	pollInterval    time.Duration
	pollMaxInterval time.Duration
	userAgent       string
	pageLimits      PageLimits
	polls           pollBoard
}

// New builds a Client. ctx is used only to look up Application Default
// Credentials (its cancellation does not affect later token refreshes).
func New(ctx context.Context, cfg Config) (*Client, error) {
	endpoint, err := normalizeEndpoint(cfg.Endpoint, DefaultEndpoint)
	if err != nil {
		return nil, fmt.Errorf("invalid agent registry endpoint: %w", err)
	}
	apphubEndpoint, err := normalizeEndpoint(cfg.AppHubEndpoint, DefaultAppHubEndpoint)
	if err != nil {
		return nil, fmt.Errorf("invalid App Hub endpoint: %w", err)
	}
	cfg = withDefaults(cfg)

	httpClient, err := newHTTPClient(ctx, cfg, []string{originOf(endpoint), originOf(apphubEndpoint)})
	if err != nil {
		return nil, err
	}
	opts := []option.ClientOption{option.WithHTTPClient(httpClient)}
	if !cfg.authenticated() {
		opts = append(opts, option.WithoutAuthentication())
	}

	reg, err := agentregistry.NewService(ctx, append(opts, option.WithEndpoint(endpoint))...)
	if err != nil {
		return nil, fmt.Errorf("creating agent registry client: %w", err)
	}
	hub, err := apphub.NewService(ctx, append(opts, option.WithEndpoint(apphubEndpoint))...)
	if err != nil {
		return nil, fmt.Errorf("creating App Hub client: %w", err)
	}
	return &Client{
		registry:        reg,
		apphub:          hub,
		pollInterval:    cfg.PollInterval,
		pollMaxInterval: cfg.PollMaxInterval,
		userAgent:       cfg.UserAgent,
		pageLimits:      cfg.PageLimits.withDefaults(),
	}, nil
}

// Registry returns the generated Agent Registry client, for tests and rare calls.
// (The generated package names its client type APIService; agentregistry.Service
// is the registered-service resource.)
func (c *Client) Registry() *agentregistry.APIService { return c.registry }

// AppHub returns the generated App Hub client, for tests and rare calls.
func (c *Client) AppHub() *apphub.APIService { return c.apphub }

// UserAgent returns the User-Agent product token the client sends.
func (c *Client) UserAgent() string { return c.userAgent }

func withDefaults(cfg Config) Config {
	switch {
	case cfg.RetryMax == 0:
		cfg.RetryMax = defaultRetryMax
	case cfg.RetryMax < 0:
		cfg.RetryMax = 0
	}
	if cfg.RetryWaitMin <= 0 {
		cfg.RetryWaitMin = defaultRetryWaitMin
	}
	if cfg.RetryWaitMax <= 0 {
		cfg.RetryWaitMax = defaultRetryWaitMax
	}
	if cfg.RetryWaitMax < cfg.RetryWaitMin {
		cfg.RetryWaitMax = cfg.RetryWaitMin
	}
	if cfg.RequestTimeout <= 0 {
		cfg.RequestTimeout = defaultRequestTimeout
	}
	if cfg.PollInterval <= 0 {
		cfg.PollInterval = defaultPollInterval
	}
	if cfg.PollMaxInterval <= 0 {
		cfg.PollMaxInterval = defaultPollMaxInterval
	}
	if cfg.PollMaxInterval < cfg.PollInterval {
		cfg.PollMaxInterval = cfg.PollInterval
	}
	cfg.UserAgent = userAgentFor(cfg.UserAgent)
	if cfg.Secrets == nil {
		cfg.Secrets = &redact.Secrets{}
	}
	return cfg
}

// userAgentFor expands the configured User-Agent: empty -> product/dev,
// a bare version -> product/version, anything else is used as given.
func userAgentFor(ua string) string {
	ua = strings.TrimSpace(ua)
	switch {
	case ua == "":
		return UserAgentProduct + "/dev"
	case !strings.ContainsAny(ua, "/ "):
		return UserAgentProduct + "/" + ua
	default:
		return ua
	}
}

// originOf is the origin of an endpoint normalizeEndpoint accepted.
func originOf(endpoint string) string {
	u, _ := url.Parse(endpoint) // normalizeEndpoint parsed it
	return origin(u)
}

// normalizeEndpoint checks that endpoint is an absolute http(s) URL and makes
// it end with "/", as option.WithEndpoint expects of a base path.
func normalizeEndpoint(endpoint, def string) (string, error) {
	endpoint = strings.TrimSpace(endpoint)
	if endpoint == "" {
		return def, nil
	}
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") {
		return "", fmt.Errorf("%q: the URL must start with http:// or https://, e.g. http://127.0.0.1:8080", endpoint)
	}
	if u.Host == "" {
		return "", fmt.Errorf("%q: the URL has no host", endpoint)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return "", fmt.Errorf("%q: a base URL takes no query or fragment", endpoint)
	}
	if !strings.HasSuffix(endpoint, "/") {
		endpoint += "/"
	}
	return endpoint, nil
}
