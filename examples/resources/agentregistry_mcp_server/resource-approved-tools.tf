# Register only the tools a team approved. The tool spec is read from the
# running server at every plan and compared with the reviewed lock
# (tools.lock.json, shown below, made by provider::agentregistry::tool_lock): a
# tool that is new, missing, or changed in any field since approval fails the
# plan, naming the tool and the field, and nothing is sent to the registry.
data "agentregistry_mcp_tool_spec" "billing" {
  url = "https://mcp.example.com/billing"
}

resource "agentregistry_mcp_server" "billing" {
  service_id     = "billing-mcp"
  tool_spec      = data.agentregistry_mcp_tool_spec.billing.json
  approved_tools = file("${path.module}/tools.lock.json")
  # approval_policy = "warn" reports the same differences without failing.
}

# Each tool's SHA-256 over its RFC 8785 form, known at plan: the sha256 of the
# tool in the lock.
output "billing_tool_digests" {
  value = agentregistry_mcp_server.billing.tool_digests
}
