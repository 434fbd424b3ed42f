terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry", version = "~> 0.2" }
  }
}

# The JWKS of a public key made with
#   openssl genpkey -algorithm EC -pkeyopt ec_paramgen_curve:P-256 -out agent-signing-key.pem
#   openssl pkey -in agent-signing-key.pem -pubout -out agent-signing-key.pub.pem
# Its kid is the key's RFC 7638 thumbprint, the kid sign_agent_card and
# signing_key_wo sign under when the key has none.
variable "public_key_pem" {
  type = string
}

output "jwks" {
  value = provider::agentregistry::public_jwks(var.public_key_pem)
}

# Verify a card signed with the matching private key.
variable "signed_card" {
  type = string
}

output "verified_key_ids" {
  value = provider::agentregistry::verify_agent_card(var.signed_card, provider::agentregistry::public_jwks(var.public_key_pem))
}
