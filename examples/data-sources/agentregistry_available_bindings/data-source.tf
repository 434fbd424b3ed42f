# The bindings the planner agent can use to reach the flights MCP server.
data "agentregistry_available_bindings" "planner" {
  source = "urn:agent:acme:travel:planner"
  target = "urn:mcp:acme:travel:flights"
}

output "planner_auth_providers" {
  value = distinct([for b in data.agentregistry_available_bindings.planner.bindings : b.auth_provider if b.auth_provider != ""])
}
