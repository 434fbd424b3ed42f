# By full service name:
terraform import agentregistry_mcp_server.weather projects/my-project/locations/global/services/weather-mcp

# By service_id, in the provider's project and location:
terraform import agentregistry_mcp_server.weather weather-mcp
