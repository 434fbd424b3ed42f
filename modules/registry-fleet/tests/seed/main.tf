# Seeds the bundled registry server with the AgentProperties that App Hub would
# derive from a deployed agent's card. Google's App Hub never accepts this
# write; the bundled server does only because scripts/test-modules.sh starts it
# with -apphub-writable. The module under test then verifies the entry
# (agent_properties_mode = "verify", its default), as it would against Google.
terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry" }
  }
}

variable "workload" {
  description = "Full name of the App Hub workload to seed."
  type        = string
}

variable "card_file" {
  description = "Path of the deployed agent's card, from the module's root."
  type        = string
}

variable "framework" {
  description = "The agent's framework, as App Hub would report it."
  type        = string
}

resource "agentregistry_agent_properties" "derived" {
  workload   = var.workload
  mode       = "write"
  properties = provider::agentregistry::agent_properties_from_card(file(var.card_file), var.framework)
}
