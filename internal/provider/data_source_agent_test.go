package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// testURN is the id the bundled server gives the record of kind ("agent",
// "mcp", "endpoint") that service id of test-project in global derives: the
// project id stands in for Google's project number.
func testURN(kind, id string) string {
	return "urn:" + kind + ":projects-test-project:projects:test-project:locations:global:agentregistry:services:" + id
}

// runtimeReference is the attributes value the bundled server gives the
// record that service id of test-project derives.
func runtimeReference(id string) knownvalue.Check {
	return knownvalue.MapExact(map[string]knownvalue.Check{
		"agentregistry.googleapis.com/system/RuntimeReference": knownvalue.StringExact(
			`{"uri":"//agentregistry.googleapis.com/projects/test-project/locations/global/services/` + id + `"}`),
	})
}

func TestAccAgentDataSource(t *testing.T) {
	reg := startRegistry(t)
	seedCatalog(reg)
	travel := map[string]knownvalue.Check{
		"name":        knownvalue.StringExact(testParent + "/agents/travel-agent"),
		"agent_id":    knownvalue.StringExact(testURN("agent", "travel-agent")),
		"urn":         knownvalue.StringExact(testURN("agent", "travel-agent")),
		"framework":   knownvalue.Null(),
		"create_time": knownvalue.NotNull(),
		"update_time": knownvalue.NotNull(),
		"attributes":  runtimeReference("travel-agent"),
		"protocols": knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
			"type":             knownvalue.StringExact("A2A_AGENT"),
			"protocol_version": knownvalue.StringExact("1.0"),
			"interfaces": knownvalue.ListExact([]knownvalue.Check{
				knownvalue.ObjectExact(map[string]knownvalue.Check{"url": knownvalue.StringExact("https://travel.example.com/a2a"), "protocol_binding": knownvalue.StringExact("JSONRPC")}),
				knownvalue.ObjectPartial(map[string]knownvalue.Check{"url": knownvalue.StringExact("https://travel.example.com/a2a-eu")}),
			}),
		})}),
		"display_name": knownvalue.StringExact("Travel Planner"),
		"description":  knownvalue.StringExact("Plans trips end to end."),
		"version":      knownvalue.StringExact("2.0.0"),
		"urls": knownvalue.ListExact([]knownvalue.Check{
			knownvalue.StringExact("https://travel.example.com/a2a"), knownvalue.StringExact("https://travel.example.com/a2a-eu"),
		}),
		"skills": knownvalue.ListExact([]knownvalue.Check{
			knownvalue.ObjectExact(map[string]knownvalue.Check{
				"id":          knownvalue.StringExact("book-flight"),
				"name":        knownvalue.StringExact("Book a flight"),
				"description": knownvalue.StringExact("Books a flight between two airports."),
				"tags":        knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("travel"), knownvalue.StringExact("flights")}),
				"examples":    knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("Book a flight from SFO to JFK tomorrow")}),
			}),
			knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact("exchange")}),
		}),
		"card_json": knownvalue.StringRegexp(regexp.MustCompile(`"supportedInterfaces"`)),
	}
	checks := func(addr string) []statecheck.StateCheck {
		var out []statecheck.StateCheck
		for k, c := range travel {
			out = append(out, statecheck.ExpectKnownValue(addr, tfjsonpath.New(k), c))
		}
		return out
	}
	config := reg.config(`
data "agentregistry_agent" "by_name" {
  name = "projects/test-project/locations/global/agents/travel-agent"
}
data "agentregistry_agent" "by_service" {
  service_id = "travel-agent"
}
data "agentregistry_agent" "by_service_in_location" {
  service_id = "weather-agent"
  project    = "test-project"
  location   = "global"
}
data "agentregistry_agent" "by_filter" {
  filter = "displayName=\"Travel Planner\""
}
`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: append(append(append(checks("data.agentregistry_agent.by_name"), checks("data.agentregistry_agent.by_service")...),
				checks("data.agentregistry_agent.by_filter")...),
				statecheck.ExpectKnownValue("data.agentregistry_agent.by_service_in_location", tfjsonpath.New("name"),
					knownvalue.StringExact(testParent+"/agents/weather-agent")),
				statecheck.ExpectKnownValue("data.agentregistry_agent.by_service_in_location", tfjsonpath.New("skills"),
					knownvalue.ListSizeExact(1)),
			),
		}, {
			Config:   config,
			PlanOnly: true,
		}},
	})
}

