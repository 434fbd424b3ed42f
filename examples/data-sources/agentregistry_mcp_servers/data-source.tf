# MCP servers that expose a tool whose name contains "file".
data "agentregistry_mcp_servers" "files" {
  query = "tools.name:file*"
}

# Read-only tools only, with the endpoint of their server.
output "read_only_tools" {
  value = flatten([
    for m in data.agentregistry_mcp_servers.files.mcp_servers : [
      for t in m.tools : {
        server = m.mcp_server_id
        url    = try(m.urls[0], null)
        tool   = t.name
      } if t.read_only_hint
    ]
  ])
}

# Every MCP server of the provider's project and location: omit query.
data "agentregistry_mcp_servers" "all" {}

output "mcp_server_services" {
  value = [for s in data.agentregistry_mcp_servers.all.mcp_servers : s.service_id]
}
