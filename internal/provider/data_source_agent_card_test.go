package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// liveCardBody is a card as an agent serves it: indented, keys in no
// particular order, an escaped "&" and a number spelt 1.50.
const liveCardBody = `{
  "url": "https://weather.example/a2a",
  "name": "Weather Agent",
  "version": "2.1.0",
  "protocolVersion": "0.3.0",
  "description": "Forecasts \u0026 alerts",
  "capabilities": {"streaming": true},
  "defaultInputModes": ["text/plain"],
  "defaultOutputModes": ["text/plain"],
  "x-rating": 1.50,
  "skills": [
    {"id": "forecast", "name": "Forecast", "description": "Daily forecast", "tags": ["weather"]},
    {"id": "alerts", "name": "Alerts", "description": "Severe weather alerts", "tags": ["weather", "alerts"], "examples": ["Any storms?"]}
  ]
}`

// liveCardCanonical is liveCardBody in RFC 8785 form, written out by hand so
// that the test does not trust the code it tests.
const liveCardCanonical = `{"capabilities":{"streaming":true},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],` +
	`"description":"Forecasts & alerts","name":"Weather Agent","protocolVersion":"0.3.0","skills":[` +
	`{"description":"Daily forecast","id":"forecast","name":"Forecast","tags":["weather"]},` +
	`{"description":"Severe weather alerts","examples":["Any storms?"],"id":"alerts","name":"Alerts","tags":["weather","alerts"]}],` +
	`"url":"https://weather.example/a2a","version":"2.1.0","x-rating":1.5}`

// liveCardV02 is served at the A2A 0.2 location only.
var liveCardV02 = strings.Replace(liveCardBody, `"0.3.0"`, `"0.2.5"`, 1)

// invalidLiveCard has no skills.
const invalidLiveCard = `{"name":"x","description":"d","version":"1","url":"https://x.example","protocolVersion":"0.3.0"}`

func sha256Hex(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// dsBlock is a data block; body holds its arguments.
func dsBlock(typ, name, body string) string {
	return fmt.Sprintf("data %q %q {\n%s\n}\n", typ, name, body)
}

// dsCheck checks an attribute of a data source in the state.
func dsCheck(typ, name, attr string, check knownvalue.Check) statecheck.StateCheck {
	return statecheck.ExpectKnownValue("data."+typ+"."+name, tfjsonpath.New(attr), check)
}

func cardDS(name, body string) string { return dsBlock("agentregistry_agent_card", name, body) }

func dsValue(name, attr string, check knownvalue.Check) statecheck.StateCheck {
	return dsCheck("agentregistry_agent_card", name, attr, check)
}

func TestAccAgentCardDataSource_reads(t *testing.T) {
	const token = "Bearer card-s3cret"
	wellKnown := livedoctest.Serve(t, map[string]http.HandlerFunc{
		"/.well-known/agent-card.json": livedoctest.RequireHeader("Authorization", token, livedoctest.JSON(liveCardBody)).ServeHTTP,
	})
	v02 := livedoctest.Serve(t, map[string]http.HandlerFunc{"/.well-known/agent.json": livedoctest.JSON(liveCardV02)})
	chain := livedoctest.RedirectChain(t, livedoctest.Typed("text/plain", liveCardBody))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: cardDS("base", fmt.Sprintf("url = %q\nheaders = { Authorization = %q }", wellKnown.URL, token)) +
				cardDS("v02", fmt.Sprintf("url = %q\ntimeout = \"5s\"", v02.URL+"/")) +
				// Five redirects are followed; a JSON body under text/plain is accepted.
				cardDS("redirected", fmt.Sprintf("url = %q", chain.URL+"/r/5")),
			ConfigStateChecks: []statecheck.StateCheck{
				dsValue("base", "json", knownvalue.StringExact(liveCardCanonical)),
				dsValue("base", "sha256", knownvalue.StringExact(sha256Hex(liveCardCanonical))),
				dsValue("base", "a2a_version", knownvalue.StringExact("0.3")),
				dsValue("base", "skill_ids", resStrings("forecast", "alerts")),
				dsValue("base", "url_fetched", knownvalue.StringExact(wellKnown.URL+"/.well-known/agent-card.json")),
				dsValue("base", "etag", knownvalue.StringExact(`"v1"`)),
				dsValue("base", "verified_key_ids", knownvalue.ListSizeExact(0)),
				dsValue("v02", "url_fetched", knownvalue.StringExact(v02.URL+"/.well-known/agent.json")),
				dsValue("v02", "a2a_version", knownvalue.StringExact("0.3")),
				dsValue("redirected", "url_fetched", knownvalue.StringExact(chain.URL+"/r/0")),
				dsValue("redirected", "etag", knownvalue.StringExact("")),
				dsValue("redirected", "sha256", knownvalue.StringExact(sha256Hex(liveCardCanonical))),
			},
		}},
	})
}

