# Every agent of the provider's project and location, with and without a card.
list "agentregistry_agent" "all" {
  provider = agentregistry
}

# The agents with a finance skill, in the grammar of the agentregistry_agents
# data source, narrowed by a services.list filter.
list "agentregistry_agent" "finance" {
  provider = agentregistry
  limit    = 500

  config {
    query  = "skills.tags:finance"
    filter = "display_name:desk"
  }
}
