# The configuration that `terraform query` runs in: the provider, pointed at
# the registry to adopt. `terraform query -generate-config-out=generated.tf`
# writes the import blocks and resources next to it (see the guide "Adopt an
# existing registry").
terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry", version = "~> 0.2" }
  }
}

provider "agentregistry" {
  endpoint = "http://127.0.0.1:8787" # the bundled server; omit for Google's
  project  = "adopt-demo"
}
