# By full service name:
terraform import agentregistry_endpoint.billing projects/my-project/locations/global/services/billing-api

# By service_id, in the provider's project and location:
terraform import agentregistry_endpoint.billing billing-api
