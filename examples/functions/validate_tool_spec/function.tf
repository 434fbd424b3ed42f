terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry", version = "~> 0.2" }
  }
}

# A module input holding an MCP `tools/list` result, checked at plan time.
variable "tool_spec" {
  type        = string
  description = "The MCP server's tool spec (a tools/list result), as JSON."

  validation {
    condition     = length(provider::agentregistry::validate_tool_spec(var.tool_spec)) == 0
    error_message = "tool_spec is not a valid MCP tool spec: ${join("; ", provider::agentregistry::validate_tool_spec(var.tool_spec))}"
  }
}

locals {
  invoice_tools = jsonencode({
    tools = [{
      name        = "get_invoice"
      description = "Fetches an invoice by number."
      inputSchema = { type = "object", properties = { number = { type = "string" } }, required = ["number"] }
      annotations = { readOnlyHint = true }
    }]
  })
}

# A check block reports the problems as a warning without failing the run.
check "invoice_tools_are_valid" {
  assert {
    condition     = length(provider::agentregistry::validate_tool_spec(local.invoice_tools)) == 0
    error_message = "invoice_tools is invalid: ${join("; ", provider::agentregistry::validate_tool_spec(local.invoice_tools))}"
  }
}
