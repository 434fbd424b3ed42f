# In CI: read MCP servers behind OAuth with clients of the provider block. A
# secret comes from an ephemeral variable (TF_VAR_weather_client_secret, from
# the CI's secret store), given to each command: no state, saved plan or
# `show -json` holds it. The data sources name the clients only.
variable "weather_client_secret" {
  type      = string
  ephemeral = true
}

variable "mcp_token_file" {
  type    = string
  default = "/var/run/secrets/tokens/mcp-token" # a Kubernetes projected token
}

variable "id_token" {
  type      = string
  ephemeral = true
}

provider "agentregistry" {
  project = "my-project"
  mcp_oauth_clients = {
    # A client secret (or private_key, for private_key_jwt): the client
    # credentials grant.
    weather = {
      client_id     = "registry-drift"
      client_secret = var.weather_client_secret
      scopes        = ["tools.read"] # optional
    }
    # No secret at all: the job's own workload identity token, which the
    # authorization server trusts by its issuer (a jwt-bearer grant), read
    # from the file the platform writes, at each token request.
    workload = {
      assertion_file = var.mcp_token_file
      issuer         = "https://auth.example.com" # the one authorization server it may go to
    }
    # A person's enterprise sign-on: their ID token, exchanged at the
    # identity provider for an identity assertion for the MCP server.
    sso = {
      client_id     = "registry-drift"
      client_secret = var.weather_client_secret
      identity_provider = {
        issuer    = "https://login.example.com"
        client_id = "registry-cli"
        id_token  = var.id_token
      }
    }
  }
}

data "agentregistry_mcp_tool_spec" "weather_ci" {
  url          = "https://mcp.example.com/weather"
  oauth_client = "weather"
}

data "agentregistry_mcp_tool_spec" "deploy_ci" {
  url          = "https://mcp.example.com/deploy"
  oauth_client = "workload"
}