func TestAccAgentCardDataSource_refusals(t *testing.T) {
	var written atomic.Int64
	srv := livedoctest.Serve(t, map[string]http.HandlerFunc{
		"/500.json":     func(w http.ResponseWriter, _ *http.Request) { http.Error(w, "boom", http.StatusInternalServerError) },
		"/huge.json":    livedoctest.Endless(256<<20, &written),
		"/slow.json":    livedoctest.Stall(10 * time.Second),
		"/login.json":   livedoctest.Typed("text/html", "<html>login</html>"),
		"/invalid.json": livedoctest.JSON(invalidLiveCard),
		"/secret.json":  livedoctest.RequireHeader("X-Api-Key", "k", livedoctest.JSON(liveCardBody)).ServeHTTP,
	})
	chain := livedoctest.RedirectChain(t, livedoctest.JSON(liveCardBody))
	tlsSrv := httptest.NewTLSServer(livedoctest.JSON(liveCardBody))
	t.Cleanup(tlsSrv.Close)
	step := func(body string, want ...string) resource.TestStep {
		return resource.TestStep{Config: cardDS("x", body), ExpectError: relWords(want...)}
	}
	url := func(u string) string { return fmt.Sprintf("url = %q", u) }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			step(url(srv.URL+"/500.json"), "Cannot Read Agent Card", "GET "+srv.URL+"/500.json answered 500 Internal Server Error"),
			step(url(srv.URL), "no agent card at "+srv.URL, "/.well-known/agent-card.json and the A2A 0.2 location",
				"/.well-known/agent.json both answered 404 Not Found"),
			step(url(srv.URL+"/huge.json"), "the agent card at "+srv.URL+"/huge.json is over the 1048576-byte (1 MiB) limit; stopped reading"),
			step(url(srv.URL+"/slow.json")+"\ntimeout = \"300ms\"", "timed out after 300ms waiting for "+srv.URL+"/slow.json"),
			step(url(srv.URL+"/login.json"), `answered with content type "text/html" and a body that is not JSON (it starts "<html>login</html>")`),
			step(url(chain.URL+"/r/6"), "refusing to follow more than 5 redirects (started at "+chain.URL+"/r/6"),
			step(url(tlsSrv.URL+"/card.json"), "TLS error talking to "+tlsSrv.URL+"/card.json", "certificate signed by unknown authority"),
			step(url(srv.URL+"/secret.json")+"\nheaders = { X-Api-Key = \"wrong\" }", "answered 401 Unauthorized"),
			step(url("ftp://example.com/card.json"), "Invalid URL", "with the http or https scheme"), // refused at validate, before any fetch
			step(url(srv.URL)+"\ntimeout = \"soon\"", "Invalid Timeout", `"soon" is not a positive duration of at most 2m0s, such as 10s, 500ms or 1m30s`),
			step(url(srv.URL)+"\ntimeout = \"2m0.001s\"", "Invalid Timeout", `"2m0.001s" is not a positive duration`), // the timeout is bounded
			step(url(srv.URL)+"\nsignature_policy = \"strict\"", "signature_policy", "value must be one of"),
			// The served card is refused with the resource's own message...
			step(url(srv.URL+"/invalid.json"), "Invalid A2A Agent Card", "The document served at "+srv.URL+"/invalid.json",
				"The A2A Agent Card has 1 problem", `missing required property "skills"`, "nothing was sent to the registry"),
			// ...which is this one.
			{
				Config: testkit.ProviderConfig("http://127.0.0.1:1") + fmt.Sprintf(`
resource "agentregistry_agent" "same" {
  service_id = "same-message"
  agent_card = %q
}`, invalidLiveCard),
				ExpectError: relWords("Invalid A2A Agent Card", "The A2A Agent Card has 1 problem", `missing required property "skills"`),
			},
		},
	})
	srv.Close() // waits for the handlers, which end once the client hung up
	if w := written.Load(); w >= 64<<20 {
		t.Errorf("the server wrote %d bytes: the provider read far past the 1 MiB limit", w)
	}
}

