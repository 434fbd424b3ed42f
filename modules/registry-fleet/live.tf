# The tools of the servers of live_tool_specs, read at plan from the running
# servers (through a client of the provider's mcp_oauth_clients, or inline OAuth
# credentials, when given) and registered by agentregistry_mcp_server.this like
# the other tool specs.
data "agentregistry_mcp_tool_spec" "live" {
  for_each = var.live_tool_specs

  url                 = each.value.url
  oauth_client        = each.value.oauth_client
  oauth               = each.value.oauth
  include_tools       = each.value.include_tools
  exclude_tools       = each.value.exclude_tools
  drop_output_schemas = each.value.drop_output_schemas
  timeout             = each.value.timeout
}

locals {
  live_tool_specs = {
    for id, live in var.live_tool_specs : id => {
      source     = "live_tool_specs[\"${id}\"]"
      canonical  = data.agentregistry_mcp_tool_spec.live[id].json
      interfaces = lookup(var.mcp_interfaces, id, [{ url = live.url, protocol_binding = "JSONRPC" }])
    }
  }
}
