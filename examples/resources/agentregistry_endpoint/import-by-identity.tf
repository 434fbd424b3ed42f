# Terraform 1.12+ or OpenTofu 1.12+: import by the resource identity.
import {
  to = agentregistry_endpoint.billing
  identity = {
    service_id = "billing-api"
    # project  = "my-project" # optional: the provider's project
    # location = "global"     # optional: the provider's location
  }
}
