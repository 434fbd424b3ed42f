#!/usr/bin/env bash
# Generates docs/ with tfplugindocs, offline: the provider schema comes from
# `terraform providers schema -json` run against a dev_overrides build of the
# provider, so that tfplugindocs never downloads Terraform. The Terraform is the
# newest one the tests run (make docs passes the pinned build): the schema it
# reports has the resources' identity schemas and the list resources, which
# older CLIs and OpenTofu leave out, and tfplugindocs renders both. The check
# that docs/ is up to date is a test: TestAccDocs_matchTheSchema (internal/e2e).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
TERRAFORM="${TERRAFORM:?set TERRAFORM to the Terraform binary (make docs builds Terraform for it)}"
# shellcheck source=lib.sh
. "$root/scripts/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
build_provider "$tmp/plugins"
write_dev_overrides "$tmp/terraformrc" "$tmp/plugins"
mkdir -p "$tmp/cfg"
cat > "$tmp/cfg/main.tf" <<'TF'
terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry" }
  }
}
TF
# tfplugindocs looks the schema up as "agentregistry" or under hashicorp/, and
# this provider's address is agentregistry/agentregistry.
(cd "$tmp/cfg" && TF_CLI_CONFIG_FILE="$tmp/terraformrc" CHECKPOINT_DISABLE=1 "$TERRAFORM" providers schema -json) |
  sed 's#"registry.terraform.io/agentregistry/agentregistry":#"agentregistry":#' > "$tmp/schema.json"

(cd "$root" && go tool tfplugindocs generate --provider-name agentregistry \
  --providers-schema "$tmp/schema.json" --rendered-website-dir docs >"$tmp/tfplugindocs.log" 2>&1) ||
  { cat "$tmp/tfplugindocs.log"; exit 1; }
echo "docs/ generated from the schema of $("$TERRAFORM" version | head -1)"
