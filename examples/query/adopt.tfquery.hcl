# Everything the registry holds, one list block per kind. Terraform lists at
# most `limit` results per block (100 when it is not set).
list "agentregistry_agent" "agents" {
  provider = agentregistry
  limit    = 1000
}

list "agentregistry_mcp_server" "mcp_servers" {
  provider = agentregistry
  limit    = 1000
}

list "agentregistry_endpoint" "endpoints" {
  provider = agentregistry
  limit    = 1000
}

list "agentregistry_binding" "bindings" {
  provider = agentregistry
  limit    = 1000
}

list "agentregistry_skill" "skills" {
  provider = agentregistry
  limit    = 1000
}
