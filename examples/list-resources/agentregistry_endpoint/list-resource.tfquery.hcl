# The endpoints of another project.
list "agentregistry_endpoint" "payments" {
  provider = agentregistry

  config {
    project = "payments-prod"
    filter  = "display_name:billing"
  }
}
