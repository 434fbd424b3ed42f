terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry", version = "~> 0.2" }
  }
}

# Tool specs kept in files, one per MCP server, by service id.
locals {
  tool_specs = {
    for f in fileset("${path.module}/tools", "*.json") : trimsuffix(f, ".json") => file("${path.module}/tools/${f}")
  }
  findings = provider::agentregistry::fleet_tool_findings(local.tool_specs)
}

# What only the fleet shows: a tool name that looks like another server's
# (fleet-confusable-name) or text naming another server's tool
# (fleet-cross-server-reference), besides each server's own findings.
output "cross_server_findings" {
  value = [for f in local.findings : "${f.service_id}: ${f.rule} (${f.severity}) ${f.tool}: ${f.message}" if startswith(f.rule, "fleet-")]
}
