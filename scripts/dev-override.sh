#!/usr/bin/env bash
# The developer recipe: builds the provider into the clone's bin/ and writes a CLI
# configuration with dev_overrides for both registry hosts, so Terraform
# (registry.terraform.io) and OpenTofu (registry.opentofu.org) run that binary
# without `init` and without a version check. Nothing outside the clone is touched:
# point TF_CLI_CONFIG_FILE at the file written (the path depends on the clone).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
version=$("$root/scripts/version.sh")
mkdir -p "$root/bin"
(cd "$root" && go build -trimpath -ldflags "-X main.version=$version" -o bin/terraform-provider-agentregistry .)
rc="$root/bin/dev-overrides.tfrc"
cat > "$rc" <<RC
# Written by make dev-override: use the provider built in $root/bin.
provider_installation {
  dev_overrides {
    "registry.terraform.io/agentregistry/agentregistry" = "$root/bin" # Terraform
    "registry.opentofu.org/agentregistry/agentregistry" = "$root/bin" # OpenTofu
  }
  # Every other provider installs as usual.
  direct {}
}
RC
cat "$rc"
echo
echo "wrote $rc (provider version $version). Use it in this shell with:"
echo "  export TF_CLI_CONFIG_FILE=$rc"
echo "then run plan / apply without init: init still looks this provider up in the registry and fails."
echo "A module that needs init (other providers, a lock file) uses make install instead."
echo "Re-run make dev-override (or make build) after a change."
