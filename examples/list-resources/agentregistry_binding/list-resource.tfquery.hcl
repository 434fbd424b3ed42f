# The bindings whose target is one MCP server.
list "agentregistry_binding" "to_files" {
  provider = agentregistry

  config {
    filter = "target.identifier=\"urn:mcp:acme:tools:files\""
  }
}
