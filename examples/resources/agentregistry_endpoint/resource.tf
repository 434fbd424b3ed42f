# An API that is neither an A2A agent nor an MCP server, registered by its
# interfaces so that bindings and consumers can find it.
resource "agentregistry_endpoint" "billing" {
  service_id   = "billing-api"
  display_name = "Billing API"
  description  = "Invoices and payments."

  interfaces = [
    { url = "https://billing.example.com/v1", protocol_binding = "HTTP_JSON" },
    { url = "https://billing.example.com/grpc", protocol_binding = "GRPC" },
  ]
}

output "billing_endpoint" {
  value = agentregistry_endpoint.billing.registry_resource
}
