# The test files' provider blocks name "agentregistry"; OpenTofu resolves that
# name in every run's module, this one included, so the module says which
# provider it means (without it, OpenTofu looks for hashicorp/agentregistry).
terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry" }
  }
}
