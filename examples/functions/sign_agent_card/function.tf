terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry", version = "~> 0.2" }
  }
}

# The signing key passes through the configuration: keep it in a sensitive
# variable set from a secret store (TF_VAR_card_signing_key=...), never in a
# committed file. Functions store nothing, so the key never enters the state;
# a saved plan file (plan -out) does hold it, like any input variable.
variable "card_signing_key" {
  type        = string
  sensitive   = true
  description = "Private key, PEM (as openssl writes it) or JWK: EC P-256 (ES256), Ed25519 (EdDSA) or RSA (RS256)."
}

locals {
  # The result is marked sensitive because the key is; the signed card holds
  # no secret, so nonsensitive() lets plans show it.
  signed_card = nonsensitive(provider::agentregistry::sign_agent_card(
    file("${path.module}/agent-card.json"),
    var.card_signing_key,
    "publisher-2025", # the kid under which verifiers hold the public key; "" for the key's RFC 7638 thumbprint
  ))
}

resource "agentregistry_agent" "currency" {
  service_id = "currency-agent"
  agent_card = local.signed_card
}
