package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
)

// skillRefs checks a skills list by "agent_id/skill id", in order.
func skillRefs(refs ...string) knownvalue.Check {
	checks := make([]knownvalue.Check, len(refs))
	for i, ref := range refs {
		checks[i] = knownvalue.StringExact(ref)
	}
	return knownvalue.ListExact(checks)
}

// skillRefsOutputs declares an output "<name>" = ["agent_id/id", ...] per data source.
func skillRefsOutputs(names ...string) string {
	out := ""
	for _, n := range names {
		out += `
output "` + n + `" {
  value = [for s in data.agentregistry_skills.` + n + `.skills : "${s.agent_id}/${s.id}"]
}
`
	}
	return out
}

func TestAccSkillsDataSource_search(t *testing.T) {
	reg := startRegistry(t)
	seedCatalog(reg)
	config := reg.config(`
# A bare word searches every field, skills included.
data "agentregistry_skills" "bare" {
  query = "forecasts"
}
# field:value matches the words of one field, in order.
data "agentregistry_skills" "field" {
  query = "skills.name:\"book a flight\""
}
# An agent-level query keeps every skill of the agent.
data "agentregistry_skills" "agent_level" {
  query = "displayName:currency"
}
# An exact tag term keeps only the skills that carry the tag.
data "agentregistry_skills" "tag_query" {
  query = "skills.tags=fx"
}
# The tags filter: every tag must be on the skill.
data "agentregistry_skills" "tags" {
  tags = ["fx"]
}
data "agentregistry_skills" "two_tags" {
  tags = ["FX", "travel"]
}
data "agentregistry_skills" "tags_and_query" {
  query = "agentId=currency-agent"
  tags  = ["fx"]
}
# Prefix.
data "agentregistry_skills" "prefix" {
  query = "skills.name:fore*"
}
# Booleans and parentheses.
data "agentregistry_skills" "boolean" {
  query = "(skills.tags=weather OR skills.tags=flights) AND NOT agentId=currency-agent"
}
data "agentregistry_skills" "negation" {
  query = "skills.tags=fx AND NOT skills.id=history"
}
data "agentregistry_skills" "limited" {
  tags        = ["fx"]
  max_results = 2
}
data "agentregistry_skills" "empty" {
  query = "submarine"
}
` + skillRefsOutputs("bare", "field", "agent_level", "tag_query", "tags", "two_tags", "tags_and_query",
		"prefix", "boolean", "negation", "limited", "empty"))

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("bare", skillRefs("weather-agent/forecast")),
				statecheck.ExpectKnownOutputValue("field", skillRefs("travel-agent/book-flight")),
				statecheck.ExpectKnownOutputValue("agent_level", skillRefs("currency-agent/convert", "currency-agent/quote", "currency-agent/history")),
				statecheck.ExpectKnownOutputValue("tag_query", skillRefs("currency-agent/convert", "currency-agent/history", "travel-agent/exchange")),
				statecheck.ExpectKnownOutputValue("tags", skillRefs("currency-agent/convert", "currency-agent/history", "travel-agent/exchange")),
				statecheck.ExpectKnownOutputValue("two_tags", skillRefs("travel-agent/exchange")),
				statecheck.ExpectKnownOutputValue("tags_and_query", skillRefs("currency-agent/convert", "currency-agent/history")),
				statecheck.ExpectKnownOutputValue("prefix", skillRefs("weather-agent/forecast")),
				statecheck.ExpectKnownOutputValue("boolean", skillRefs("travel-agent/book-flight", "weather-agent/forecast")),
				statecheck.ExpectKnownOutputValue("negation", skillRefs("currency-agent/convert", "travel-agent/exchange")),
				statecheck.ExpectKnownOutputValue("limited", skillRefs("currency-agent/convert", "currency-agent/history")),
				statecheck.ExpectKnownOutputValue("empty", knownvalue.ListSizeExact(0)),
				statecheck.ExpectKnownValue("data.agentregistry_skills.empty", tfjsonpath.New("skills"), knownvalue.ListSizeExact(0)),
				// Every attribute of one skill, with its agent.
				statecheck.ExpectKnownValue("data.agentregistry_skills.field", tfjsonpath.New("skills"),
					knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(map[string]knownvalue.Check{
						"id":                 knownvalue.StringExact("book-flight"),
						"name":               knownvalue.StringExact("Book a flight"),
						"description":        knownvalue.StringExact("Books a flight between two airports."),
						"tags":               knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("travel"), knownvalue.StringExact("flights")}),
						"examples":           knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("Book a flight from SFO to JFK tomorrow")}),
						"agent_name":         knownvalue.StringExact(testParent + "/agents/travel-agent"),
						"agent_id":           knownvalue.StringExact("travel-agent"),
						"agent_display_name": knownvalue.StringExact("Travel Planner"),
						"agent_urls": knownvalue.ListExact([]knownvalue.Check{
							knownvalue.StringExact("https://travel.example.com/a2a"),
							knownvalue.StringExact("https://travel.example.com/a2a-eu"),
						}),
						"source":     knownvalue.StringExact("agent"),
						"skill_name": knownvalue.Null(),
					})})),
				statecheck.ExpectKnownValue("data.agentregistry_skills.bare", tfjsonpath.New("skills").AtSliceIndex(0).AtMapKey("examples"),
					knownvalue.ListSizeExact(0)),
			},
		}, {
			// Stable order: planning the same configuration again changes nothing.
			Config: config,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
		}},
	})
}

