# The workload that runs the currency agent: verify mode checks that App Hub
# holds the AgentProperties that currency-agent.json gives.
agent_properties = {
  "projects/fleet-demo/locations/global/applications/payments/workloads/currency-agent" = {
    card      = "currency-agent.json"
    framework = "google-adk"
  }
}
