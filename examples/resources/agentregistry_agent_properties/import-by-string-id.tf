import {
  to = agentregistry_agent_properties.currency
  id = "projects/my-project/locations/us-central1/applications/payments/workloads/currency-agent"
}
