#!/usr/bin/env bash
# Runs `tofu validate` on every example folder against a dev_overrides build of the
# provider, so that the examples in the docs stay valid configurations.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
TOFU="${TOFU:?set TOFU to the OpenTofu binary (make tofu)}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/plugins"
(cd "$root" && go build -o "$tmp/plugins/terraform-provider-agentregistry" .)
cat > "$tmp/tofurc" <<RC
provider_installation {
  dev_overrides {
    "registry.opentofu.org/hashicorp/agentregistry" = "$tmp/plugins"
  }
  direct {}
}
RC
export TF_CLI_CONFIG_FILE="$tmp/tofurc" CHECKPOINT_DISABLE=1

# Examples are fragments without a terraform block; give each one the provider source.
required='terraform {
  required_providers {
    agentregistry = { source = "hashicorp/agentregistry" }
  }
}'
# The copies keep their place beside a copy of modules/, so that an example calling
# a module by relative source (../../modules/registry-fleet) resolves; `get`
# installs such modules (the provider itself comes from dev_overrides).
mkdir -p "$tmp/tree"
cp -r "$root/examples" "$root/modules" "$tmp/tree/"
count=0
while IFS= read -r dir; do
  work="$tmp/tree/${dir#"$root"/}"
  grep -qs 'required_providers' "$work"/*.tf || echo "$required" > "$work/zz_required_providers.tf"
  if grep -qs '^module ' "$work"/*.tf && ! out=$("$TOFU" -chdir="$work" get -no-color 2>&1); then
    echo "FAIL ${dir#"$root"/}"; echo "$out"; exit 1
  fi
  if ! out=$("$TOFU" -chdir="$work" validate -no-color 2>&1); then
    echo "FAIL ${dir#"$root"/}"; echo "$out"; exit 1
  fi
  "$TOFU" fmt -check -diff "$dir" >/dev/null || { echo "FAIL ${dir#"$root"/}: not formatted (tofu fmt)"; exit 1; }
  echo "ok   ${dir#"$root"/}"
  count=$((count + 1))
done < <(find "$root/examples" -name '*.tf' -exec dirname {} \; | sort -u)
echo "$count example folders valid"
