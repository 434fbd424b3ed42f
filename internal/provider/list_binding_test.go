package provider

import (
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func bindingIdentity(id string) map[string]knownvalue.Check {
	return map[string]knownvalue.Check{"binding_id": knownvalue.StringExact(id),
		"project": knownvalue.StringExact("test-project"), "location": knownvalue.StringExact("global")}
}

// The binding list takes bindings.list's filter and pages with the limit.
func TestBindingListResource_filterAndLimit(t *testing.T) {
	r := startRegistry(t)
	seedAdoptable(t, r)
	l := newListRPC(t, r.URL)
	for filter, want := range map[string][]string{
		`target.identifier="urn:mcp:acme:tools:files"`: {"planner-files"},
		`display_name:planner`:                         {"planner-files"},
		`NOT display_name:planner`:                     {"anyone-billing"},
	} {
		got := l.list("agentregistry_binding", map[string]string{"filter": filter}, true, 100, 0)
		if ids := ids(got); !slices.Equal(ids, want) || len(errorsOf(got)) > 0 {
			t.Errorf("filter %q: %v, errors %v; want %v", filter, ids, errorsOf(got), want)
		}
	}
	if got := ids(l.list("agentregistry_binding", nil, false, 1, 0)); !slices.Equal(got, []string{"anyone-billing"}) {
		t.Errorf("limit 1: %v", got)
	}
}

func TestAccBindingListResource_query(t *testing.T) {
	r := startRegistry(t)
	seedAdoptable(t, r)
	planner := queryfilter.ByResourceIdentity(bindingIdentity("planner-files"))
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   requires(capQuery),
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{Config: r.config("")},
			{
				Query: true,
				Config: `
list "agentregistry_binding" "all" {
  provider         = agentregistry
  include_resource = true
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("agentregistry_binding.all", 2),
					querycheck.ExpectIdentity("agentregistry_binding.all", bindingIdentity("anyone-billing")),
					querycheck.ExpectIdentity("agentregistry_binding.all", bindingIdentity("planner-files")),
					querycheck.ExpectResourceDisplayName("agentregistry_binding.all", planner, knownvalue.StringExact("Planner to files")),
					querycheck.ExpectResourceKnownValues("agentregistry_binding.all", planner, []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("source"), KnownValue: knownvalue.StringExact("urn:agent:acme:travel:planner")},
						{Path: tfjsonpath.New("scopes"), KnownValue: knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("files.read")})},
					}),
				},
			},
		},
	})
}
