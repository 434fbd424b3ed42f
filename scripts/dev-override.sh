#!/usr/bin/env bash
# The developer recipe: builds the provider into the clone's bin/ and writes a CLI
# configuration with dev_overrides for both registry hosts, so Terraform
# (registry.terraform.io) and OpenTofu (registry.opentofu.org) run that binary
# without `init` and without a version check. Nothing outside the clone is touched:
# point TF_CLI_CONFIG_FILE at the file written (the path depends on the clone).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
# shellcheck source=lib.sh
. "$root/scripts/lib.sh"
version=$(provider_version)
build_provider "$root/bin"
rc="$root/bin/dev-overrides.tfrc"
write_dev_overrides "$rc" "$root/bin"
cat "$rc"
echo
echo "wrote $rc (provider version $version). Use it in this shell with:"
echo "  export TF_CLI_CONFIG_FILE=$rc"
echo "then run plan / apply without init: init still looks this provider up in the registry and fails."
echo "A module that needs init (other providers, a lock file) uses make install instead."
echo "Re-run make dev-override (or make build) after a change."
