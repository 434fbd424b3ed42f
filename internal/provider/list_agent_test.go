package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// `query` selects agents by their skills, `filter` by their service's
// fields, and both together narrow each other.
func TestAgentListResource_queryAndFilter(t *testing.T) {
	r := startRegistry(t)
	seedAdoptable(t, r)
	l := newListRPC(t, r.URL)
	for _, include := range []bool{false, true} {
		l.expectListed(t, "agentregistry_agent", map[string]string{"query": "skills.tags:finance"}, include, "fx-agent")
		l.expectListed(t, "agentregistry_agent", map[string]string{"query": "skills.tags:finance OR travel"}, include, "fx-agent", "travel-agent")
		l.expectListed(t, "agentregistry_agent", map[string]string{"query": "nothing-matches-this"}, include)
		l.expectListed(t, "agentregistry_agent", map[string]string{"filter": "displayName:legacy"}, include, "legacy-agent")
		l.expectListed(t, "agentregistry_agent", map[string]string{"filter": `name="` + testParent + `/services/travel-agent"`}, include, "travel-agent")
		l.expectListed(t, "agentregistry_agent", map[string]string{"query": "skills.tags:finance OR travel", "filter": "name:travel*"}, include, "travel-agent")
	}
}

func TestAccAgentListResource_query(t *testing.T) {
	r := startRegistry(t)
	seedAdoptable(t, r)
	legacy := queryfilter.ByResourceIdentity(serviceIdentity("legacy-agent"))
	queryTest(t, r, `
list "agentregistry_agent" "all" {
  provider         = agentregistry
  include_resource = true
}
list "agentregistry_agent" "finance" {
  provider = agentregistry
  config {
    query = "skills.tags:finance"
  }
}
`,
		querycheck.ExpectLength("agentregistry_agent.all", 3),
		querycheck.ExpectIdentity("agentregistry_agent.all", serviceIdentity("fx-agent")),
		querycheck.ExpectIdentity("agentregistry_agent.all", serviceIdentity("legacy-agent")),
		querycheck.ExpectIdentity("agentregistry_agent.all", serviceIdentity("travel-agent")),
		querycheck.ExpectResourceDisplayName("agentregistry_agent.all", legacy, knownvalue.StringExact("Legacy Agent")),
		// The card in the form generated configuration evaluates to: keys sorted, & < > escaped, 1.5e2 as 150.
		querycheck.ExpectResourceKnownValues("agentregistry_agent.all", queryfilter.ByResourceIdentity(serviceIdentity("fx-agent")),
			[]querycheck.KnownValueCheck{
				{Path: tfjsonpath.New("agent_card"), KnownValue: knownvalue.StringRegexp(regexp.MustCompile(
					`^\{"capabilities":\{\},.*"description":"Rates \\u0026 quotes \\u003clive\\u003e, 24/7\.".*"x-priority":150\}$`))},
				{Path: tfjsonpath.New("skill_ids"), KnownValue: knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("quote")})},
				{Path: tfjsonpath.New("interfaces"), KnownValue: knownvalue.Null()},
			}),
		querycheck.ExpectResourceKnownValues("agentregistry_agent.all", legacy, []querycheck.KnownValueCheck{
			{Path: tfjsonpath.New("agent_card"), KnownValue: knownvalue.Null()},
			{Path: tfjsonpath.New("urls"), KnownValue: knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("https://legacy.example.com/a2a")})},
		}),
		querycheck.ExpectLength("agentregistry_agent.finance", 1),
		querycheck.ExpectIdentity("agentregistry_agent.finance", serviceIdentity("fx-agent")),
	)
}
