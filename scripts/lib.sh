# shellcheck shell=bash
# Sourced by the scripts that run the provider or the bundled server outside
# the tests (demo.sh, bench.sh, bench/query.sh, docs.sh, dev-override.sh,
# install.sh): the one way each of them builds the provider and the server,
# writes a dev_overrides CLI configuration and starts the server. The tests
# have the same in Go (internal/testkit). Not run on its own.

lib_root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# provider_version: the version the builds stamp (scripts/version.sh explains the rule).
provider_version() { "$lib_root/scripts/version.sh"; }

# build_provider DIR [SRC]: builds the provider from SRC (default: this clone)
# into DIR/terraform-provider-agentregistry with its version stamped;
# PROVIDER_LDFLAGS adds linker flags (make install strips with "-s -w").
build_provider() {
  local dir=$1 src=${2:-$lib_root} version
  version=$(provider_version)
  mkdir -p "$dir"
  (cd "$src" && go build -trimpath -ldflags "-X main.version=$version ${PROVIDER_LDFLAGS:-}" \
    -o "$dir/terraform-provider-agentregistry" .)
}

# build_server DIR: builds the bundled server into DIR/agentregistry-server.
build_server() {
  mkdir -p "$1"
  (cd "$lib_root" && go build -trimpath -o "$1/agentregistry-server" ./cmd/agentregistry-server)
}

# write_dev_overrides RC PLUGIN_DIR: a CLI configuration that runs the provider
# in PLUGIN_DIR, with no init and no version check, under both addresses
# (Terraform looks it up at registry.terraform.io, OpenTofu at
# registry.opentofu.org); every other provider installs as usual.
write_dev_overrides() {
  cat >"$1" <<RC
provider_installation {
  dev_overrides {
    "registry.terraform.io/agentregistry/agentregistry" = "$2"
    "registry.opentofu.org/agentregistry/agentregistry" = "$2"
  }
  direct {}
}
RC
}

# start_registry_server BIN LOG [FLAGS...]: starts the server BIN on a free
# loopback port, logging to LOG, and sets server_pid and endpoint
# (http://127.0.0.1:PORT) once it says where it listens. A script calls
# stop_registry_server from its EXIT trap.
server_pid=""
endpoint=""
start_registry_server() {
  local bin=$1 log=$2
  shift 2
  stop_registry_server
  # The log exists before the server starts: the background child opens it
  # itself, and a sed that runs first would fail (and end a set -e script).
  : >"$log"
  "$bin" -listen 127.0.0.1:0 "$@" >"$log" 2>&1 &
  server_pid=$!
  endpoint=""
  for _ in $(seq 1 100); do
    endpoint=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$log" | head -1)
    [ -n "$endpoint" ] && return 0
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  cat "$log"
  echo "the registry server did not start" >&2
  exit 1
}

stop_registry_server() {
  if [ -n "$server_pid" ]; then
    kill "$server_pid" 2>/dev/null || true
    wait "$server_pid" 2>/dev/null || true
    server_pid=""
  fi
}
