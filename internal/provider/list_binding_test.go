package provider

import (
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// The binding list takes bindings.list's filter and pages with the limit.
func TestBindingListResource_filterAndLimit(t *testing.T) {
	r := startRegistry(t)
	seedAdoptable(t, r)
	l := newListRPC(t, r.URL)
	l.expectListed(t, "agentregistry_binding", map[string]string{"filter": `target.identifier="urn:mcp:acme:tools:files"`}, true, "planner-files")
	l.expectListed(t, "agentregistry_binding", map[string]string{"filter": "display_name:planner"}, true, "planner-files")
	l.expectListed(t, "agentregistry_binding", map[string]string{"filter": "NOT display_name:planner"}, true, "anyone-billing")
	if got := ids(l.list("agentregistry_binding", nil, false, 1, 0)); !slices.Equal(got, []string{"anyone-billing"}) {
		t.Errorf("limit 1: %v", got)
	}
}

func TestAccBindingListResource_query(t *testing.T) {
	r := startRegistry(t)
	seedAdoptable(t, r)
	planner := queryfilter.ByResourceIdentity(recordIdentity("binding_id", "planner-files"))
	queryTest(t, r, `
list "agentregistry_binding" "all" {
  provider         = agentregistry
  include_resource = true
}
`,
		querycheck.ExpectLength("agentregistry_binding.all", 2),
		querycheck.ExpectIdentity("agentregistry_binding.all", recordIdentity("binding_id", "anyone-billing")),
		querycheck.ExpectIdentity("agentregistry_binding.all", recordIdentity("binding_id", "planner-files")),
		querycheck.ExpectResourceDisplayName("agentregistry_binding.all", planner, knownvalue.StringExact("Planner to files")),
		querycheck.ExpectResourceKnownValues("agentregistry_binding.all", planner, []querycheck.KnownValueCheck{
			{Path: tfjsonpath.New("source"), KnownValue: knownvalue.StringExact("urn:agent:acme:travel:planner")},
			{Path: tfjsonpath.New("scopes"), KnownValue: knownvalue.ListExact([]knownvalue.Check{knownvalue.StringExact("files.read")})},
		}),
	)
}
