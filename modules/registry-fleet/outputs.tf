output "agents" {
  description = "The registered agents, by service id: `name` (the service's resource name), `registry_resource` (the derived Agent record), `agent_id`, `skill_ids`, `urls`, `version` and `a2a_version`. Skill ids, URLs and versions are known at plan."
  value = {
    for id, a in agentregistry_agent.this : id => {
      name              = a.name
      registry_resource = a.registry_resource
      agent_id          = a.agent_id
      skill_ids         = a.skill_ids
      urls              = a.urls
      version           = a.version
      a2a_version       = a.a2a_version
    }
  }
}

output "mcp_servers" {
  description = "The registered MCP servers, by service id: `name`, `registry_resource` (the derived McpServer record), `mcp_server_id`, `tool_names` and `tool_digests` (each tool's SHA-256 over its RFC 8785 form, as in a lock; both known at plan)."
  value = {
    for id, s in agentregistry_mcp_server.this : id => {
      name              = s.name
      registry_resource = s.registry_resource
      mcp_server_id     = s.mcp_server_id
      tool_names        = s.tool_names
      tool_digests      = s.tool_digests
    }
  }
}

output "skills" {
  description = "Every skill of every agent, one element per skill, in service id then card order: `id` (the skill id), `service_id`, and the agent's `agent_id`, `agent_name` (its registry resource) and `agent_urls`: the same field names as the skills of the `agentregistry_skills` data source."
  value = flatten([
    for id in sort(keys(agentregistry_agent.this)) : [
      for s in agentregistry_agent.this[id].skill_ids : {
        id         = s
        service_id = id
        agent_id   = agentregistry_agent.this[id].agent_id
        agent_name = agentregistry_agent.this[id].registry_resource
        agent_urls = agentregistry_agent.this[id].urls
      }
    ]
  ])
}

output "agent_properties" {
  description = "The workloads whose AgentProperties the module declares (verifies, or writes in write mode), each with the service id of its card."
  value       = { for w, p in var.agent_properties : w => trimsuffix(p.card, ".json") }
}

output "tool_findings" {
  description = "What `provider::agentregistry::fleet_tool_findings` finds in the tool specs the module registers, every severity: each finding's `service_id`, `tool`, `pointer` (RFC 6901, into that server's tool spec), `rule`, `severity` (`high`, `medium`, `low`) and `message`. Known at plan for specs known at plan."
  value       = local.tool_findings
}