// TestAccAgentCardDataSource_trustedTLS trusts httptest's certificate through
// http.DefaultTransport, which the fetcher uses. It swaps a global, so it is
// not parallel: Go runs parallel tests only once the sequential ones are done.
func TestAccAgentCardDataSource_trustedTLS(t *testing.T) {
	plain := livedoctest.Serve(t, map[string]http.HandlerFunc{"/card.json": livedoctest.JSON(liveCardBody)})
	tlsSrv := httptest.NewTLSServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/downgrade" {
			http.Redirect(w, r, plain.URL+"/card.json", http.StatusFound)
			return
		}
		livedoctest.JSON(liveCardBody)(w, r)
	}))
	t.Cleanup(tlsSrv.Close)
	prior := http.DefaultTransport
	http.DefaultTransport = tlsSrv.Client().Transport
	t.Cleanup(func() { http.DefaultTransport = prior })
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: cardDS("x", fmt.Sprintf("url = %q", tlsSrv.URL)),
			ConfigStateChecks: []statecheck.StateCheck{
				dsValue("x", "url_fetched", knownvalue.StringExact(tlsSrv.URL+"/.well-known/agent-card.json")),
				dsValue("x", "json", knownvalue.StringExact(liveCardCanonical)),
			},
		}, {
			Config:      cardDS("x", fmt.Sprintf("url = %q", tlsSrv.URL+"/downgrade")),
			ExpectError: relWords("refusing a redirect from https to http: " + tlsSrv.URL + "/downgrade redirected to " + plain.URL + "/card.json"),
		}},
	})
}

// TestAccLiveDocuments_feedTheRegistry is the guide's module in small: the
// live, signed card feeds agentregistry_agent and the live tool list feeds
// agentregistry_mcp_server against the bundled server; the next plan is
// empty, and a change of what the agent serves shows as an update.
func TestAccLiveDocuments_feedTheRegistry(t *testing.T) {
	r := startRegistry(t)
	var served atomic.Value
	served.Store(signWith(t, liveCardBody, "ec-1"))
	agent := livedoctest.Serve(t, map[string]http.HandlerFunc{"/.well-known/agent-card.json": func(w http.ResponseWriter, req *http.Request) {
		livedoctest.JSON(as[string](t, served.Load()))(w, req)
	}})
	tools := livedoctest.ServeMCP(t, livedoctest.NewMCPServer(2, liveTools()...), false, nil)
	signed := signWith(t, liveCardCanonical, "ec-1")
	config := sigProvider(r.URL, sigJWKS(t, false), "require") + fmt.Sprintf(`
data "agentregistry_agent_card" "live" {
  url = %q
}
resource "agentregistry_agent" "live" {
  service_id = "weather-agent"
  agent_card = data.agentregistry_agent_card.live.json
}
data "agentregistry_mcp_tool_spec" "live" {
  url                 = %q
  exclude_tools       = ["admin_*"]
  drop_output_schemas = true
}
resource "agentregistry_mcp_server" "live" {
  service_id = "weather-tools"
  interfaces = [{ url = %q, protocol_binding = "JSONRPC" }]
  tool_spec  = data.agentregistry_mcp_tool_spec.live.json
}
check "card_pinned" {
  assert {
    condition     = data.agentregistry_agent_card.live.sha256 == %q
    error_message = "The agent serves another card than the one reviewed."
  }
}
`, agent.URL, tools.URL, tools.URL, sha256Hex(signed))
	const agentAddr, mcpAddr = "agentregistry_agent.live", "agentregistry_mcp_server.live"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(agentAddr, tfjsonpath.New("agent_card"), knownvalue.StringExact(signed)),
					plancheck.ExpectKnownValue(agentAddr, tfjsonpath.New("verified_key_ids"), resStrings("ec-1")),
					plancheck.ExpectKnownValue(agentAddr, tfjsonpath.New("skill_ids"), resStrings("forecast", "alerts")),
					plancheck.ExpectKnownValue(mcpAddr, tfjsonpath.New("tool_names"), resStrings("files_delete", "files_read", "files_write", "search")),
				}},
			},
			{ // nothing changed anywhere: an empty plan, no API write
				PreConfig:        r.srv.ResetRequests,
				Config:           config,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
				Check:            func(*terraform.State) error { r.expectNoWrites(t); return nil },
			},
			{ // the agent now serves another card: live drift, shown as an update
				PreConfig: func() {
					served.Store(signWith(t, strings.Replace(liveCardBody, `"version": "2.1.0"`, `"version": "2.2.0"`, 1), "ec-1"))
				},
				Config:             config,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
				ConfigPlanChecks: resource.ConfigPlanChecks{PostApplyPostRefresh: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(agentAddr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(agentAddr, tfjsonpath.New("version"), knownvalue.StringExact("2.2.0")),
					plancheck.ExpectResourceAction(mcpAddr, plancheck.ResourceActionNoop),
				}},
			},
		},
	})
}

