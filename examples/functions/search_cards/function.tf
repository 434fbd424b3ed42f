terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry", version = "~> 0.2" }
  }
}

# The cards this configuration registers, keyed by service id.
locals {
  cards = {
    for f in fileset("${path.module}/cards", "*.json") :
    trimsuffix(f, ".json") => jsonencode(jsondecode(file("${path.module}/cards/${f}")))
  }
}

resource "agentregistry_agent" "fleet" {
  for_each   = local.cards
  service_id = each.key
  agent_card = each.value
}

# Find among what this configuration registers: the result is known at plan,
# so it drives for_each, and a plan after apply stays empty (a data source
# with depends_on would defer its read, and everything that uses it, to apply
# whenever one of these agents has a pending change).
locals {
  support_skills = provider::agentregistry::search_cards(local.cards, "skills.tags=support AND NOT displayName:\"support desk\"")
}

# The support desk may call every other agent with a support skill.
resource "agentregistry_binding" "support_desk_to" {
  for_each   = local.support_skills
  binding_id = "support-desk-to-${each.key}"
  source     = agentregistry_agent.fleet["support-desk"].agent_id
  target     = agentregistry_agent.fleet[each.key].agent_id
}

output "support_skills" {
  # { "order-tracker" = ["track-order"] }
  value = { for k, v in local.support_skills : k => v.skill_ids }
}
