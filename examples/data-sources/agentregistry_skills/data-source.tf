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
