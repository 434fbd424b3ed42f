package provider

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
)

// Without query, agentregistry_agents and agentregistry_mcp_servers list
// everything, and each result names the service that registered it, as an
// import block by identity takes it.
func TestAccSearchDataSources_everythingWithServiceIDs(t *testing.T) {
	r := startRegistry(t)
	seedCatalog(r)
	ids := func(serviceIDs ...string) knownvalue.Check {
		checks := []knownvalue.Check{}
		for _, id := range serviceIDs {
			checks = append(checks, knownvalue.ObjectExact(map[string]knownvalue.Check{
				"service_id": knownvalue.StringExact(id),
				"project":    knownvalue.StringExact("test-project"),
				"location":   knownvalue.StringExact("global"),
			}))
		}
		return knownvalue.ListExact(checks)
	}
	resource.Test(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: r.config(`
data "agentregistry_agents" "all" {}
data "agentregistry_mcp_servers" "all" {}
data "agentregistry_agents" "fx" {
  query = "skills.tags=fx"
}

output "agents" {
  value = [for a in data.agentregistry_agents.all.agents : { service_id = a.service_id, project = a.project, location = a.location }]
}
output "fx" {
  value = [for a in data.agentregistry_agents.fx.agents : { service_id = a.service_id, project = a.project, location = a.location }]
}
output "mcp_servers" {
  value = [for s in data.agentregistry_mcp_servers.all.mcp_servers : { service_id = s.service_id, project = s.project, location = s.location }]
}
`),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownOutputValue("agents", ids("currency-agent", "travel-agent", "weather-agent")),
				statecheck.ExpectKnownOutputValue("fx", ids("currency-agent", "travel-agent")),
				statecheck.ExpectKnownOutputValue("mcp_servers", ids("files-mcp")),
			},
		}},
	})
}
