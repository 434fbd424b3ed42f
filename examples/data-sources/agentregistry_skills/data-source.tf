# Every skill tagged "fx", with the agent that offers it and where to call it.
data "agentregistry_skills" "fx" {
  tags = ["fx"]
}

# Skills whose name or description mentions invoices, offered by agents whose
# display name starts with "billing"; at most 10.
data "agentregistry_skills" "invoices" {
  query       = "(skills.name:invoice OR skills.description:invoice*) AND displayName:billing*"
  max_results = 10
}

# Every matching skill's agent endpoint, keyed by agent and skill, for another module.
locals {
  fx_endpoints = {
    for s in data.agentregistry_skills.fx.skills : "${s.agent_id}/${s.id}" => s.agent_urls[0]
    if length(s.agent_urls) > 0
  }
}

output "fx_skills" {
  value = local.fx_endpoints
}

# Fail the plan when no agent offers the skill a workflow depends on.
check "currency_conversion_available" {
  assert {
    condition     = length(data.agentregistry_skills.fx.skills) > 0
    error_message = "No agent in the registry offers a skill tagged \"fx\"."
  }
}

# Standalone skills (registered with agentregistry_skill), ranked by relevance.
# Google's registry ranks SEMANTIC searches itself; the bundled server ranks
# them lexically (BM25 over id, names, descriptions and front matter).
data "agentregistry_skills" "pdf_standalone" {
  query       = "fill pdf forms"
  source      = "standalone"
  search_type = "SEMANTIC"
  max_results = 5
}

# Searching in the configuration that registers the agents: prefer
# provider::agentregistry::search_cards over the configuration's own cards (known
# at plan, usable in for_each, no spurious changes in drift reports). When a data
# source must read them, depends_on makes the first apply search after the agent
# exists (without it the search runs first, finds nothing, and the check fails);
# its result is then unknown at plan whenever the agent has a pending change, so
# never use it in for_each or count.
resource "agentregistry_agent" "fx" {
  service_id = "fx-agent"
  agent_card = jsonencode({
    name               = "FX agent"
    description        = "Converts amounts between currencies."
    version            = "1.0.0"
    url                = "https://fx.example.com/a2a"
    protocolVersion    = "0.3.0"
    defaultInputModes  = ["text/plain"]
    defaultOutputModes = ["text/plain"]
    capabilities       = {}
    skills = [{
      id          = "convert"
      name        = "Convert"
      description = "Converts an amount from one currency to another."
      tags        = ["fx-own"]
    }]
  })
}

data "agentregistry_skills" "own_fx" {
  tags       = ["fx-own"]
  depends_on = [agentregistry_agent.fx]
}

check "own_fx_registered" {
  assert {
    condition     = length(data.agentregistry_skills.own_fx.skills) == 1
    error_message = "The fx agent's skill is not found by the search."
  }
}
