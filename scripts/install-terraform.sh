#!/usr/bin/env bash
# Builds Terraform from the Go module proxy and caches the binary outside the clone.
# No Terraform release can be downloaded on these machines, but its source module can.
#
# The module's go.mod replaces ten nested modules (nine remote-state backends and
# internal/legacy) with local folders that the module zip leaves out, so the build
# drops them: their replace and require lines, and the nine backends' imports and map
# entries in internal/backend/init/init.go (local, remote, http, inmem and cloud stay;
# nothing else imports internal/legacy). The result is Terraform with fewer state
# backends, which the tests never use.
# Cached as $(go env GOPATH)/bin/terraform-$TERRAFORM_VERSION (TERRAFORM_BIN_DIR picks another folder).
# Prints the path of the binary. A no-op when the cached binary is already there.
set -euo pipefail
# shellcheck source=cached-go-build.sh
. "$(dirname "$0")/cached-go-build.sh"

TERRAFORM_VERSION="${TERRAFORM_VERSION:-v1.16.3}"
cached_bin terraform "$TERRAFORM_VERSION" "${TERRAFORM_BIN_DIR:-}"
echo "building Terraform $TERRAFORM_VERSION from the Go module proxy (a few minutes the first time)..." >&2
module_copy github.com/hashicorp/terraform "$TERRAFORM_VERSION"

dropped='azure|consul|cos|gcs|kubernetes|oci|oss|pg|s3'
# go.mod: the require and replace lines of the nested modules the zip leaves out.
sed -i -E "\#github.com/hashicorp/terraform/internal/(backend/remote-state/($dropped)|legacy)[ =]#d" "$work/go.mod"
# init.go: the dropped backends' imports and their entries in the backends map.
init_go="$work/internal/backend/init/init.go"
sed -i -E \
  -e "\#\"github.com/hashicorp/terraform/internal/backend/remote-state/($dropped)\"#d" \
  -e "/^[[:space:]]*\"(azurerm|consul|cos|gcs|kubernetes|oss|pg|s3|oci)\":[[:space:]]+func\(\)/d" \
  "$init_go"
if grep -qE "remote-state/($dropped)\"|internal/legacy" "$work/go.mod" "$init_go"; then
  echo "install-terraform.sh: the $TERRAFORM_VERSION source no longer matches this recipe" >&2
  exit 1
fi

# version.dev=no: the binary reports its release (1.16.3), not 1.16.3-dev.
(cd "$work" && CGO_ENABLED=0 GOFLAGS=-mod=mod go build -trimpath \
  -ldflags "-s -w -X github.com/hashicorp/terraform/version.dev=no" -o "$bin.tmp" .)
mv "$bin.tmp" "$bin"
echo "$bin"
