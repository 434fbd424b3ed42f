# An A2A 0.3 agent card, validated at plan time. Its skill ids, URLs, version
# and A2A version are known at plan, so other resources can use them in the
# same run.
resource "agentregistry_agent" "currency" {
  service_id   = "currency-agent"
  display_name = "Currency Agent"
  description  = "Converts amounts between currencies."

  agent_card = jsonencode({
    protocolVersion    = "0.3.0"
    name               = "Currency Agent"
    description        = "Converts amounts between currencies."
    version            = "1.0.0"
    url                = "https://agents.example.com/currency"
    capabilities       = { streaming = false }
    defaultInputModes  = ["text/plain"]
    defaultOutputModes = ["text/plain"]
    skills = [{
      id          = "convert"
      name        = "Convert currency"
      description = "Converts an amount from one currency to another."
      tags        = ["currency", "fx"]
      examples    = ["How much is 100 USD in EUR?"]
    }]
  })
}

# A card kept in a file. jsonencode(jsondecode(...)) gives a canonical form,
# so reformatting the file never plans an update.
resource "agentregistry_agent" "travel" {
  service_id = "travel-planner"
  agent_card = jsonencode(jsondecode(file("${path.module}/cards/travel-planner.json")))

  timeouts {
    create = "5m"
  }
}

output "currency_skill_ids" {
  value = agentregistry_agent.currency.skill_ids # ["convert"]
}

# The card is stored once, as written: its full detail is one jsondecode away.
output "currency_skill_tags" {
  value = { for s in jsondecode(agentregistry_agent.currency.agent_card).skills : s.id => s.tags }
}

# An agent without a card, registered by its interfaces (agentSpec NO_SPEC).
# Exactly one of agent_card and interfaces is set; switching between them
# replaces the service. Its urls are the interfaces' URLs; skill_ids is empty.
resource "agentregistry_agent" "legacy" {
  service_id  = "legacy-agent"
  description = "An agent that serves no A2A card."
  interfaces = [{
    url              = "https://legacy.example.com/agent"
    protocol_binding = "HTTP_JSON"
  }]
}
