#!/usr/bin/env bash
# Builds OpenTofu from the Go module proxy and caches the binary outside the clone
# as $(go env GOPATH)/bin/tofu-$TOFU_VERSION (TOFU_BIN_DIR picks another folder).
# Terraform cannot be downloaded on these machines; OpenTofu can be built from source.
# Prints the path of the binary. A no-op when the cached binary is already there.
set -euo pipefail
# shellcheck source=cached-go-build.sh
. "$(dirname "$0")/cached-go-build.sh"

TOFU_VERSION="${TOFU_VERSION:-v1.12.6}"
cached_bin tofu "$TOFU_VERSION" "${TOFU_BIN_DIR:-}"
echo "building OpenTofu $TOFU_VERSION from the Go module proxy (several minutes the first time)..." >&2
module_copy github.com/opentofu/opentofu "$TOFU_VERSION"
# version.dev=no: the binary reports its release (1.12.6), not 1.12.6-dev, as a
# released build does; plugin-testing reads that version to decide what the CLI supports.
(cd "$work" && CGO_ENABLED=0 go build -trimpath \
  -ldflags "-s -w -X github.com/opentofu/opentofu/version.dev=no" -o "$bin.tmp" ./cmd/tofu)
mv "$bin.tmp" "$bin"
echo "$bin"
