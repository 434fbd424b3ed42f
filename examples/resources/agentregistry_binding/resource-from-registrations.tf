# A binding between what the same configuration registers: an agent's agent_id
# and an MCP server's mcp_server_id are the URNs the registry gives them, which
# is what source and target take. They are known once the agent and the server
# are created, so their URN shape is checked at apply, not at plan.
resource "agentregistry_agent" "triage" {
  service_id = "ticket-triage"
  agent_card = jsonencode({
    name               = "Ticket triage"
    description        = "Sorts support tickets by urgency and team."
    version            = "1.0.0"
    url                = "https://triage.example.com/a2a"
    protocolVersion    = "0.3.0"
    defaultInputModes  = ["text/plain"]
    defaultOutputModes = ["text/plain"]
    capabilities       = {}
    skills = [{
      id          = "triage"
      name        = "Triage a ticket"
      description = "Reads a ticket and says how urgent it is and which team owns it."
      tags        = ["support"]
    }]
  })
}

resource "agentregistry_mcp_server" "tickets" {
  service_id = "tickets-mcp"
  interfaces = [{
    url              = "https://mcp.example.com/tickets"
    protocol_binding = "JSONRPC"
  }]
}

resource "agentregistry_binding" "triage_tickets" {
  binding_id = "triage-tickets"
  source     = agentregistry_agent.triage.agent_id
  target     = agentregistry_mcp_server.tickets.mcp_server_id
}

output "triage_binding" {
  value = { source = agentregistry_binding.triage_tickets.source, target = agentregistry_binding.triage_tickets.target }
}
