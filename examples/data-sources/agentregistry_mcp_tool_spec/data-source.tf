# List the tools a running MCP server offers, at plan time (initialize, then
# tools/list through every page), shaped to fit the registry's 10 KB limit.
data "agentregistry_mcp_tool_spec" "weather" {
  url = "https://mcp.example.com/weather"

  include_tools       = ["get_*", "search"] # names, or a prefix and one trailing *
  exclude_tools       = ["get_debug_info"]
  drop_output_schemas = true

  headers = {
    Authorization = "Bearer ${var.mcp_token}"
  }
}

variable "mcp_token" {
  type      = string
  sensitive = true
}

resource "agentregistry_mcp_server" "weather" {
  service_id = "weather-mcp"
  interfaces = [{
    url              = "https://mcp.example.com/weather"
    protocol_binding = "JSONRPC"
  }]
  tool_spec = data.agentregistry_mcp_tool_spec.weather.json
}

# A server that speaks only the older HTTP+SSE transport (MCP 2024-11-05).
data "agentregistry_mcp_tool_spec" "legacy" {
  url       = "https://legacy.example.com/sse"
  transport = "sse"
}

# A server published on npm, started as a process that speaks MCP over its
# stdin and stdout. It runs on every plan and refresh that reads it: pin its
# version, and make sure CI has node (and the package, or npm access).
data "agentregistry_mcp_tool_spec" "memory" {
  command = ["npx", "-y", "@modelcontextprotocol/server-memory@2026.8.31"]
  env = {
    MEMORY_FILE_PATH = "/tmp/memory.jsonl"
  }
  timeout             = "1m"
  drop_output_schemas = true
}

output "weather_server" {
  value = {
    name             = data.agentregistry_mcp_tool_spec.weather.server_name
    version          = data.agentregistry_mcp_tool_spec.weather.server_version
    protocol_version = data.agentregistry_mcp_tool_spec.weather.protocol_version
    tool_names       = data.agentregistry_mcp_tool_spec.weather.tool_names
  }
}
