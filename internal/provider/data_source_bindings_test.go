package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

const resBindingsFixture = `
resource "agentregistry_binding" "planner" {
  binding_id    = "planner-flights"
  source        = "urn:agent:acme:travel:planner"
  target        = "urn:mcp:acme:travel:flights"
  auth_provider = "projects/test-project/locations/global/authProviders/oauth"
  scopes        = ["flights.read"]
}
resource "agentregistry_binding" "anyone" {
  binding_id = "anyone-flights"
  target     = "urn:mcp:acme:travel:flights"
}
resource "agentregistry_binding" "other" {
  binding_id = "other-billing"
  source     = "urn:agent:acme:travel:other"
  target     = "urn:endpoint:acme:travel:billing"
}
`

func TestAccBindingDataSources(t *testing.T) {
	r := startRegistry(t)
	config := r.config(resBindingsFixture + `
locals { all = [agentregistry_binding.planner.id, agentregistry_binding.anyone.id, agentregistry_binding.other.id] }
data "agentregistry_bindings" "all" {
  depends_on = [agentregistry_binding.planner, agentregistry_binding.anyone, agentregistry_binding.other]
}
data "agentregistry_bindings" "to_billing" {
  filter     = "target.identifier=\"urn:endpoint:acme:travel:billing\""
  depends_on = [agentregistry_binding.planner, agentregistry_binding.anyone, agentregistry_binding.other]
}
data "agentregistry_available_bindings" "planner" {
  source     = "urn:agent:acme:travel:planner"
  target     = "urn:mcp:acme:travel:flights"
  depends_on = [agentregistry_binding.planner, agentregistry_binding.anyone, agentregistry_binding.other]
}
`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.agentregistry_bindings.all", tfjsonpath.New("bindings"), knownvalue.ListSizeExact(3)),
				statecheck.ExpectKnownValue("data.agentregistry_bindings.to_billing", tfjsonpath.New("bindings"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"binding_id": knownvalue.StringExact("other-billing")}),
				})),
				statecheck.ExpectKnownValue("data.agentregistry_available_bindings.planner", tfjsonpath.New("bindings"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"binding_id": knownvalue.StringExact("anyone-flights"), "source": knownvalue.StringExact("")}),
					knownvalue.ObjectPartial(map[string]knownvalue.Check{
						"binding_id": knownvalue.StringExact("planner-flights"),
						"scopes":     resStrings("flights.read"),
					}),
				})),
			},
		}, {Config: config, PlanOnly: true}},
	})
}

func TestAccBindingDataSources_errors(t *testing.T) {
	r := startRegistry(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{Config: r.config(`data "agentregistry_available_bindings" "x" {}`), ExpectError: regexp.MustCompile(`At least one of these attributes must be configured`)},
			{Config: r.config(`data "agentregistry_available_bindings" "x" { source = "urn:mcp:a:b:c" }`), ExpectError: regexp.MustCompile(`must be an agent URN`)},
			{Config: r.config(`data "agentregistry_bindings" "x" { filter = "nosuchfield:x" }`), ExpectError: regexp.MustCompile(`Invalid Search Query`)},
		},
	})
	r.expectNoWrites(t)
}
