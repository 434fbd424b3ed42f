# A card signed at apply with a write-only key (Terraform 1.11+, OpenTofu 1.11+):
# the key is used and never stored, neither in the plan nor in the state, and
# the card stays readable in plans. An ephemeral variable keeps the key out of
# saved plan files too; set it from the environment (TF_VAR_signing_key) or a
# secret store, never in a committed file.
variable "signing_key" {
  description = "The private JWK (with a kid) that signs the card."
  type        = string
  sensitive   = true
  ephemeral   = true
}

resource "agentregistry_agent" "signed" {
  service_id = "signed-agent"
  agent_card = jsonencode(jsondecode(file("${path.module}/cards/travel-planner.json")))

  signing_key_wo         = var.signing_key
  signing_key_wo_version = 1 # change it to re-sign, e.g. after rotating the key
}
