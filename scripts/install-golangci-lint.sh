#!/usr/bin/env bash
# Installs golangci-lint at a pinned version from the Go module proxy and caches
# it outside the clone as $(go env GOPATH)/bin/golangci-lint-$GOLANGCI_LINT_VERSION.
# Not a `go tool` of go.mod: its hundreds of dependencies would then be resolved
# together with the provider's and move their versions.
# Prints the path of the binary. A no-op when the cached binary is already there.
set -euo pipefail
# shellcheck source=cached-go-build.sh
. "$(dirname "$0")/cached-go-build.sh"

GOLANGCI_LINT_VERSION="${GOLANGCI_LINT_VERSION:-v2.15.0}"
cached_bin golangci-lint "$GOLANGCI_LINT_VERSION" "${GOLANGCI_LINT_BIN_DIR:-}"
echo "installing golangci-lint $GOLANGCI_LINT_VERSION from the Go module proxy (a few minutes the first time)..." >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Outside the clone, so that the provider's go.mod plays no part in the build.
(cd "$work" && GOBIN="$work" GOFLAGS=-mod=mod go install \
  "github.com/golangci/golangci-lint/v2/cmd/golangci-lint@$GOLANGCI_LINT_VERSION")
mv "$work/golangci-lint" "$bin"
echo "$bin"
