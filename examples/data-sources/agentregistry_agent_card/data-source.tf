# Read the card the agent serves, at plan time: from its base URL the card is
# found at /.well-known/agent-card.json (or /.well-known/agent.json, A2A 0.2).
data "agentregistry_agent_card" "currency" {
  url     = "https://agents.example.com/currency"
  timeout = "5s"

  # For an agent whose card needs credentials. Sensitive: never logged, and
  # sent only to the host of url.
  headers = {
    Authorization = "Bearer ${var.card_token}"
  }

  # Demand a signature by one of the provider's trusted_keys for this card.
  signature_policy = "require"
}

variable "card_token" {
  type      = string
  sensitive = true
}

# Register exactly what runs: a change of the live card shows in the plan as
# an update of agent_card.
resource "agentregistry_agent" "currency" {
  service_id = "currency-agent"
  agent_card = data.agentregistry_agent_card.currency.json
}

output "currency_card" {
  value = {
    sha256           = data.agentregistry_agent_card.currency.sha256
    a2a_version      = data.agentregistry_agent_card.currency.a2a_version
    skill_ids        = data.agentregistry_agent_card.currency.skill_ids
    url_fetched      = data.agentregistry_agent_card.currency.url_fetched
    verified_key_ids = data.agentregistry_agent_card.currency.verified_key_ids
  }
}

# An A2A 1.0 agent's authenticated extended card (more skills than its public
# card shows), read with a token from the authorization server its card's
# security scheme names, by a client of the provider's mcp_oauth_clients.
data "agentregistry_agent_card" "ledger" {
  url          = "https://agents.example.com"
  extended     = true
  oauth_client = "agents"
}

resource "agentregistry_agent" "ledger" {
  service_id = "ledger-agent"
  agent_card = data.agentregistry_agent_card.ledger.json
}
