package provider

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"regexp"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
)

// A registry that accepts connections and never answers ends a single read
// (here a data source by name, which is not paged and has no timeouts block)
// at request_timeout per attempt, with an error that names the setting,
// instead of hanging the plan.
func TestAccProvider_requestTimeoutEndsASilentRegistry(t *testing.T) {
	var requests atomic.Int64
	release := make(chan struct{})
	silent := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	t.Cleanup(silent.Close)
	t.Cleanup(func() { close(release) })
	began := time.Now()
	readAgentExpectingError(t, silent.URL, "200ms",
		`giving\s+up\s+after\s+7\s+attempt\(s\):\s+the\s+registry\s+did\s+not\s+answer\s+within\s+the\s+request\s+timeout\s+of\s+200ms\s+\(the\s+provider's\s+request_timeout\)`)
	// 7 attempts (1 + 6 retries) per read; the CLI may read more than once.
	if n := requests.Load(); n < 7 {
		t.Errorf("the silent registry saw %d requests, want at least the 7 attempts of one read", n)
	}
	t.Logf("%d requests, %s", requests.Load(), time.Since(began).Round(time.Millisecond))
}

// Every wait counts against a request's deadline (7 attempts of request_timeout
// and 6 waits of at most 10 s): a registry answering 503 with Retry-After: 300
// to a provider whose request_timeout is 1s ends the read at once with an
// error that names the deadline, instead of waiting five minutes six times.
func TestAccProvider_requestDeadlineBoundsRetryAfter(t *testing.T) {
	var requests atomic.Int64
	unavailable := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		requests.Add(1)
		w.Header().Set("Retry-After", "300")
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = w.Write([]byte(`{"error":{"code":503,"message":"come back later","status":"UNAVAILABLE"}}`))
	}))
	t.Cleanup(unavailable.Close)
	began := time.Now()
	readAgentExpectingError(t, unavailable.URL, "1s", `answered\s+503\s+Service\s+Unavailable\s+and\s+asked\s+to\s+be\s+retried\s+in\s+5m0s\s+\(Retry-After\),\s+past\s+this\s+request's\s+deadline\s+of\s+1m7s\s+\(7\s+attempt\(s\)\s+of\s+at\s+most\s+1s\s+\(the\s+provider's\s+request_timeout\)`)
	t.Logf("%d requests, %s", requests.Load(), time.Since(began).Round(time.Millisecond))
}

// readAgentExpectingError reads one agent by name (a single read, not paged,
// without a timeouts block) from the registry at url with the given
// request_timeout, and expects an error matching want.
func readAgentExpectingError(t *testing.T, url, requestTimeout, want string) {
	t.Helper()
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: fmt.Sprintf(`
provider "agentregistry" {
  endpoint        = %q
  project         = "p"
  request_timeout = %q
}
data "agentregistry_agent" "one" {
  name = "projects/p/locations/global/agents/planner"
}
`, url, requestTimeout),
			ExpectError: regexp.MustCompile(want),
		}},
	})
}

// A request_timeout that is no positive duration of at most 10 minutes is a
// configuration error, whether it comes from the provider block or from
// AGENTREGISTRY_REQUEST_TIMEOUT.
func TestAccProvider_requestTimeoutIsValidated(t *testing.T) {
	for _, c := range []struct{ setting, env, want string }{
		{setting: `request_timeout = "soon"`, want: `"soon" is not a positive duration of at most 10m0s`},
		{setting: `request_timeout = "11m"`, want: `"11m" is not a positive duration of at most 10m0s`},
		{env: "-1s", want: `(?s)Invalid Request Timeout.*AGENTREGISTRY_REQUEST_TIMEOUT.*"-1s" is not a positive`},
	} {
		t.Run(c.setting+c.env, func(t *testing.T) {
			t.Setenv("AGENTREGISTRY_REQUEST_TIMEOUT", c.env)
			want := c.want
			if c.env == "" {
				want = regexp.QuoteMeta(want)
			}
			resource.Test(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProviderFactories,
				Steps: []resource.TestStep{{
					Config: `
provider "agentregistry" {
  endpoint = "http://127.0.0.1:1"
  project  = "p"
  ` + c.setting + `
}
data "agentregistry_agents" "all" {
  query = "anything"
}
`,
					ExpectError: regexp.MustCompile(want),
				}},
			})
		})
	}
}
