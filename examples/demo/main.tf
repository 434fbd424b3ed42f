# The demo that `make demo` applies against the bundled registry server.
terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry", version = "~> 0.2" }
  }
}

variable "endpoint" {
  description = "Base URL of the registry (the bundled server started by scripts/demo.sh)."
  type        = string
}

provider "agentregistry" {
  endpoint = var.endpoint
  project  = "demo-project"
}

locals {
  cards = {
    # jsonencode(jsondecode(...)) is the canonical form: reformatting a file
    # never plans an update.
    currency-agent = jsonencode(jsondecode(file("${path.module}/cards/currency-agent.json")))
    travel-planner = jsonencode(jsondecode(file("${path.module}/cards/travel-planner.json")))
    code-reviewer  = jsonencode(jsondecode(file("${path.module}/cards/code-reviewer.json")))
  }
}

# Three agents, each validated at plan time against the A2A schema of its version.
resource "agentregistry_agent" "agents" {
  for_each = local.cards

  service_id   = each.key
  display_name = jsondecode(each.value).name
  agent_card   = each.value
}

# An MCP server registered with its tool spec (a tools/list result).
resource "agentregistry_mcp_server" "weather" {
  service_id   = "weather-tools"
  display_name = "Weather tools"
  tool_spec    = jsonencode(jsondecode(file("${path.module}/weather-tools.json")))
  interfaces = [{
    url              = "https://mcp.example.com/weather"
    protocol_binding = "JSONRPC"
  }]
}

# App Hub AgentProperties of the workload that runs the currency agent, derived
# from its card. App Hub derives this entry itself from the deployed agent, so
# the resource verifies it (mode = "verify", the default): it writes nothing,
# fails naming each field that differs, and shows App Hub's later changes as
# drift. scripts/demo.sh seeds the bundled server with what App Hub would derive.
resource "agentregistry_agent_properties" "currency" {
  workload = "projects/demo-project/locations/global/applications/payments/workloads/currency-agent"
  properties = provider::agentregistry::agent_properties_from_card(
    local.cards["currency-agent"], "google-adk", "https://agents.example.com/currency/.well-known/agent-card.json"
  )
}

# Skill search among the cards this configuration registers: every skill that
# matches "currency" and is tagged "finance". search_cards is known at plan, so
# it could drive for_each and the drift job stays quiet; the agentregistry_skills
# data source is for agents that other configurations registered.
locals {
  currency_skills = provider::agentregistry::search_cards(local.cards, "currency AND skills.tags=finance")
}

output "currency_skills" {
  description = "Skills that deal with currencies, with the agent that offers each."
  value = flatten([for k, m in local.currency_skills : [for s in m.skills : {
    skill = s.name
    agent = jsondecode(local.cards[k]).name
    urls  = agentregistry_agent.agents[k].urls
  }]])
}

output "agent_skill_ids" {
  description = "Skill ids per agent, computed from the cards at plan time."
  value       = { for k, a in agentregistry_agent.agents : k => a.skill_ids }
}

output "weather_tools" {
  value = agentregistry_mcp_server.weather.tool_names
}
