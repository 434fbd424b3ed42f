#!/usr/bin/env bash
# Builds the provider with its version stamped and installs it into a local plugin
# mirror in the "unpacked" layout that Terraform and OpenTofu read:
#
#   PLUGINS_DIR/registry.terraform.io/agentregistry/agentregistry/VERSION/OS_ARCH/terraform-provider-agentregistry_vVERSION
#   PLUGINS_DIR/registry.opentofu.org/agentregistry/agentregistry/VERSION/OS_ARCH/terraform-provider-agentregistry_vVERSION
#
# PLUGINS_DIR defaults to ~/.terraform.d/plugins, a directory both CLIs search on
# their own when the CLI configuration has no provider_installation block (the
# "implied local mirror"; OpenTofu 1.10 reads it too, and asks for the
# registry.opentofu.org host). A provider found there is never downloaded from a
# registry, so `init` with a version constraint works offline.
# Set PLUGINS_DIR to another folder to use it with `init -plugin-dir=DIR` or a
# filesystem_mirror block (CI runners), and GOOS/GOARCH to build for another platform.
#   scripts/install.sh            install
#   scripts/install.sh uninstall  remove every version of this provider from PLUGINS_DIR
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
plugins_dir="${PLUGINS_DIR:-$HOME/.terraform.d/plugins}"
hosts=(registry.terraform.io registry.opentofu.org)

if [ "${1:-install}" = uninstall ]; then
  for host in "${hosts[@]}"; do
    if [ -d "$plugins_dir/$host/agentregistry/agentregistry" ]; then
      rm -rf "$plugins_dir/$host/agentregistry/agentregistry"
      echo "removed $plugins_dir/$host/agentregistry/agentregistry"
    fi
    # Folders left empty (only these; never the home directory's other contents).
    rmdir "$plugins_dir/$host/agentregistry" "$plugins_dir/$host" 2>/dev/null || true
  done
  rmdir "$plugins_dir" 2>/dev/null || true
  exit 0
fi

# shellcheck source=lib.sh
. "$root/scripts/lib.sh"
version=$(provider_version)
os_arch="$(go env GOOS)_$(go env GOARCH)"
bin="$root/bin/terraform-provider-agentregistry"
CGO_ENABLED=0 PROVIDER_LDFLAGS="-s -w" build_provider "$root/bin"

for host in "${hosts[@]}"; do
  base="$plugins_dir/$host/agentregistry/agentregistry"
  # Development builds (+dev...) of one release have the same precedence, so with
  # two of them installed the CLI's choice would be arbitrary: keep only the newest.
  if [ -d "$base" ]; then
    find "$base" -mindepth 1 -maxdepth 1 \( -name '*+dev*' -o -name "$version" \) -exec rm -rf {} +
  fi
  dir="$base/$version/$os_arch"
  mkdir -p "$dir"
  cp "$bin" "$dir/terraform-provider-agentregistry_v$version"
  echo "installed $dir/terraform-provider-agentregistry_v$version"
done
if [[ "${version%%+*}" == *-* ]]; then
  echo "version $version is a pre-release: only version = \"$version\" selects it (set VERSION=X.Y.Z to stamp another)"
else
  echo "version $version: selected by constraints such as \"~> $(echo "$version" | cut -d. -f1-2)\" or \">= ${version%%+*}\""
fi
echo "after a rebuild, run 'init -upgrade' in modules whose lock file recorded an earlier build"
