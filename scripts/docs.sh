#!/usr/bin/env bash
# Generates docs/ with tfplugindocs, offline: the provider schema comes from
# `terraform providers schema -json` run against a dev_overrides build of the
# provider, so that tfplugindocs never downloads Terraform. The Terraform is the
# newest one the tests run (make docs passes the pinned build): the schema it
# reports has the resources' identity schemas and the list resources, which
# older CLIs and OpenTofu leave out, and tfplugindocs renders both.
#   scripts/docs.sh generate   rewrite docs/
#   scripts/docs.sh check      fail when the committed docs/ differ from the schema
set -euo pipefail
mode="${1:-generate}"
root="$(cd "$(dirname "$0")/.." && pwd)"
TERRAFORM="${TERRAFORM:?set TERRAFORM to the Terraform binary (make docs builds Terraform 1.16.3 for it)}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/plugins" "$tmp/cfg"
(cd "$root" && go build -o "$tmp/plugins/terraform-provider-agentregistry" .)
cat > "$tmp/terraformrc" <<RC
provider_installation {
  dev_overrides {
    "registry.terraform.io/agentregistry/agentregistry" = "$tmp/plugins"
  }
  direct {}
}
RC
cat > "$tmp/cfg/main.tf" <<'TF'
terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry" }
  }
}
TF
(cd "$tmp/cfg" && TF_CLI_CONFIG_FILE="$tmp/terraformrc" CHECKPOINT_DISABLE=1 "$TERRAFORM" providers schema -json) \
  > "$tmp/schema.json"
# tfplugindocs finds a provider's schema under its bare name or under
# registry.terraform.io/hashicorp/NAME only, so the key is the bare name.
sed -i 's#"registry.terraform.io/agentregistry/agentregistry":#"agentregistry":#' "$tmp/schema.json"

# tfplugindocs resolves --rendered-website-dir against the provider directory, so
# the check renders into a scratch folder inside the clone.
out="docs"
if [ "$mode" = check ]; then
  out=".docs-check"
  trap 'rm -rf "$tmp" "$root/.docs-check"' EXIT
fi
(cd "$root" && go tool tfplugindocs generate --provider-name agentregistry \
  --providers-schema "$tmp/schema.json" --rendered-website-dir "$out" >"$tmp/tfplugindocs.log" 2>&1) ||
  { cat "$tmp/tfplugindocs.log"; exit 1; }

if [ "$mode" = check ]; then
  if ! diff -ru "$root/docs" "$root/$out"; then
    echo "docs/ is out of date with the provider schema or examples: run 'make docs' and commit the result." >&2
    exit 1
  fi
  echo "docs/ is up to date"
fi
