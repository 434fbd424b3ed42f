resource "agentregistry_agent" "card03" {
  service_id   = "upgrade-agent-03"
  display_name = "Currency"
  agent_card = jsonencode({
    name = "Currency Agent", description = "Converts currencies.", version = "1.2.0",
    url = "https://agents.example.com/currency", protocolVersion = "0.3.0",
    capabilities = {}, defaultInputModes = ["text/plain"], defaultOutputModes = ["text/plain"],
    additionalInterfaces = [{ url = "https://agents.example.com/currency/grpc", transport = "GRPC" }],
    skills = [
      { id = "convert", name = "Convert", description = "Converts an amount.", tags = ["fx", "currency"], examples = ["100 USD to EUR"] },
      { id = "rates", name = "Rates", description = "Lists exchange rates.", tags = ["fx"] },
    ]
  })
  timeouts {
    create = "5m"
  }
}

resource "agentregistry_agent" "card10" {
  service_id = "upgrade-agent-10"
  agent_card = <<-JSON
  {
    "name": "Travel Planner",
    "description": "Plans trips.",
    "version": "2.0.0",
    "supportedInterfaces": [{"url": "https://agents.example.com/travel", "protocolBinding": "JSONRPC", "protocolVersion": "1.0"}],
    "capabilities": {},
    "defaultInputModes": ["text/plain"],
    "defaultOutputModes": ["text/plain"],
    "skills": [{"id": "plan", "name": "Plan", "description": "Plans a trip.", "tags": ["travel"]}]
  }
  JSON
}

resource "agentregistry_mcp_server" "tools" {
  service_id = "upgrade-mcp"
  tool_spec = jsonencode({ tools = [
    { name = "get_forecast", description = "Forecast.", inputSchema = { type = "object" } },
    { name = "get_alerts", inputSchema = { type = "object" }, annotations = { readOnlyHint = true } },
  ] })
  interfaces = [{ url = "https://mcp.example.com/weather", protocol_binding = "JSONRPC" }]
}

resource "agentregistry_mcp_server" "bare" {
  service_id = "upgrade-mcp-bare"
  interfaces = [{ url = "https://mcp.example.com/bare", protocol_binding = "JSONRPC" }]
}
