package provider

// What every move from the Google provider's resources shares
// (resource_service_move_state.go, resource_binding_move_state.go).

import tfaddr "github.com/hashicorp/terraform-registry-address"

// isGoogleProvider tells the Google providers (hashicorp/google and
// hashicorp/google-beta) in every form a CLI sends: Terraform sends the full
// address (registry.terraform.io/hashicorp/google), OpenTofu the implied
// provider's bare name ("google", whose namespace is unknown until a CLI
// applies its default, hashicorp), and a source address may name another host.
func isGoogleProvider(address string) bool {
	p, err := tfaddr.ParseProviderSource(address)
	if err != nil || (p.Type != "google" && p.Type != "google-beta") {
		return false
	}
	switch p.Namespace {
	case "hashicorp", tfaddr.UnknownProviderNamespace, tfaddr.LegacyProviderNamespace:
		return true
	}
	return false
}
