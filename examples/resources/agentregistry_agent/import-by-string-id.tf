import {
  to = agentregistry_agent.currency
  id = "projects/my-project/locations/global/services/currency-agent"
}
