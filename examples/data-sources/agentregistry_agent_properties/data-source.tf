# The AgentProperties that App Hub keeps for a workload (Google fills it itself).
data "agentregistry_agent_properties" "invoices" {
  workload = "projects/my-project/locations/us-central1/applications/billing/workloads/invoice-helper"
}

output "invoice_agent" {
  value = data.agentregistry_agent_properties.invoices.exists ? {
    version   = data.agentregistry_agent_properties.invoices.version
    framework = data.agentregistry_agent_properties.invoices.framework
    skills    = [for s in data.agentregistry_agent_properties.invoices.skills : s.id]
  } : null
}