func TestAccSkillsDataSource_paging(t *testing.T) {
	reg := startRegistry(t)
	pagingAgents(reg, 130)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: reg.config(`
data "agentregistry_skills" "bulk" {
  tags = ["bulk"]
}
data "agentregistry_skills" "words" {
  query = "main"
}
data "agentregistry_skills" "limited" {
  query       = "skills.tags=bulk"
  max_results = 120
}
output "first" {
  value = "${data.agentregistry_skills.bulk.skills[0].agent_id}/${data.agentregistry_skills.bulk.skills[0].id}"
}
output "last" {
  value = "${data.agentregistry_skills.bulk.skills[129].agent_id}/${data.agentregistry_skills.bulk.skills[129].id}"
}
`),
			ConfigStateChecks: []statecheck.StateCheck{
				// 130 agents, more than one page of 100: one skill of each.
				statecheck.ExpectKnownValue("data.agentregistry_skills.bulk", tfjsonpath.New("skills"), knownvalue.ListSizeExact(130)),
				statecheck.ExpectKnownValue("data.agentregistry_skills.words", tfjsonpath.New("skills"), knownvalue.ListSizeExact(130)),
				statecheck.ExpectKnownValue("data.agentregistry_skills.limited", tfjsonpath.New("skills"), knownvalue.ListSizeExact(120)),
				statecheck.ExpectKnownOutputValue("first", knownvalue.StringExact("bulk-000/main")),
				statecheck.ExpectKnownOutputValue("last", knownvalue.StringExact("bulk-129/main")),
			},
		}},
	})
}

func TestAccSkillsDataSource_invalidConfig(t *testing.T) {
	reg := startRegistry(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: reg.config(`
data "agentregistry_skills" "bad" {
  query = "skills.tags=fx AND (weather"
}
`),
			ExpectError: regexp.MustCompile(`(?s)Invalid Search Query.*not closed`),
		}, {
			Config: reg.config(`
data "agentregistry_skills" "bad" {
  query = "colour:red"
}
`),
			ExpectError: regexp.MustCompile(`(?s)Invalid Search Query.*unknown field\s+"colour"`),
		}, {
			Config: reg.config(`
data "agentregistry_skills" "bad" {
  max_results = 3
}
`),
			ExpectError: regexp.MustCompile(`(?s)Missing Attribute Configuration.*query,\s*tags`),
		}, {
			Config: reg.config(`
data "agentregistry_skills" "bad" {
  tags = [""]
}
`),
			ExpectError: regexp.MustCompile(`(?s)tags.*string length must be at least 1`),
		}},
	})
}

