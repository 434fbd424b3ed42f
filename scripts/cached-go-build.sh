# shellcheck shell=bash
# Sourced by the scripts that build a tool from the Go module proxy and cache it
# outside the clone (install-tofu.sh, install-terraform.sh,
# install-golangci-lint.sh). Not run on its own.

# cached_bin NAME VERSION [BIN_DIR]: sets $bin to BIN_DIR/NAME-VERSION (BIN_DIR
# defaults to $(go env GOPATH)/bin) and, when that binary is already there,
# prints its path and ends the script: each tool is built once.
cached_bin() {
  local bin_dir="${3:-$(go env GOPATH)/bin}"
  bin="$bin_dir/$1-$2"
  if [ -x "$bin" ]; then
    echo "$bin"
    exit 0
  fi
  mkdir -p "$bin_dir"
}

# module_copy MODULE VERSION: downloads MODULE@VERSION's source through the Go
# module proxy and copies it to a new writable folder, set in $work and removed
# when the script exits. `go install MODULE@VERSION` refuses a module whose go.mod
# has replace directives, as OpenTofu's and Terraform's do, so they are built
# from such a copy.
module_copy() {
  local dir
  dir=$(GOFLAGS=-mod=mod go mod download -json "$1@$2" | sed -n 's/^[[:space:]]*"Dir": "\(.*\)",$/\1/p')
  [ -n "$dir" ] || { echo "could not download $1@$2" >&2; exit 1; }
  work=$(mktemp -d)
  trap 'chmod -R u+w "$work" 2>/dev/null; rm -rf "$work"' EXIT
  cp -r "$dir/." "$work/"
  chmod -R u+w "$work"
}
