# The planner agent reaches the flights MCP server through an OAuth auth provider.
resource "agentregistry_binding" "planner_flights" {
  binding_id   = "planner-flights"
  display_name = "Planner to flights"
  source       = "urn:agent:acme:travel:planner"
  target       = "urn:mcp:acme:travel:flights"

  auth_provider = "projects/my-project/locations/global/authProviders/flights-oauth"
  scopes        = ["flights.read", "flights.book"]
  continue_uri  = "https://planner.example.com/oauth/continue"
}

# Without a source, the binding is available to every agent.
resource "agentregistry_binding" "billing_for_all" {
  binding_id = "billing-for-all"
  target     = "urn:endpoint:acme:finance:billing"
}
