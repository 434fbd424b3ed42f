terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry", version = "~> 0.2" }
  }
}

# The tools an MCP server offers now, read at plan time.
data "agentregistry_mcp_tool_spec" "billing" {
  url = "https://mcp.example.com/billing"
}

locals {
  findings = provider::agentregistry::tool_findings(data.agentregistry_mcp_tool_spec.billing.json)
}

# Every finding, one a line: severity, rule, where in the spec, and what.
output "tool_findings" {
  value = [for f in local.findings : "${f.severity} ${f.rule} ${f.tool} ${f.pointer}: ${f.message}"]
}

# A gate of your own: no high finding, or the plan stops here.
check "no_poisoned_tools" {
  assert {
    condition     = length([for f in local.findings : f if f.severity == "high"]) == 0
    error_message = "The billing server's tools ask too much of the model: ${join("; ", [for f in local.findings : "${f.rule} at ${f.pointer}" if f.severity == "high"])}"
  }
}
