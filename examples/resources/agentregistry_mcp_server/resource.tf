# An MCP server with its tool spec (a tools/list result), validated at plan time.
resource "agentregistry_mcp_server" "weather" {
  service_id   = "weather-mcp"
  display_name = "Weather tools"

  interfaces = [{
    url              = "https://mcp.example.com/weather"
    protocol_binding = "JSONRPC"
  }]

  tool_spec = jsonencode({
    tools = [{
      name        = "get_forecast"
      title       = "Get forecast"
      description = "Returns the weather forecast for a city."
      inputSchema = {
        type       = "object"
        properties = { city = { type = "string" } }
        required   = ["city"]
      }
      annotations = { readOnlyHint = true, openWorldHint = true }
    }]
  })
}

# Without tool_spec the server is registered with no spec (NO_SPEC). Adding or
# removing tool_spec later replaces the service: the registry fixes the spec type.
resource "agentregistry_mcp_server" "search" {
  service_id = "search-mcp"
  interfaces = [{
    url              = "https://mcp.example.com/search"
    protocol_binding = "HTTP_JSON"
  }]
}

output "weather_tool_names" {
  value = agentregistry_mcp_server.weather.tool_names
}

# A tool's annotations are one jsondecode away (MCP's default for a missing
# readOnlyHint is false).
output "read_only_tools" {
  value = [
    for t in jsondecode(agentregistry_mcp_server.weather.tool_spec).tools :
    t.name if try(t.annotations.readOnlyHint, false)
  ]
}
