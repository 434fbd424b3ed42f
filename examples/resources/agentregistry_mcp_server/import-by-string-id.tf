import {
  to = agentregistry_mcp_server.weather
  id = "projects/my-project/locations/global/services/weather-mcp"
}
