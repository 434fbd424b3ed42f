terraform {
  # Provider-defined functions (provider::agentregistry::validate_*) need
  # Terraform 1.8 or OpenTofu 1.8 or later.
  required_version = ">= 1.8"

  required_providers {
    agentregistry = {
      source = "agentregistry/agentregistry"
    }
  }
}
