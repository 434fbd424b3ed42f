# An A2A 1.0 card kept in a file (cards/invoice-helper.json, shown below): it
# lists its endpoints in supportedInterfaces, each with its protocolBinding and
# protocolVersion, where an A2A 0.3 card has a top-level url and protocolVersion.
resource "agentregistry_agent" "invoices" {
  service_id = "invoice-helper"
  agent_card = jsonencode(jsondecode(file("${path.module}/cards/invoice-helper.json")))
}

output "invoices_a2a_version" {
  value = agentregistry_agent.invoices.a2a_version # "1.0"
}

output "invoices_urls" {
  value = agentregistry_agent.invoices.urls # the three supportedInterfaces URLs
}

# The App Hub AgentProperties of the same agent, derived from the card (the
# result is cards/invoice-helper.agent-properties.json, shown below). App Hub
# derives this entry itself from the deployed agent; the resource verifies
# (mode = "verify", the default) that App Hub holds what the card gives, writes
# nothing, and shows a later change in App Hub as drift.
resource "agentregistry_agent_properties" "invoices" {
  workload = "projects/my-project/locations/us-central1/applications/billing/workloads/invoice-helper"
  properties = provider::agentregistry::agent_properties_from_card(
    file("${path.module}/cards/invoice-helper.json"),
    "google-adk",
    "https://agents.example.com/invoices/.well-known/agent-card.json",
  )
}
