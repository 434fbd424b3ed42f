#!/usr/bin/env bash
# Tests `make install` the way a user meets it: installs the provider with
# scripts/install.sh into the ~/.terraform.d/plugins of a temporary HOME, starts
# the bundled registry server on loopback, and runs `init` + `plan` of a module
# that requires this provider with a version constraint next to the built-in
# terraform_data, with OpenTofu ($TOFU), Terraform ($TERRAFORM, when set) and
# each binary listed in $OLDEST_CLIS, three ways:
#   implied            the implied local mirror (no provider_installation in the
#                      CLI configuration), version pinned to the installed one
#   -plugin-dir        init -plugin-dir=<mirror>, with the examples' constraint
#                      (from examples/demo/main.tf: the dev build must meet it)
#   filesystem_mirror  a CLI configuration with a filesystem_mirror block, pinned
# Offline: HTTP(S)_PROXY points at a closed port, so any registry request fails.
# Fails when init or plan fail, when the lock file records another version, or
# when the plan does not show the expected changes.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
TOFU="${TOFU:?set TOFU to the OpenTofu binary (make tofu)}"
TERRAFORM="${TERRAFORM:-}"
OLDEST_CLIS="${OLDEST_CLIS:-}"

tmp=$(mktemp -d)
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

version=$("$root/scripts/version.sh")
constraint=$(sed -n 's/.*agentregistry = { source = "agentregistry\/agentregistry", version = "\([^"]*\)" }.*/\1/p' \
  "$root/examples/demo/main.tf" | head -1)
[ -n "$constraint" ] || { echo "no version constraint for agentregistry in examples/demo/main.tf" >&2; exit 1; }

mkdir -p "$tmp/home"
# Go's caches and GOPATH stay the caller's: under the temporary HOME they would
# default to empty folders there, and the build would download and compile every
# module again.
export GOPATH GOMODCACHE GOCACHE
GOPATH=$(go env GOPATH) GOMODCACHE=$(go env GOMODCACHE) GOCACHE=$(go env GOCACHE)
HOME="$tmp/home" "$root/scripts/install.sh" >"$tmp/install.log" 2>&1 || { cat "$tmp/install.log"; exit 1; }
mirror="$tmp/home/.terraform.d/plugins"
echo "installed $version into a temporary HOME's .terraform.d/plugins"

(cd "$root" && go build -o "$tmp/agentregistry-server" ./cmd/agentregistry-server)
"$tmp/agentregistry-server" -listen 127.0.0.1:0 >"$tmp/server.log" 2>&1 &
server_pid=$!
endpoint=""
for _ in $(seq 1 100); do
  endpoint=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$tmp/server.log" | head -1)
  [ -n "$endpoint" ] && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$tmp/server.log"; echo "the server exited" >&2; exit 1; }
  sleep 0.1
done
[ -n "$endpoint" ] || { cat "$tmp/server.log"; echo "the server did not start" >&2; exit 1; }

# module DIR CONSTRAINT: a module that uses the provider (a resource and a data
# source, which reads the registry during plan) and the built-in terraform_data.
module() {
  mkdir -p "$1"
  cat >"$1/main.tf" <<TF
terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry", version = "$2" }
  }
}

provider "agentregistry" {
  endpoint = "$endpoint"
  project  = "install-test"
}

resource "agentregistry_agent" "echo" {
  service_id = "echo-agent"
  agent_card = jsonencode({
    name            = "Echo"
    description     = "Repeats what it is told."
    version         = "1.0.0"
    url             = "https://echo.example.com/a2a"
    protocolVersion = "0.3.0"
    skills          = [{ id = "echo", name = "Echo", description = "Echoes the input.", tags = ["test"] }]
  })
}

data "agentregistry_agents" "all" {
  query = "echo"
}

resource "terraform_data" "skills" {
  input = agentregistry_agent.echo.a2a_version
}

output "agents_found" {
  value = length(data.agentregistry_agents.all.agents)
}
TF
}

export CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1 HOME="$tmp/home"
export HTTP_PROXY=http://127.0.0.1:9 HTTPS_PROXY=http://127.0.0.1:9 NO_PROXY=127.0.0.1,localhost
export http_proxy="$HTTP_PROXY" https_proxy="$HTTPS_PROXY" no_proxy="$NO_PROXY"
unset TF_PLUGIN_CACHE_DIR XDG_DATA_HOME XDG_CONFIG_HOME
: >"$tmp/empty.tfrc"
cat >"$tmp/mirror.tfrc" <<RC
provider_installation {
  filesystem_mirror {
    path    = "$mirror"
    include = ["registry.terraform.io/agentregistry/agentregistry", "registry.opentofu.org/agentregistry/agentregistry"]
  }
  direct {
    exclude = ["registry.terraform.io/agentregistry/agentregistry", "registry.opentofu.org/agentregistry/agentregistry"]
  }
}
RC

# check CLI NAME HOW CONSTRAINT CLIRC [INIT ARGS...]
check() {
  local cli=$1 name=$2 how=$3 want=$4 rc=$5
  shift 5
  local dir="$tmp/$name-$how"
  module "$dir" "$want"
  local started=$SECONDS
  if ! TF_CLI_CONFIG_FILE="$rc" "$cli" -chdir="$dir" init -input=false -no-color "$@" >"$dir/init.log" 2>&1; then
    cat "$dir/init.log"
    echo "FAIL $name init ($how, version = \"$want\")" >&2
    exit 1
  fi
  if ! grep -q "version *= *\"$version\"" "$dir/.terraform.lock.hcl"; then
    cat "$dir/.terraform.lock.hcl"
    echo "FAIL $name init ($how): the lock file does not record version $version" >&2
    exit 1
  fi
  local code=0
  TF_CLI_CONFIG_FILE="$rc" "$cli" -chdir="$dir" plan -input=false -no-color -detailed-exitcode >"$dir/plan.log" 2>&1 || code=$?
  if [ "$code" -ne 2 ] || ! grep -q 'agentregistry_agent.echo will be created' "$dir/plan.log" ||
    ! grep -q 'terraform_data.skills will be created' "$dir/plan.log" || ! grep -q 'Plan: 2 to add' "$dir/plan.log"; then
    cat "$dir/plan.log"
    echo "FAIL $name plan ($how, version = \"$want\"): exit code $code, want 2 with 2 resources to add" >&2
    exit 1
  fi
  echo "ok   $name: init + plan offline, $how, version = \"$want\" -> $version ($((SECONDS - started)) s)"
}

. "$root/scripts/cli-list.sh"
# shellcheck disable=SC2086 # OLDEST_CLIS is a list of binaries
cli_list "$TOFU" "$TERRAFORM" ${OLDEST_CLIS:-}
[ -n "$TERRAFORM" ] || echo "TERRAFORM is empty: install tested without the newest Terraform"
for i in "${!clis[@]}"; do
  check "${clis[$i]}" "${names[$i]}" implied "$version" "$tmp/empty.tfrc"
  check "${clis[$i]}" "${names[$i]}" plugin-dir "$constraint" "$tmp/empty.tfrc" -plugin-dir="$mirror"
  check "${clis[$i]}" "${names[$i]}" filesystem_mirror "$version" "$tmp/mirror.tfrc"
done
echo "make install: init + plan with a version constraint work offline with ${names[*]}"
