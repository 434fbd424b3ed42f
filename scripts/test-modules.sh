#!/usr/bin/env bash
# Runs the native tests of every module under modules/ (`tofu test` and
# `terraform test`, with each CLI named below) against the bundled registry
# server on loopback, with the provider built from this clone and installed
# through dev_overrides (no registry download). Each CLI gets a fresh server.
# Each module is tested from a scratch copy, so no .terraform or state lands in
# the clone. For registry-fleet it also checks the wording a user sees: a plain
# `plan` of a folder with one bad card fails and names that file.
#   TOFU=<binary>         OpenTofu (default: scripts/install-tofu.sh)
#   TERRAFORM=<binary>    Terraform (default: `terraform` on the PATH; TERRAFORM=none skips it)
#   OLDEST_CLIS=<binary>...  more CLIs to run the tests with (make passes the oldest tested)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
TOFU="${TOFU:-$("$root/scripts/install-tofu.sh")}"
TERRAFORM="${TERRAFORM:-$(command -v terraform || true)}"
[ "$TERRAFORM" = none ] && TERRAFORM=""
. "$root/scripts/cli-list.sh"
# shellcheck disable=SC2086 # OLDEST_CLIS is a list of binaries
cli_list "$TOFU" "$TERRAFORM" ${OLDEST_CLIS:-}

work=$(mktemp -d)
server_pid=""
stop_server() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  server_pid=""
}
trap 'stop_server; rm -rf "$work"' EXIT

mkdir -p "$work/plugins" "$work/bin"
(cd "$root" && go build -o "$work/plugins/terraform-provider-agentregistry" . &&
  go build -o "$work/bin/agentregistry-server" ./cmd/agentregistry-server)

# The same build answers to both CLIs' provider addresses.
cat > "$work/cli.rc" <<RC
provider_installation {
  dev_overrides {
    "registry.opentofu.org/agentregistry/agentregistry" = "$work/plugins"
    "registry.terraform.io/agentregistry/agentregistry" = "$work/plugins"
  }
  direct {}
}
RC
export TF_CLI_CONFIG_FILE="$work/cli.rc" CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
# The test files configure the provider themselves; settings from the caller's
# environment (another location, a token) must not leak into them.
unset AGENTREGISTRY_ENDPOINT AGENTREGISTRY_APPHUB_ENDPOINT AGENTREGISTRY_PROJECT AGENTREGISTRY_LOCATION \
  AGENTREGISTRY_ACCESS_TOKEN GOOGLE_CLOUD_PROJECT

endpoint=""
# -apphub-writable: the tests seed the AgentProperties that App Hub would derive
# from a deployed agent (Google's App Hub, and this server by default, ignore
# that write); the modules themselves only verify them.
start_server() {
  "$work/bin/agentregistry-server" -listen 127.0.0.1:0 -apphub-writable >"$work/server.log" 2>&1 &
  server_pid=$!
  endpoint=""
  for _ in $(seq 1 100); do
    endpoint=$(sed -n 's/.*listening on \(http:[^ ]*\).*/\1/p' "$work/server.log" | head -1)
    [ -n "$endpoint" ] && return 0
    kill -0 "$server_pid" 2>/dev/null || break
    sleep 0.1
  done
  cat "$work/server.log" >&2
  echo "the registry server did not start" >&2
  exit 1
}

# A plain plan of a folder with one bad card must fail, name the bad file with
# its problem, and say nothing against the good card in the same folder.
check_bad_card_message() {
  local cli=$1 dir=$2 out
  if out=$(AGENTREGISTRY_ENDPOINT="$endpoint" AGENTREGISTRY_PROJECT=message-check \
    "$cli" -chdir="$dir" plan -input=false -no-color -var cards_dir=tests/fixtures/bad-card/cards 2>&1); then
    echo "$out"; echo "FAIL: plan of tests/fixtures/bad-card succeeded" >&2; return 1
  fi
  if ! grep -q 'broken-agent.json: line 1, column 1: (root): missing required property "url"' <<<"$out" ||
    grep -q 'currency-agent.json:' <<<"$out"; then
    echo "$out"; echo "FAIL: the plan error should name broken-agent.json and its problem, and only it" >&2; return 1
  fi
  echo "ok   plan of tests/fixtures/bad-card fails naming broken-agent.json"
}

run_cli() {
  local cli=$1 name=$2 start module dir
  start=$(date +%s)
  start_server
  echo "==> $name test against $endpoint ($cli)"
  for module in "$root"/modules/*/; do
    [ -d "$module/tests" ] || continue
    module=$(basename "$module")
    dir="$work/$name-$module"
    cp -r "$root/modules/$module" "$dir"
    # `get` installs the test files' helper module (tests/setup); the provider
    # comes from dev_overrides, so `init` (which would look it up) is not needed.
    "$cli" -chdir="$dir" get -no-color >/dev/null
    "$cli" -chdir="$dir" test -no-color -var "endpoint=$endpoint"
    if [ "$module" = registry-fleet ]; then check_bad_card_message "$cli" "$dir"; fi
  done
  stop_server
  echo "==> $name: module tests passed in $(($(date +%s) - start))s"
}

"$TOFU" fmt -check -diff -recursive "$root/modules" >/dev/null || { echo "modules/ is not formatted: run tofu fmt -recursive modules" >&2; exit 1; }
for i in "${!clis[@]}"; do
  run_cli "${clis[$i]}" "${names[$i]}"
done
[ -n "$TERRAFORM" ] || echo "no Terraform (TERRAFORM=none, or none on the PATH): module tests ran without the newest Terraform"
