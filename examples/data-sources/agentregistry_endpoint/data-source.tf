data "agentregistry_endpoint" "billing" {
  service_id = "billing-api"
}

output "billing_urls" {
  value = data.agentregistry_endpoint.billing.urls
}
