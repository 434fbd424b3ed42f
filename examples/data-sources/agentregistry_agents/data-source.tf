# All agents that offer a travel skill, ordered by name.
data "agentregistry_agents" "travel" {
  query = "skills.tags=travel"
}

# The newest card of each agent, decoded.
output "travel_agents" {
  value = {
    for a in data.agentregistry_agents.travel.agents : a.agent_id => {
      version = a.version
      urls    = a.urls
      skills  = [for s in a.skills : s.id]
      streams = try(jsondecode(a.card_json).capabilities.streaming, false)
    }
  }
}

# Search another project and location than the provider's.
data "agentregistry_agents" "staging" {
  query       = "displayName:currency*"
  project     = "my-staging-project"
  location    = "us-central1"
  max_results = 5
}

# Every agent of the provider's project and location: omit query. Each result
# names the service that registered it (service_id, project, location), the
# identity an import block takes.
data "agentregistry_agents" "all" {}

output "registering_services" {
  value = { for a in data.agentregistry_agents.all.agents : a.agent_id => "${a.project}/${a.location}/${a.service_id}" }
}
