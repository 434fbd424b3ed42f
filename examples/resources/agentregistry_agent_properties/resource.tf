# Google's App Hub fills the AgentProperties entry itself and serves it
# read-only: this resource needs a registry that accepts the write, such as
# the bundled server (make server, in a clone).
provider "agentregistry" {
  endpoint = "http://127.0.0.1:8787"
  project  = "local-project"
}

resource "agentregistry_agent_properties" "currency" {
  workload = "projects/local-project/locations/us-central1/applications/payments/workloads/currency-agent"

  properties = jsonencode({
    displayName  = "Currency Agent"
    description  = "Converts amounts between currencies."
    version      = "1.0.0"
    framework    = "google-adk"
    agentCardUri = "https://agents.example.com/currency/.well-known/agent-card.json"
    skills = [{
      id          = "convert"
      name        = "Convert currency"
      description = "Converts an amount from one currency to another."
      tags        = ["currency", "fx"]
    }]
  })
}
