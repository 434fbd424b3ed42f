terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry", version = "~> 0.2" }
  }
}

# Check a partner's card against the partner's published public keys (a JWKS
# kept in the repository, never fetched), independent of the provider's
# trusted_keys. A signature that does not verify fails the plan.
locals {
  card = file("${path.module}/signed-agent-card.json")
  kids = provider::agentregistry::verify_agent_card(local.card, file("${path.module}/trusted-keys.jwks"))
}

# An unsigned card gives an empty list: demand a signature with a check.
check "card_is_signed_by_the_publisher" {
  assert {
    condition     = contains(local.kids, "publisher-2025")
    error_message = "The card is not signed with the publisher's key publisher-2025."
  }
}

output "verified_key_ids" {
  value = local.kids
}
