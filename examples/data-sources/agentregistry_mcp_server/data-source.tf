# By the id of the service that registered it, in the provider's project and location.
data "agentregistry_mcp_server" "weather" {
  service_id = "weather-mcp"
}

output "weather_tools" {
  value = [for t in data.agentregistry_mcp_server.weather.tools : t.name if t.read_only_hint]
}
