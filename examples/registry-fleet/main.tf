# Registers every agent card in ./cards and every MCP tool spec in ./tool-specs
# with one module call. A bad file fails `plan` with the file named; file names
# (without .json) are the service ids. It applies as it is against the bundled
# server as `make server` starts it (guide "Register a fleet from a folder").
terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry" }
  }
}

provider "agentregistry" {
  endpoint = "http://127.0.0.1:8787" # the bundled server; omit for Google's
  project  = "fleet-demo"
}

# App Hub derives each workload's AgentProperties from the deployed agent, and
# the module verifies that App Hub holds what the card gives, writing nothing
# (agent_properties_mode = "verify", the default). None by default: the
# bundled server, like Google's App Hub, holds a workload only once an agent is
# deployed, and takes no write. verify-app-hub.tfvars names the currency
# agent's workload: a plan with it warns that the apply would fail.
variable "agent_properties" {
  description = "App Hub AgentProperties to verify, by full workload name: the module's agent_properties input."
  type = map(object({
    card      = string
    framework = optional(string, "custom")
  }))
  default = {}
}

module "fleet" {
  source = "../../modules/registry-fleet"

  cards_dir      = "${path.module}/cards"      # currency-agent.json, travel-planner.json
  tool_specs_dir = "${path.module}/tool-specs" # weather-tools.json + weather-tools.interfaces.json

  display_names = {
    weather-tools = "Weather tools"
  }
  descriptions = {
    currency-agent = "Owned by the treasury team."
  }

  agent_properties = var.agent_properties
}

# Skill ids per agent, known at plan.
output "skill_ids" {
  value = { for id, a in module.fleet.agents : id => a.skill_ids }
}

# Every skill with the agent that offers it, for wiring an orchestrator.
output "skills" {
  value = module.fleet.skills
}

output "weather_tools" {
  value = module.fleet.mcp_servers["weather-tools"].tool_names
}
