# App Hub derives a workload's AgentProperties from the deployed agent's card
# and serves them read-only. The resource declares what App Hub must hold and
# verifies it (mode = "verify", the default): create and update write nothing
# and fail, naming each field, when App Hub holds something else; a later
# change in App Hub shows as drift in the next plan; destroy forgets.
# agent_properties_from_card derives the document from a card, as App Hub does.
provider "agentregistry" {
  project = "my-project"
}

resource "agentregistry_agent_properties" "currency" {
  workload = "projects/my-project/locations/us-central1/applications/payments/workloads/currency-agent"

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

# Against a registry that accepts the write, such as the bundled server
# started with -apphub-writable in a module's tests, mode = "write" writes the
# entry instead; it is refused at plan while the App Hub endpoint is Google's:
#
#   mode = "write"
