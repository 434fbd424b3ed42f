package provider

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
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
			step(url(srv.URL)+"\ntimeout = \"soon\"", "Invalid Timeout", `must be a positive duration of at most 2m0s, such as 10s, 500ms or 1m30s, got "soon"`),
			step(url(srv.URL)+"\ntimeout = \"2m0.001s\"", "Invalid Timeout", `got "2m0.001s"`), // issue 27: the timeout is bounded
			step(url(srv.URL)+"\nsignature_policy = \"strict\"", "signature_policy", "value must be one of"),
			// The served card is refused with the resource's own message...
			step(url(srv.URL+"/invalid.json"), "Invalid A2A Agent Card", "The document served at "+srv.URL+"/invalid.json",
				"The A2A Agent Card has 1 problem", `missing required property "skills"`, "nothing was sent to the registry"),
			// ...which is this one.
			{
				Config: providerConfig("http://127.0.0.1:1") + fmt.Sprintf(`
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
		livedoctest.JSON(served.Load().(string))(w, req)
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
