# Every binding towards the flights MCP server.
data "agentregistry_bindings" "to_flights" {
  filter = "target.identifier=\"urn:mcp:acme:travel:flights\""
}

output "flights_binding_ids" {
  value = [for b in data.agentregistry_bindings.to_flights.bindings : b.binding_id]
}
