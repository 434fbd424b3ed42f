# In CI: read an MCP server behind OAuth with a client of the provider block.
# Its secret comes from an ephemeral variable (TF_VAR_weather_client_secret,
# from the CI's secret store), given to each command: no state, saved plan or
# `show -json` holds it. The data source names the client only.
variable "weather_client_secret" {
  type      = string
  ephemeral = true
}

provider "agentregistry" {
  project = "my-project"
  mcp_oauth_clients = {
    weather = {
      client_id     = "registry-drift"
      client_secret = var.weather_client_secret # or private_key, for private_key_jwt
      scopes        = ["tools.read"]            # optional
    }
  }
}

data "agentregistry_mcp_tool_spec" "weather_ci" {
  url          = "https://mcp.example.com/weather"
  oauth_client = "weather"
}
