terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry", version = "~> 0.2" }
  }
}

# AgentProperties forbids unknown keys: a misspelt key is reported, not dropped.
variable "agent_properties" {
  type        = string
  description = "App Hub AgentProperties metadata, as JSON."
  default     = <<-EOT
    {
      "displayName": "Invoice Helper",
      "description": "Answers questions about invoices.",
      "version": "2.1.0",
      "framework": "google-adk",
      "skills": [
        {
          "id": "lookup-invoice",
          "name": "Look up an invoice",
          "description": "Finds an invoice by number or customer.",
          "tags": ["billing"]
        }
      ]
    }
  EOT

  validation {
    condition     = length(provider::agentregistry::validate_agent_properties(var.agent_properties)) == 0
    error_message = "agent_properties is invalid: ${join("; ", provider::agentregistry::validate_agent_properties(var.agent_properties))}"
  }
}