// realCard reads a card that an SDK served, kept in internal/spec's test data
// with its source (see the README there).
func realCard(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "spec", "testdata", "card", "real", name))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// The canonical forms of the two cards @a2a-js/sdk 1.3.0 serves for the same
// agent, written out by hand: the hybrid card (its 0.3 url, protocolVersion
// and preferredTransport beside supportedInterfaces) and the 1.0 card.
const (
	jsHybridCanonical = `{"capabilities":{"pushNotifications":false,"streaming":true},"defaultInputModes":["text/plain"],` +
		`"defaultOutputModes":["text/plain"],"description":"A test agent","name":"Test Agent","preferredTransport":"JSONRPC",` +
		`"protocolVersion":"0.3","provider":{"organization":"Test Org","url":"https://example.com"},"skills":[],` +
		`"supportedInterfaces":[{"protocolBinding":"JSONRPC","protocolVersion":"1.0","tenant":"","url":"https://api.example/v1"},` +
		`{"protocolBinding":"JSONRPC","protocolVersion":"0.3","tenant":"","url":"https://api.example/legacy"}],` +
		`"url":"https://api.example/legacy","version":"1.0.0"}`
	js10Canonical = `{"capabilities":{"extensions":[],"pushNotifications":false,"streaming":true},"defaultInputModes":["text/plain"],` +
		`"defaultOutputModes":["text/plain"],"description":"A test agent","name":"Test Agent",` +
		`"provider":{"organization":"Test Org","url":"https://example.com"},"securityRequirements":[],"securitySchemes":{},` +
		`"signatures":[],"skills":[],"supportedInterfaces":[{"protocolBinding":"JSONRPC","protocolVersion":"1.0","tenant":"",` +
		`"url":"https://api.example/v1"},{"protocolBinding":"JSONRPC","protocolVersion":"0.3","tenant":"","url":"https://api.example/legacy"}],` +
		`"version":"1.0.0"}`
)

// jsCompatAgent serves its card as @a2a-js/sdk 1.3.0's agentCardHandler with
// legacyCompat does, with the bodies that SDK served: the hybrid card when
// A2A-Version is absent or names a version from 0.3 up to 1.0 (excluded),
// the 1.0 card otherwise. versions records the A2A-Version values of each
// request, joined with "|".
func jsCompatAgent(t *testing.T) (srv *httptest.Server, versions func() []string) {
	t.Helper()
	hybrid := realCard(t, "a2a-js-1.3.0_legacy-compat_no-version-header.json")
	v10 := realCard(t, "a2a-js-1.3.0_legacy-compat_version-1.0.json")
	var mu sync.Mutex
	var seen []string
	srv = livedoctest.Serve(t, map[string]http.HandlerFunc{"/.well-known/agent-card.json": func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		seen = append(seen, strings.Join(r.Header.Values("A2A-Version"), "|"))
		mu.Unlock()
		var major, minor int
		v := r.Header.Get("A2A-Version")
		_, err := fmt.Sscanf(v, "%d.%d", &major, &minor)
		if v == "" || (err == nil && major == 0 && minor >= 3) {
			livedoctest.JSON(hybrid)(w, r)
			return
		}
		livedoctest.JSON(v10)(w, r)
	}})
	return srv, func() []string {
		mu.Lock()
		defer mu.Unlock()
		return slices.Clone(seen)
	}
}

// allEqual reports whether values is not empty and each of them is want.
func allEqual(values []string, want string) bool {
	return len(values) > 0 && !slices.ContainsFunc(values, func(v string) bool { return v != want })
}

