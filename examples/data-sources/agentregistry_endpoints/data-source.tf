# Every endpoint whose display name is "Billing API" (the API's AIP-160 filter).
data "agentregistry_endpoints" "billing" {
  filter = "displayName=\"Billing API\""
}

output "billing_endpoint_names" {
  value = [for e in data.agentregistry_endpoints.billing.endpoints : e.name]
}
