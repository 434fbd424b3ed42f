#!/usr/bin/env bash
# Installs goreleaser at a pinned version from the Go module proxy and caches it
# outside the clone as $(go env GOPATH)/bin/goreleaser-$GORELEASER_VERSION, like
# the CLIs and golangci-lint. Not a `go tool` of go.mod: its hundreds of
# dependencies would be resolved together with the provider's and move their
# versions. v2.17.0 is the newest release that builds with Go 1.26 (v2.18 and
# later need Go 1.27.1).
# Prints the path of the binary. A no-op when the cached binary is already there.
set -euo pipefail
. "$(dirname "$0")/cached-go-build.sh"

GORELEASER_VERSION="${GORELEASER_VERSION:-v2.17.0}"
cached_bin goreleaser "$GORELEASER_VERSION" "${GORELEASER_BIN_DIR:-}"
echo "installing goreleaser $GORELEASER_VERSION from the Go module proxy (a few minutes the first time)..." >&2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Outside the clone, so that the provider's go.mod plays no part in the build.
(cd "$work" && GOBIN="$work" GOFLAGS=-mod=mod CGO_ENABLED=0 go install -trimpath \
  "github.com/goreleaser/goreleaser/v2@$GORELEASER_VERSION")
mv "$work/goreleaser" "$bin"
echo "$bin"