// An agent built on @a2a-js/sdk with legacyCompat: the data source asks for
// A2A 1.0 and gets the 1.0 card; with A2A-Version set by the user it sends
// that instead and gets the hybrid card, which is accepted as A2A 1.0 and
// registered as it is by agentregistry_agent against the bundled server.
func TestAccAgentCardDataSource_sdkWithA2A03Compatibility(t *testing.T) {
	r := startRegistry(t)
	modern, modernVersions := jsCompatAgent(t)
	legacy, legacyVersions := jsCompatAgent(t)
	config := r.config(cardDS("modern", fmt.Sprintf("url = %q", modern.URL)) +
		cardDS("legacy", fmt.Sprintf("url = %q\nheaders = { \"A2A-Version\" = \"0.3\" }", legacy.URL)) + `
resource "agentregistry_agent" "hybrid" {
  service_id = "compat-agent"
  agent_card = data.agentregistry_agent_card.legacy.json
}
`)
	const addr = "agentregistry_agent.hybrid"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue(addr, tfjsonpath.New("a2a_version"), knownvalue.StringExact("1.0")),
				plancheck.ExpectKnownValue(addr, tfjsonpath.New("urls"), resStrings("https://api.example/v1", "https://api.example/legacy")),
				plancheck.ExpectKnownValue(addr, tfjsonpath.New("agent_card"), knownvalue.StringExact(jsHybridCanonical)),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				dsValue("modern", "json", knownvalue.StringExact(js10Canonical)),
				dsValue("modern", "a2a_version", knownvalue.StringExact("1.0")),
				dsValue("legacy", "json", knownvalue.StringExact(jsHybridCanonical)),
				dsValue("legacy", "a2a_version", knownvalue.StringExact("1.0")),
				dsValue("legacy", "skill_ids", knownvalue.ListSizeExact(0)),
			},
			Check: func(*terraform.State) error {
				if got := modernVersions(); !allEqual(got, "1.0") {
					return fmt.Errorf("the agent got A2A-Version %q from the data source without headers, want 1.0 on every request", got)
				}
				if got := legacyVersions(); !allEqual(got, "0.3") {
					return fmt.Errorf("the agent got A2A-Version %q from the data source that sets it, want the user's 0.3 alone on every request", got)
				}
				return nil
			},
		}, {
			// The registered hybrid card is no drift: an empty plan, no write.
			PreConfig:        r.srv.ResetRequests,
			Config:           config,
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()}},
			Check:            func(*terraform.State) error { r.expectNoWrites(t); return nil },
		}},
	})
}

// The hybrid card's warning reaches the user once per plan from the data
// source, saying where the card came from, and once from the resource it
// feeds; the 1.0 card the same agent serves has none.
func TestAccAgentCardDataSource_hybridCardWarnsOnce(t *testing.T) {
	r := startRegistry(t)
	agent, _ := jsCompatAgent(t)
	h := newCLIHarness(t)
	h.write(t, "main.tf", exampleProviders+r.config(cardDS("modern", fmt.Sprintf("url = %q", agent.URL))+
		cardDS("legacy", fmt.Sprintf("url = %q\nheaders = { \"a2a-version\" = \"0.3\" }", agent.URL))+`
resource "agentregistry_agent" "hybrid" {
  service_id = "compat-agent"
  agent_card = data.agentregistry_agent_card.legacy.json
}
`))
	h.mustRun(t, "init", "-input=false")
	diags := diagnostics(h.mustRun(t, "plan", "-json", "-input=false"), "")
	const warning = "warning: A2A Agent Card Has Warnings: "
	const list = "The A2A Agent Card has 1 warning:\n  - (root): the card is A2A 1.0 (it lists supportedInterfaces) and keeps A2A 0.3 fields for 0.3 clients"
	fromDataSource := warning + "The document served at " + agent.URL + "/.well-known/agent-card.json:\n\n" + list
	var fromDS, fromResource int
	for _, d := range diags {
		switch {
		case !strings.Contains(d, "keeps A2A 0.3 fields for 0.3 clients, as SDKs with A2A 0.3 compatibility serve it: url, protocolVersion, preferredTransport;"):
		case strings.HasPrefix(d, fromDataSource):
			fromDS++
		case strings.HasPrefix(d, warning+list):
			fromResource++
		}
	}
	if len(diags) != 2 || fromDS != 1 || fromResource != 1 {
		t.Errorf("want one warning about the hybrid card's 0.3 fields from the data source and one from the resource; got %d:\n%s",
			len(diags), strings.Join(diags, "\n"))
	}
	r.expectNoWrites(t)
}
