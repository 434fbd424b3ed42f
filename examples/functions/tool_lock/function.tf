terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry", version = "~> 0.2" }
  }
}

# The tools an MCP server offers now, read at plan time.
data "agentregistry_mcp_tool_spec" "billing" {
  url = "https://mcp.example.com/billing"
}

# The lock of those tools: each tool's definition in RFC 8785 form and its
# SHA-256. Save it for review with
#   terraform apply && terraform output -raw tool_lock > tools.lock.json
# and pass the file to agentregistry_mcp_server.approved_tools.
output "tool_lock" {
  value = provider::agentregistry::tool_lock(data.agentregistry_mcp_tool_spec.billing.json)
}

# A lock of a tool spec kept in a file works the same way.
output "file_tool_lock" {
  value = provider::agentregistry::tool_lock(jsonencode({
    tools = [{
      name        = "get_invoice"
      description = "Fetches an invoice by number."
      inputSchema = { type = "object", properties = { number = { type = "string" } }, required = ["number"] }
    }]
  }))
}
