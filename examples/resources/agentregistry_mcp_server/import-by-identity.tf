# Terraform 1.12+ or OpenTofu 1.12+: import by the resource identity.
import {
  to = agentregistry_mcp_server.weather
  identity = {
    service_id = "weather-mcp"
    # project  = "my-project" # optional: the provider's project
    # location = "global"     # optional: the provider's location
  }
}
