package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func TestAccAgentDataSource(t *testing.T) {
	reg := startRegistry(t)
	seedCatalog(reg)
	travel := map[string]knownvalue.Check{
		"name":         knownvalue.StringExact(testParent + "/agents/travel-agent"),
		"agent_id":     knownvalue.StringExact("travel-agent"),
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
`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: append(append(checks("data.agentregistry_agent.by_name"), checks("data.agentregistry_agent.by_service")...),
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
			ExpectError: regexp.MustCompile(`(?s)Exactly one of these attributes must be configured:\s*\[name,service_id\]`),
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
