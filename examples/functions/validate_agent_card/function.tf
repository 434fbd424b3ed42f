terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry", version = "~> 0.2" }
  }
}

# Reject an invalid A2A Agent Card when the module is planned, before anything
# is sent to the registry.
variable "agent_card" {
  type        = string
  description = "The agent's A2A Agent Card (0.3 or 1.0), as JSON."

  validation {
    condition     = length(provider::agentregistry::validate_agent_card(var.agent_card)) == 0
    error_message = "agent_card is not a valid A2A Agent Card: ${join("; ", provider::agentregistry::validate_agent_card(var.agent_card))}"
  }
}

# Or list the problems of a card read from a file.
output "card_problems" {
  value = provider::agentregistry::validate_agent_card(file("${path.module}/agent-card.json"))
}