func TestAccAgentDataSource_errors(t *testing.T) {
	reg := startRegistry(t)
	seedCatalog(reg)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: reg.config(`
data "agentregistry_agent" "missing" {
  name = "projects/test-project/locations/global/agents/nobody"
}
`),
			ExpectError: regexp.MustCompile(`Agent Not Found`),
		}, {
			Config: reg.config(`
data "agentregistry_agent" "missing" {
  service_id = "nobody"
}
`),
			ExpectError: regexp.MustCompile(`Agent Not Found`),
		}, {
			// The service exists but registers an MCP server, not an agent.
			Config: reg.config(`
data "agentregistry_agent" "mcp" {
  service_id = "files-mcp"
}
`),
			ExpectError: regexp.MustCompile(`(?s)Agent Not Found.*registers\s+no\s+agent`),
		}, {
			Config: reg.config(`
data "agentregistry_agent" "both" {
  name       = "projects/test-project/locations/global/agents/travel-agent"
  service_id = "travel-agent"
}
`),
			ExpectError: regexp.MustCompile(`Invalid Attribute Combination`),
		}, {
			Config: reg.config(`
data "agentregistry_agent" "neither" {
}
`),
			ExpectError: regexp.MustCompile(`(?s)Exactly one of these attributes must be configured:\s*\[name,service_id,filter\]`),
		}, {
			Config: reg.config(`
data "agentregistry_agent" "nobody" {
  filter = "displayName=Nobody"
}
`),
			ExpectError: regexp.MustCompile(`(?s)Agent Not Found.*No agent of projects/test-project/locations/global matches\s+the\s+filter`),
		}, {
			Config: reg.config(`
data "agentregistry_agent" "several" {
  filter = "fx"
}
`),
			ExpectError: regexp.MustCompile(`(?s)Filter Matches More Than One Agent.*must\s+identify\s+exactly\s+one`),
		}, {
			Config: reg.config(`
data "agentregistry_agent" "malformed" {
  filter = "colour:red"
}
`),
			ExpectError: regexp.MustCompile(`(?s)Invalid Search Query.*unknown field "colour"`),
		}, {
			Config: reg.config(`
data "agentregistry_agent" "short" {
  name = "travel-agent"
}
`),
			ExpectError: regexp.MustCompile(`(?s)must be a full agent name`),
		}},
	})
}

// A module binds an agent by the agent_id the registry gives it,
// and the provider's validators take it at plan as the server does at apply
// (agent_id was once the bare service id, which neither took as a URN).
// The data sources return the same ids, under the Google provider's names too.
func TestAccAgentDataSource_bindingByAgentID(t *testing.T) {
	r := startRegistry(t)
	config := r.config(`
resource "agentregistry_agent" "planner" {
  service_id = "planner"
  agent_card = jsonencode(` + resJSON(relCardA) + `)
}
resource "agentregistry_endpoint" "billing" {
  service_id = "billing-api"
  interfaces = [{ url = "https://billing.example.com/v1", protocol_binding = "HTTP_JSON" }]
}
resource "agentregistry_binding" "planner_billing" {
  binding_id = "planner-billing"
  source     = agentregistry_agent.planner.agent_id
  target     = agentregistry_endpoint.billing.endpoint_id
}
data "agentregistry_agent" "planner" {
  filter = "agentId=\"${agentregistry_agent.planner.agent_id}\""
}
data "agentregistry_endpoint" "billing" {
  filter = "endpointId=\"${agentregistry_endpoint.billing.endpoint_id}\""
}
data "agentregistry_available_bindings" "planner" {
  source     = data.agentregistry_agent.planner.urn
  depends_on = [agentregistry_binding.planner_billing]
}
`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("agentregistry_binding.planner_billing", tfjsonpath.New("source"), knownvalue.StringExact(testURN("agent", "planner"))),
				statecheck.ExpectKnownValue("agentregistry_binding.planner_billing", tfjsonpath.New("target"), knownvalue.StringExact(testURN("endpoint", "billing-api"))),
				statecheck.ExpectKnownValue("data.agentregistry_agent.planner", tfjsonpath.New("name"), knownvalue.StringExact(testParent+"/agents/planner")),
				statecheck.ExpectKnownValue("data.agentregistry_agent.planner", tfjsonpath.New("urn"), knownvalue.StringExact(testURN("agent", "planner"))),
				statecheck.ExpectKnownValue("data.agentregistry_endpoint.billing", tfjsonpath.New("urn"), knownvalue.StringExact(testURN("endpoint", "billing-api"))),
				statecheck.ExpectKnownValue("data.agentregistry_endpoint.billing", tfjsonpath.New("attributes"), runtimeReference("billing-api")),
				statecheck.ExpectKnownValue("data.agentregistry_available_bindings.planner", tfjsonpath.New("bindings"), knownvalue.ListSizeExact(1)),
			},
		}, {Config: config, PlanOnly: true}},
	})
}
