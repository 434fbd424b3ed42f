#!/usr/bin/env bash
# Runs `validate` on every example folder with OpenTofu ($TOFU) and, when
# $TERRAFORM names a binary, with Terraform too, against a dev_overrides build of
# the provider, so that the examples in the docs stay valid configurations on both
# CLIs; and `fmt -check` on each folder.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
TOFU="${TOFU:?set TOFU to the OpenTofu binary (make tofu)}"
TERRAFORM="${TERRAFORM:-}"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/plugins"
(cd "$root" && go build -o "$tmp/plugins/terraform-provider-agentregistry" .)
# Terraform looks the provider up as registry.terraform.io/..., OpenTofu as registry.opentofu.org/...
cat > "$tmp/cli.tfrc" <<RC
provider_installation {
  dev_overrides {
    "registry.terraform.io/agentregistry/agentregistry" = "$tmp/plugins"
    "registry.opentofu.org/agentregistry/agentregistry" = "$tmp/plugins"
  }
  direct {}
}
RC
export TF_CLI_CONFIG_FILE="$tmp/cli.tfrc" CHECKPOINT_DISABLE=1

. "$root/scripts/cli-list.sh"
cli_list "$TOFU" "$TERRAFORM"
[ -n "$TERRAFORM" ] || echo "TERRAFORM is empty: examples validated with OpenTofu only"

# Examples are fragments without a terraform block; give each one the provider source
# (with the version constraint the examples use).
required='terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry", version = "~> 0.2" }
  }
}'
# The copies keep their place beside a copy of modules/, so that an example calling
# a module by relative source (../../modules/registry-fleet) resolves; `get`
# installs such modules (the provider itself comes from dev_overrides). One tree
# per CLI, since each writes its own .terraform folders.
for name in "${names[@]}"; do
  mkdir -p "$tmp/tree-$name"
  cp -r "$root/examples" "$root/modules" "$tmp/tree-$name/"
done
count=0
while IFS= read -r dir; do
  for i in "${!clis[@]}"; do
    work="$tmp/tree-${names[$i]}/${dir#"$root"/}"
    grep -qs 'required_providers' "$work"/*.tf || echo "$required" > "$work/zz_required_providers.tf"
    if grep -qs '^module ' "$work"/*.tf && ! out=$("${clis[$i]}" -chdir="$work" get -no-color 2>&1); then
      echo "FAIL ${dir#"$root"/} (${names[$i]} get)"; echo "$out"; exit 1
    fi
    # A resource's import-by-string-id.tf and import-by-identity.tf import the
    # same address (two ways of the docs' Import section): validate each alone.
    variants=("")
    if [ -f "$work/import-by-identity.tf" ] && [ -f "$work/import-by-string-id.tf" ]; then
      mkdir -p "$work/.aside"
      variants=(import-by-identity.tf import-by-string-id.tf)
    fi
    for aside in "${variants[@]}"; do
      [ -z "$aside" ] || mv "$work/$aside" "$work/.aside/"
      if ! out=$("${clis[$i]}" -chdir="$work" validate -no-color 2>&1); then
        echo "FAIL ${dir#"$root"/} (${names[$i]} validate${aside:+ without $aside})"; echo "$out"; exit 1
      fi
      [ -z "$aside" ] || mv "$work/.aside/$aside" "$work/"
    done
    "${clis[$i]}" fmt -check -diff "$dir" >/dev/null ||
      { echo "FAIL ${dir#"$root"/}: not formatted (${names[$i]} fmt)"; exit 1; }
  done
  echo "ok   ${dir#"$root"/} (${names[*]})"
  count=$((count + 1))
done < <(find "$root/examples" -name '*.tf' -exec dirname {} \; | sort -u)
echo "$count example folders valid with ${names[*]}"

# Query files (*.tfquery.hcl, list blocks of `terraform query`): `validate -query`
# with a Terraform that has list blocks (1.14+: TERRAFORM when it is one, else
# TERRAFORM_QUERY or the cached terraform-v1.16.3, scripts/query-terraform.sh);
# OpenTofu and older Terraform releases have none.
query_clis=()
q=$(TERRAFORM_QUERY="${TERRAFORM_QUERY:-}" TERRAFORM="$TERRAFORM" "$root/scripts/query-terraform.sh")
[ -n "$q" ] && query_clis=("$q")
if [ ${#query_clis[@]} -eq 0 ]; then
  echo "no Terraform 1.14+: query files (*.tfquery.hcl) not validated (set TERRAFORM_QUERY)"
else
  qcount=0
  while IFS= read -r dir; do
    for cli in "${query_clis[@]}"; do
      work="$tmp/query/${dir#"$root"/}"
      mkdir -p "$work" && cp "$dir"/* "$work/"
      grep -qs 'required_providers' "$work"/*.tf || echo "$required" > "$work/zz_required_providers.tf"
      if ! out=$("$cli" -chdir="$work" validate -query -no-color 2>&1); then
        echo "FAIL ${dir#"$root"/} ($cli validate -query)"; echo "$out"; exit 1
      fi
      "$cli" fmt -check -diff "$dir" >/dev/null || { echo "FAIL ${dir#"$root"/}: not formatted ($cli fmt)"; exit 1; }
    done
    echo "ok   ${dir#"$root"/} (validate -query)"
    qcount=$((qcount + 1))
  done < <(find "$root/examples" -name '*.tfquery.hcl' -exec dirname {} \; | sort -u)
  echo "$qcount query example folders valid with ${query_clis[*]}"
fi
