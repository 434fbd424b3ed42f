import {
  to = agentregistry_endpoint.billing
  id = "projects/my-project/locations/global/services/billing-api"
}
