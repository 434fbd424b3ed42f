# Terraform 1.12+ or OpenTofu 1.12+: import by the resource identity.
import {
  to = agentregistry_agent_properties.currency
  identity = {
    workload = "projects/my-project/locations/us-central1/applications/payments/workloads/currency-agent"
  }
}
