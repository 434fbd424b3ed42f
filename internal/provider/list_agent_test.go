package provider

import (
	"regexp"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
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
	for _, tc := range []struct {
		set  map[string]string
		want []string
	}{
		{map[string]string{"query": "skills.tags:finance"}, []string{"fx-agent"}},
		{map[string]string{"query": "skills.tags:finance OR travel"}, []string{"fx-agent", "travel-agent"}},
		{map[string]string{"query": "nothing-matches-this"}, nil},
		{map[string]string{"filter": "displayName:legacy"}, []string{"legacy-agent"}},
		{map[string]string{"filter": `name="` + testParent + `/services/travel-agent"`}, []string{"travel-agent"}},
		{map[string]string{"query": "skills.tags:finance OR travel", "filter": "name:travel*"}, []string{"travel-agent"}},
	} {
		for _, include := range []bool{false, true} {
			got := l.list("agentregistry_agent", tc.set, include, 100, 0)
			if ids := ids(got); !slices.Equal(ids, tc.want) || len(errorsOf(got)) > 0 {
				t.Errorf("%v (include_resource %v): %v, errors %v; want %v", tc.set, include, ids, errorsOf(got), tc.want)
			}
		}
	}
}

// terraform query on Terraform 1.14+, against a registry seeded through the API.
func TestAccAgentListResource_query(t *testing.T) {
	r := startRegistry(t)
	seedAdoptable(t, r)
	fx := queryfilter.ByResourceIdentity(serviceIdentity("fx-agent"))
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   requires(capQuery),
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{Config: r.config("")},
			{
				Query: true,
				Config: `
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
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("agentregistry_agent.all", 3),
					querycheck.ExpectIdentity("agentregistry_agent.all", serviceIdentity("fx-agent")),
					querycheck.ExpectIdentity("agentregistry_agent.all", serviceIdentity("legacy-agent")),
					querycheck.ExpectIdentity("agentregistry_agent.all", serviceIdentity("travel-agent")),
					querycheck.ExpectResourceDisplayName("agentregistry_agent.all",
						queryfilter.ByResourceIdentity(serviceIdentity("legacy-agent")), knownvalue.StringExact("Legacy Agent")),
					querycheck.ExpectResourceKnownValues("agentregistry_agent.all", fx, []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("agent_card"), KnownValue: knownvalue.StringRegexp(regexp.MustCompile(
							`^\{"capabilities":\{\},.*"description":"Rates \\u0026 quotes \\u003clive\\u003e, 24/7\.".*"x-priority":150\}$`))},
						{Path: tfjsonpath.New("skill_ids"), KnownValue: knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("quote")})},
						{Path: tfjsonpath.New("interfaces"), KnownValue: knownvalue.Null()},
					}),
					querycheck.ExpectResourceKnownValues("agentregistry_agent.all",
						queryfilter.ByResourceIdentity(serviceIdentity("legacy-agent")), []querycheck.KnownValueCheck{
							{Path: tfjsonpath.New("agent_card"), KnownValue: knownvalue.Null()},
							{Path: tfjsonpath.New("urls"), KnownValue: knownvalue.ListExact([]knownvalue.Check{
								knownvalue.StringExact("https://legacy.example.com/a2a")})},
						}),
					querycheck.ExpectLength("agentregistry_agent.finance", 1),
					querycheck.ExpectIdentity("agentregistry_agent.finance", serviceIdentity("fx-agent")),
				},
			},
		},
	})
}
