package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// testSkill builds a card skill.
func testSkill(id, name, description string, tags []string, examples ...string) map[string]any {
	s := map[string]any{"id": id, "name": name, "description": description, "tags": tags}
	if len(examples) > 0 {
		s["examples"] = examples
	}
	return s
}

// card03 builds an A2A 0.3 card.
func card03(name, description, url string, skills ...map[string]any) map[string]any {
	return map[string]any{
		"protocolVersion":    "0.3.0",
		"name":               name,
		"description":        description,
		"version":            "1.0.0",
		"url":                url,
		"capabilities":       map[string]any{},
		"defaultInputModes":  []string{"text/plain"},
		"defaultOutputModes": []string{"text/plain"},
		"skills":             skills,
	}
}

// card10 builds an A2A 1.0 card with one interface per URL.
func card10(name, description string, urls []string, skills ...map[string]any) map[string]any {
	ifaces := []map[string]any{}
	for _, u := range urls {
		ifaces = append(ifaces, map[string]any{"url": u, "protocolBinding": "JSONRPC", "protocolVersion": "1.0"})
	}
	return map[string]any{
		"name":                name,
		"description":         description,
		"version":             "2.0.0",
		"supportedInterfaces": ifaces,
		"capabilities":        map[string]any{},
		"skills":              skills,
	}
}

// seedCatalog registers three agents and one MCP server:
//
//	currency-agent (0.3): convert [currency fx], quote [rates markets], history [fx history]
//	travel-agent   (1.0): book-flight [travel flights], exchange [fx travel]
//	weather-agent  (0.3): forecast [weather]
//	files-mcp: read_file (read-only), write_file (no annotations)
func seedCatalog(r *testRegistry) {
	r.t.Helper()
	r.agent("currency-agent", card03("Currency Agent", "Money conversions and market rates.",
		"https://agents.example.com/currency",
		testSkill("convert", "Convert amount", "Converts an amount between two currencies.", []string{"currency", "fx"},
			"Convert 100 USD to EUR"),
		testSkill("quote", "Quote rate", "Quotes the current rate of a currency pair.", []string{"rates", "markets"}),
		testSkill("history", "Rate history", "Shows historical exchange rates.", []string{"fx", "history"}),
	))
	r.agent("travel-agent", card10("Travel Planner", "Plans trips end to end.",
		[]string{"https://travel.example.com/a2a", "https://travel.example.com/a2a-eu"},
		testSkill("book-flight", "Book a flight", "Books a flight between two airports.", []string{"travel", "flights"},
			"Book a flight from SFO to JFK tomorrow"),
		testSkill("exchange", "Travel money", "Orders foreign cash for a trip.", []string{"fx", "travel"}),
	))
	r.agent("weather-agent", card03("Weather Oracle", "Tells the weather.", "https://weather.example.com/a2a",
		testSkill("forecast", "Forecast", "Forecasts the weather for a city.", []string{"weather"}),
	))
	r.mcpServer("files-mcp", "File Tools", "Reads and writes files in a workspace.", "https://files.example.com/mcp",
		[]map[string]any{
			{
				"name": "read_file", "description": "Reads a file.",
				"inputSchema": map[string]any{"type": "object", "properties": map[string]any{"path": map[string]any{"type": "string"}}},
				"annotations": map[string]any{"title": "Read file", "readOnlyHint": true, "openWorldHint": false},
			},
			{
				"name": "write_file", "description": "Writes a file.",
				"inputSchema": map[string]any{"type": "object"},
			},
		})
}

// ---------------------------------------------------------------------------
// agentregistry_agents

