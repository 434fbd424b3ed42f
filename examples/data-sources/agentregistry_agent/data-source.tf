# By full resource name: the registry_resource of an agent registered
# elsewhere. Its last segment is the agent id, which the registry assigns: read
# it from registry_resource (or agent_id), never derive it from the service id.
variable "currency_agent_name" {
  description = "The registry_resource of the currency agent: projects/{project}/locations/{location}/agents/{agent_id}."
  type        = string
}

data "agentregistry_agent" "currency" {
  name = var.currency_agent_name
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
