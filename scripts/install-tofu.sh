#!/usr/bin/env bash
# Builds OpenTofu from the Go module proxy and caches the binary outside the clone.
# Terraform cannot be downloaded on these machines; OpenTofu can be built from source.
# `go install ...@v` refuses OpenTofu because its go.mod has a replace directive, so the
# module is downloaded, copied to a writable folder and built there.
# Prints the path of the binary. A no-op when the cached binary is already there.
set -euo pipefail

TOFU_VERSION="${TOFU_VERSION:-v1.10.6}"
bin_dir="${TOFU_BIN_DIR:-$(go env GOPATH)/bin}"
bin="$bin_dir/tofu-$TOFU_VERSION"

if [ -x "$bin" ]; then
  echo "$bin"
  exit 0
fi

mkdir -p "$bin_dir"
echo "building OpenTofu $TOFU_VERSION from the Go module proxy (several minutes the first time)..." >&2
dir=$(GOFLAGS=-mod=mod go mod download -json "github.com/opentofu/opentofu@$TOFU_VERSION" |
  sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
[ -n "$dir" ] || { echo "could not download github.com/opentofu/opentofu@$TOFU_VERSION" >&2; exit 1; }

work=$(mktemp -d)
trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
cp -r "$dir/." "$work/"
chmod -R u+w "$work"
# version.dev=no: the binary reports its release (1.12.6), not 1.12.6-dev, as a
# released build does; plugin-testing reads that version to decide what the CLI supports.
(cd "$work" && CGO_ENABLED=0 go build -trimpath \
  -ldflags "-s -w -X github.com/opentofu/opentofu/version.dev=no" -o "$bin.tmp" ./cmd/tofu)
mv "$bin.tmp" "$bin"
echo "$bin"
