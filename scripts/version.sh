#!/usr/bin/env bash
# Prints the provider version that `make build`, `make install` and
# `make dev-override` stamp into main.version (-ldflags -X main.version=...) and
# that `make install` uses as the directory name in the local plugin mirror.
#
#   VERSION set            that version (a leading "v" is dropped)
#   HEAD at a tag vX.Y.Z   X.Y.Z (`git describe --tags --exact-match`)
#   otherwise              X.Y.Z+dev.<git describe --tags --always --dirty>, where X.Y.Z
#                          is the first "## X.Y.Z" heading of CHANGELOG.md, the release
#                          being prepared; 0.0.0-dev when there is no CHANGELOG.md either
#
# Why build metadata (+dev...) and not a pre-release (-dev): Terraform and OpenTofu
# select a pre-release only through an exact constraint (version = "0.2.0-dev"), so
# a build stamped 0.0.0-dev or 0.2.0-dev fails `init` in every module that says
# version = "~> 0.2". Build metadata does not change precedence: 0.2.0+dev.abc1234
# meets "~> 0.2" and ">= 0.2.0", like the release it will become.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

semver='^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$'

if [ -n "${VERSION:-}" ]; then
  version="${VERSION#v}"
elif tag=$(git -C "$root" describe --tags --exact-match --match 'v[0-9]*' 2>/dev/null) &&
  [[ "${tag#v}" =~ $semver ]] && [ -z "$(git -C "$root" status --porcelain --untracked-files=no 2>/dev/null)" ]; then
  version="${tag#v}"
else
  base=""
  [ -f "$root/CHANGELOG.md" ] && base=$(sed -n 's/^## \([0-9][0-9]*\.[0-9][0-9]*\.[0-9][0-9]*\)\( .*\)\{0,1\}$/\1/p' "$root/CHANGELOG.md" | head -1)
  if [ -n "$base" ]; then
    described=$(git -C "$root" describe --tags --always --dirty 2>/dev/null || true)
    # Build metadata allows [0-9A-Za-z-] in dot-separated identifiers.
    described=$(printf '%s' "$described" | tr -c '0-9A-Za-z.-' '-' | sed 's/\.\.*/./g; s/^\.//; s/\.$//')
    version="$base+dev${described:+.$described}"
  else
    version="0.0.0-dev"
  fi
fi

if ! [[ "$version" =~ $semver ]]; then
  echo "version.sh: \"$version\" is not a semantic version (X.Y.Z[-pre][+build]) that Terraform and OpenTofu accept" >&2
  exit 1
fi
echo "$version"