func TestAccAgentsDataSource_search(t *testing.T) {
	reg := startRegistry(t)
	seedCatalog(reg)
	currency := knownvalue.ObjectExact(map[string]knownvalue.Check{
		"name":            knownvalue.StringExact(testParent + "/agents/currency-agent"),
		"service_id":      knownvalue.StringExact("currency-agent"),
		"project":         knownvalue.StringExact("test-project"),
		"location":        knownvalue.StringExact("global"),
		"agent_id":        knownvalue.StringExact(testURN("agent", "currency-agent")),
		"urn":             knownvalue.StringExact(testURN("agent", "currency-agent")),
		"framework":       knownvalue.Null(),
		"create_time":     knownvalue.NotNull(),
		"update_time":     knownvalue.NotNull(),
		"attributes":      runtimeReference("currency-agent"),
		"attributes_json": knownvalue.StringExact(`{"agentregistry.googleapis.com/system/RuntimeReference":{"uri":"//agentregistry.googleapis.com/projects/test-project/locations/global/services/currency-agent"}}`),
		"protocols": knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
			"type": knownvalue.StringExact("A2A_AGENT"), "protocol_version": knownvalue.StringExact("0.3.0"),
			"interfaces": knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
				"url": knownvalue.StringExact("https://agents.example.com/currency"), "protocol_binding": knownvalue.StringExact("JSONRPC"),
			})}),
		})}),
		"display_name": knownvalue.StringExact("Currency Agent"),
		"description":  knownvalue.StringExact("Money conversions and market rates."),
		"version":      knownvalue.StringExact("1.0.0"),
		"urls":         knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("https://agents.example.com/currency")}),
		"skills": knownvalue.ListExact([]knownvalue.Check{
			knownvalue.ObjectExact(map[string]knownvalue.Check{
				"id":          knownvalue.StringExact("convert"),
				"name":        knownvalue.StringExact("Convert amount"),
				"description": knownvalue.StringExact("Converts an amount between two currencies."),
				"tags":        knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("currency"), knownvalue.StringExact("fx")}),
				"examples":    knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("Convert 100 USD to EUR")}),
			}),
			knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact("quote"), "examples": knownvalue.ListSizeExact(0)}),
			knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact("history")}),
		}),
		"card_json": knownvalue.StringRegexp(regexp.MustCompile(`"protocolVersion":\s*"0\.3\.0"`)),
	})
	travel := knownvalue.ObjectPartial(map[string]knownvalue.Check{
		"agent_id":     knownvalue.StringExact(testURN("agent", "travel-agent")),
		"display_name": knownvalue.StringExact("Travel Planner"),
		"version":      knownvalue.StringExact("2.0.0"),
		"urls": knownvalue.ListExact([]knownvalue.Check{
			knownvalue.StringExact("https://travel.example.com/a2a"), knownvalue.StringExact("https://travel.example.com/a2a-eu"),
		}),
		"skills": knownvalue.ListSizeExact(2),
	})
	config := reg.config(`
data "agentregistry_agents" "fx" {
  query = "fx"
}
data "agentregistry_agents" "one" {
  query       = "fx"
  max_results = 1
}
data "agentregistry_agents" "weather" {
  query    = "displayName:weather"
  project  = "test-project"
  location = "global"
}
data "agentregistry_agents" "none" {
  query = "submarine"
}
output "currency_card_name" {
  value = jsondecode(data.agentregistry_agents.fx.agents[0].card_json).name
}
`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.agentregistry_agents.fx", tfjsonpath.New("agents"),
					knownvalue.ListExact([]knownvalue.Check{currency, travel})),
				statecheck.ExpectKnownValue("data.agentregistry_agents.one", tfjsonpath.New("agents"),
					knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"agent_id": knownvalue.StringExact(testURN("agent", "currency-agent")),
					})})),
				statecheck.ExpectKnownValue("data.agentregistry_agents.weather", tfjsonpath.New("agents"),
					knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"agent_id": knownvalue.StringExact(testURN("agent", "weather-agent")),
					})})),
				statecheck.ExpectKnownValue("data.agentregistry_agents.none", tfjsonpath.New("agents"), knownvalue.ListSizeExact(0)),
				statecheck.ExpectKnownOutputValue("currency_card_name", knownvalue.StringExact("Currency Agent")),
			},
		}, {
			// Same config again: the data sources read the same, ordered content.
			Config:   config,
			PlanOnly: true,
		}},
	})
}

func TestAccAgentsDataSource_invalidQuery(t *testing.T) {
	reg := startRegistry(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			// Rejected by the registry; the provider reports its explanation.
			Config: reg.config(`
data "agentregistry_agents" "bad" {
  query = "skills.tags=fx AND (weather"
}
`),
			ExpectError: regexp.MustCompile(`(?s)Invalid Search Query.*not closed`),
		}, {
			Config: reg.config(`
data "agentregistry_agents" "bad" {
  query = "colour:red"
}
`),
			ExpectError: regexp.MustCompile(`(?s)Invalid Search Query.*unknown field\s+"colour"`),
		}, {
			Config: reg.config(`
data "agentregistry_agents" "bad" {
  query       = "fx"
  max_results = 0
}
`),
			ExpectError: regexp.MustCompile(`(?s)max_results.*at least 1`),
		}},
	})
}

// pagingAgents registers n agents bulk-000.. with two skills each, of which
// only the first is tagged bulk.
func pagingAgents(r *testRegistry, n int) {
	r.t.Helper()
	for i := range n {
		id := fmt.Sprintf("bulk-%03d", i)
		r.agent(id, card03(fmt.Sprintf("Bulk Agent %d", i), "One of many agents.", "https://bulk.example.com/"+id,
			testSkill("main", "Main skill", "Does the main thing.", []string{"bulk"}),
			testSkill("side", "Side skill", "Does a side thing.", []string{"other"}),
		))
	}
}

func TestAccAgentsDataSource_paging(t *testing.T) {
	reg := startRegistry(t)
	pagingAgents(reg, 130)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: reg.config(`
data "agentregistry_agents" "all" {
  query = "bulk*"
}
data "agentregistry_agents" "some" {
  query       = "agentId:bulk*"
  max_results = 101
}
output "last" {
  value = data.agentregistry_agents.all.agents[129].agent_id
}
`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.agentregistry_agents.all", tfjsonpath.New("agents"), knownvalue.ListSizeExact(130)),
				statecheck.ExpectKnownValue("data.agentregistry_agents.some", tfjsonpath.New("agents"), knownvalue.ListSizeExact(101)),
				statecheck.ExpectKnownValue("data.agentregistry_agents.some", tfjsonpath.New("agents").AtSliceIndex(100).AtMapKey("agent_id"),
					knownvalue.StringExact(testURN("agent", "bulk-100"))),
				statecheck.ExpectKnownOutputValue("last", knownvalue.StringExact(testURN("agent", "bulk-129"))),
			},
		}},
	})
}
