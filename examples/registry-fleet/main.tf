# Registers every agent card in ./cards and every MCP tool spec in ./tool-specs
# with one module call. A bad file fails `plan` with the file named; file names
# (without .json) are the service ids.
terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry" }
  }
}

provider "agentregistry" {
  endpoint = "http://127.0.0.1:8787" # the bundled server; omit for Google's
  project  = "my-project"
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

  # App Hub derives each workload's AgentProperties from the deployed agent:
  # the module verifies that App Hub holds what the card gives and writes
  # nothing (agent_properties_mode = "verify", the default).
  agent_properties = {
    "projects/my-project/locations/global/applications/payments/workloads/currency-agent" = {
      card      = "currency-agent.json"
      framework = "google-adk"
    }
  }
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
