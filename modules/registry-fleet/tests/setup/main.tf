# Hands the registry address given on the command line (-var endpoint=...) to
# the provider blocks of the test files. OpenTofu's provider blocks in a test
# file can read run outputs but not the test file's own variables
# (opentofu/opentofu#2450); Terraform accepts both. `tofu get` (or `init`)
# installs this module before `tofu test`.
variable "endpoint" {
  description = "Base URL of the registry under test, such as http://127.0.0.1:8787."
  type        = string
}

output "endpoint" {
  value = var.endpoint
}
