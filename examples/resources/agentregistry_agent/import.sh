# By full service name:
terraform import agentregistry_agent.currency projects/my-project/locations/global/services/currency-agent

# By service_id, in the provider's project and location:
terraform import agentregistry_agent.currency currency-agent
