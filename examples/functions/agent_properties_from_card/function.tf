terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry", version = "~> 0.2" }
  }
}

# Derive the App Hub AgentProperties of an agent from its A2A Agent Card, so
# the card stays the single source of truth.
locals {
  card = file("${path.module}/agent-card.json")

  properties = provider::agentregistry::agent_properties_from_card(
    local.card,
    "google-adk",
    "https://agents.example.com/currency/.well-known/agent-card.json", # optional agentCardUri
  )
}

resource "agentregistry_agent_properties" "currency" {
  workload   = "projects/my-project/locations/us-central1/applications/payments/workloads/currency-agent"
  properties = local.properties
}
