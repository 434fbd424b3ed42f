# The MCP servers that have a forecast tool, with the whole resource.
list "agentregistry_mcp_server" "weather" {
  provider         = agentregistry
  include_resource = true

  config {
    query = "tools.name:forecast"
  }
}
