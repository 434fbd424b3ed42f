# By full resource name, for instance the registry_resource of an agent
# registered elsewhere.
data "agentregistry_agent" "currency" {
  name = "projects/my-project/locations/global/agents/currency-agent"
}

# By the id of the service that registered it, in the provider's project and location.
data "agentregistry_agent" "travel" {
  service_id = "travel-agent"
}

output "currency_agent" {
  value = {
    version = data.agentregistry_agent.currency.version
    urls    = data.agentregistry_agent.currency.urls
    skills  = [for s in data.agentregistry_agent.currency.skills : s.name]
  }
}

output "travel_card" {
  value = jsondecode(data.agentregistry_agent.travel.card_json)
}