// Registrations made by agentregistry_agent in the same configuration are
// found by agentregistry_skills (read after them, through depends_on).
func TestAccSkillsDataSource_findsAgentsOfTheSameConfig(t *testing.T) {
	reg := startRegistry(t)
	seedCatalog(reg)
	config := reg.config(`
resource "agentregistry_agent" "invoices" {
  service_id = "invoice-helper"
  agent_card = jsonencode({
    protocolVersion    = "0.3.0"
    name               = "Invoice Helper"
    description        = "Answers questions about invoices."
    version            = "2.1.0"
    url                = "https://invoices.example.com/a2a"
    capabilities       = {}
    defaultInputModes  = ["text/plain"]
    defaultOutputModes = ["text/plain"]
    skills = [
      { id = "lookup-invoice", name = "Look up an invoice", description = "Finds an invoice.", tags = ["billing", "fx"] },
      { id = "explain-charge", name = "Explain a charge", description = "Explains a line item.", tags = ["billing"] },
    ]
  })
}

data "agentregistry_skills" "billing_fx" {
  tags       = ["billing", "fx"]
  depends_on = [agentregistry_agent.invoices]
}

data "agentregistry_skills" "fx" {
  query      = "skills.tags=fx"
  depends_on = [agentregistry_agent.invoices]
}
` + skillRefsOutputs("billing_fx", "fx"))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("billing_fx", skillRefs("invoice-helper/lookup-invoice")),
				statecheck.ExpectKnownOutputValue("fx", skillRefs(
					"currency-agent/convert", "currency-agent/history", "invoice-helper/lookup-invoice", "travel-agent/exchange")),
				statecheck.ExpectKnownValue("data.agentregistry_skills.billing_fx", tfjsonpath.New("skills").AtSliceIndex(0).AtMapKey("agent_urls"),
					knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("https://invoices.example.com/a2a")})),
			},
		}, {
			Config: config,
			ConfigPlanChecks: resource.ConfigPlanChecks{
				PreApply: []plancheck.PlanCheck{plancheck.ExpectEmptyPlan()},
			},
		}},
	})
}

// The query sent to agents:search must select every agent that has a skill
// the query matches: NOT over skill fields is relaxed, the rest carried over.
func TestSkillsServerQuery(t *testing.T) {
	for _, tc := range []struct {
		query string
		tags  []string
		want  string
	}{
		{query: "skills.tags=fx", want: "skills.tags=fx"},
		{query: "fx  OR  rates", want: "fx  OR  rates"},
		{query: "NOT agentId=a", want: "NOT agentId=a"},
		{query: "skills.tags=fx AND NOT skills.id=history", want: `skills.tags="fx"`},
		{query: "NOT fx", want: ""},
		{query: "a OR NOT skills:b", want: ""},
		{query: `(skills.name:"book a" OR x*) AND NOT skills.id=q AND displayName=y`, want: `((skills.name:"book a" OR "x"*) AND displayName="y")`},
		{query: "convert", tags: []string{"fx", `we"ird\`}, want: `(convert) AND skills.tags="fx" AND skills.tags="we\"ird\\"`},
		{query: "NOT skills.tags=x", tags: []string{"fx"}, want: `skills.tags="fx"`},
		{tags: []string{"fx"}, want: `skills.tags="fx"`},
	} {
		q, err := searchquery.Parse(tc.query, searchquery.Agents)
		if err != nil {
			t.Fatalf("Parse(%q): %v", tc.query, err)
		}
		got := skillsServerQuery(tc.query, q, tc.tags)
		if got != tc.want {
			t.Errorf("skillsServerQuery(%q, %q) = %q, want %q", tc.query, tc.tags, got, tc.want)
		}
		// What is sent parses, and means what it should.
		if _, err := searchquery.Parse(got, searchquery.Agents); err != nil {
			t.Errorf("skillsServerQuery(%q, %q) = %q, which does not parse: %v", tc.query, tc.tags, got, err)
		}
	}
}
