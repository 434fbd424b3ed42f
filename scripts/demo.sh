#!/usr/bin/env bash
# The main job: builds the provider and the bundled registry server, starts the
# server on loopback with a temporary data file, seeds the App Hub AgentProperties
# that App Hub would derive from the deployed currency agent (the server accepts
# that write only because it runs with -apphub-writable), applies examples/demo
# (which verifies that entry and writes none) and lists what it registered,
# prints a skill search, changes a card behind Terraform's back and shows that
# `plan -detailed-exitcode` reports the drift (exit code 2), naming the agent
# and the attributes that changed outside Terraform (from the plan's JSON),
# then destroys everything, stops the server and ends with a summary and what
# to try next. Fails loudly on any error.
#
# The apply's plan (hundreds of lines) is saved to bin/demo-apply.txt, which the
# output names; VERBOSE=1 prints it too.
#
# The CLI: TF=/path/to/binary runs that binary; CLI=terraform or CLI=tofu picks
# one; by default Terraform when `terraform` is on the PATH, else OpenTofu (built
# from the Go module proxy and cached by scripts/install-tofu.sh, or $TOFU).
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"

step() { printf '\n\033[1m==> %s\033[0m\n' "$*"; }

tofu_bin() {
  if [ -n "${TOFU:-}" ] && [ -x "$TOFU" ]; then echo "$TOFU"; else "$root/scripts/install-tofu.sh"; fi
}
if [ -n "${TF:-}" ]; then
  tf_bin="$TF"
elif [ "${CLI:-}" = terraform ]; then
  tf_bin=$(command -v terraform) || { echo "CLI=terraform but no terraform on PATH" >&2; exit 1; }
elif [ "${CLI:-}" = tofu ] || [ "${CLI:-}" = opentofu ]; then
  tf_bin=$(tofu_bin)
elif [ -n "${CLI:-}" ]; then
  echo "CLI must be terraform or tofu, not \"$CLI\" (or set TF=/path/to/binary)" >&2; exit 1
elif command -v terraform >/dev/null; then
  tf_bin=$(command -v terraform)
else
  tf_bin=$(tofu_bin)
fi
[ -x "$tf_bin" ] || { echo "not an executable: $tf_bin" >&2; exit 1; }
# grep: OpenTofu 1.12 prints its CLI configuration warnings on stdout, before the version.
tf_version=$("$tf_bin" version 2>/dev/null | grep -m1 -E '^(Terraform|OpenTofu) v' || true)
case "$tf_version" in
  OpenTofu*) name=tofu ;;
  Terraform*) name=terraform ;;
  *) echo "$tf_bin does not look like Terraform or OpenTofu: $tf_version" >&2; exit 1 ;;
esac
echo "using $tf_version ($tf_bin); CLI=terraform or CLI=tofu picks the other"

work=$(mktemp -d)
# shellcheck source=lib.sh
. "$root/scripts/lib.sh"
trap 'stop_registry_server; rm -rf "$work"' EXIT

step "Building the provider and the registry server"
build_provider "$work/plugins"
build_server "$work/bin"

step "Starting the bundled registry server on loopback (data file $work/registry.db)"
# -apphub-writable lets this script play App Hub's part below; without it the
# server ignores AgentProperties writes, as Google's App Hub does.
start_registry_server "$work/bin/agentregistry-server" "$work/server.log" -apphub-writable -data "$work/registry.db"
echo "registry server at $endpoint"

# dev_overrides makes the CLI use the provider just built, with no init and no
# registry download.
write_dev_overrides "$work/cli.tfrc" "$work/plugins"
export TF_CLI_CONFIG_FILE="$work/cli.tfrc" CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
export TF_VAR_endpoint="$endpoint"
cp -r "$root/examples/demo" "$work/demo"
cd "$work/demo"
tf() { "$tf_bin" "$@"; }

step "Seeding App Hub with the currency agent's AgentProperties, as App Hub derives them from the deployed agent"
# Google's App Hub fills this entry itself from the agent's card and refuses
# the write; the demo's server takes it only because of -apphub-writable. The
# mapping is agent_properties_from_card's, which the demo declares.
workload="projects/demo-project/locations/global/applications/payments/workloads/currency-agent"
derived=$(jq -c '{displayName: .name, description, version, framework: "google-adk",
  agentCardUri: "https://agents.example.com/currency/.well-known/agent-card.json",
  skills: [.skills[] | {id, name, description, tags} + (if (.examples // []) == [] then {} else {examples} end)]}' \
  "$root/examples/demo/cards/currency-agent.json")
curl -fsS -X PATCH "$endpoint/v1/$workload?allowMissing=true&updateMask=workloadProperties.extendedMetadata" \
  -H 'Content-Type: application/json' \
  -d "{\"workloadProperties\":{\"extendedMetadata\":{\"apphub.googleapis.com/AgentProperties\":{\"metadataStruct\":$derived}}}}" >/dev/null
echo "seeded $workload"

step "$name apply examples/demo: 3 agents, 1 MCP server, 1 AgentProperties entry verified against App Hub"
mkdir -p "$root/bin"
applied="$root/bin/demo-apply.txt"
if ! tf apply -auto-approve -no-color >"$applied" 2>&1; then
  cat "$applied"
  echo "$name apply failed (its output is above, and in $applied)" >&2
  exit 1
fi
if [ "${VERBOSE:-}" = 1 ]; then cat "$applied"; fi
grep -E '^Apply complete!' "$applied"
echo "the plan and the apply in full: $applied (VERBOSE=1 prints them here)"
# What was registered, from the state: each agent's skill ids and each MCP
# server's tool names, as the plan computed them from the documents.
registered=$(tf show -json | jq -r '.values.root_module.resources[] | select(.mode == "managed") | .values as $v
  | if .type == "agentregistry_agent" then "  agent \($v.service_id): \($v.skill_ids | length) skills (\($v.skill_ids | join(", ")))"
    elif .type == "agentregistry_mcp_server" then "  MCP server \($v.service_id): \($v.tool_names | length) tools (\($v.tool_names | join(", ")))"
    elif .type == "agentregistry_agent_properties" then "  AgentProperties of \($v.workload), verified against App Hub"
    else empty end')
echo "registered:"
echo "$registered"

step "Skill search among the configuration's own cards with search_cards (\"currency AND skills.tags=finance\")"
tf output -json currency_skills | jq -r '.[] | "  \(.skill) (\(.agent)): \(.urls | join(", "))"'
[ "$(tf output -json currency_skills | jq length)" -gt 0 ] || { echo "the skill search found nothing" >&2; exit 1; }

step "A plan right after apply is empty"
tf plan -detailed-exitcode -no-color >/dev/null

step "Changing the currency agent's card behind Terraform's back (PATCH through the API)"
service="projects/demo-project/locations/global/services/currency-agent"
card=$(jq -c '.description = "Edited outside Terraform"' "$root/examples/demo/cards/currency-agent.json")
curl -fsS -X PATCH "$endpoint/v1/$service?updateMask=agentSpec" -H 'Content-Type: application/json' \
  -d "{\"agentSpec\":{\"type\":\"A2A_AGENT_CARD\",\"content\":$card}}" >/dev/null
echo "patched $service"

step "$name plan -detailed-exitcode reports the drift, and which agent drifted"
set +e
tf plan -detailed-exitcode -no-color -out="$work/drift.tfplan" > "$work/plan.txt"
code=$?
set -e
if [ "$code" -ne 2 ]; then
  cat "$work/plan.txt"
  echo "expected exit code 2 (drift), got $code" >&2
  exit 1
fi
# The plan's resource headers and changed lines, then what refresh found
# changed outside Terraform, by address and attribute, from the plan's JSON.
grep -E '^\s+# .* (will|must) be|^\s+[~+-]|Plan:' "$work/plan.txt" | grep -v " in $work/plugins" | head -20
drifted=$(tf show -json "$work/drift.tfplan" | jq -r '.resource_drift[]? | .address as $a | .change as $c
  | [$c.before | keys[] | select($c.before[.] != $c.after[.])] | "\($a): \(join(", "))"')
echo "plan exit code 2: drift detected. Changed outside Terraform (address: attributes):"
echo "  $drifted"
case "$drifted" in
  'agentregistry_agent.agents["currency-agent"]: agent_card'*) ;;
  *) echo "expected the currency agent's agent_card, and only it, to have drifted" >&2; exit 1 ;;
esac

step "$name destroy"
tf destroy -auto-approve -no-color | tail -1

step "Stopping the registry server"
stop_registry_server

step "Summary"
cat <<SUMMARY
Registered in a registry on loopback with $tf_version, then destroyed:
$registered
Drift: a card changed behind Terraform's back made \`plan -detailed-exitcode\` exit 2, naming what changed:
  $drifted
The plan and the apply in full: $applied

Try next: the guide Getting started (docs/guides/getting-started.md) registers an agent of your own against
\`make server\`, shows a mistake caught at plan and a drift check; \`make help\` lists the other targets.
SUMMARY
echo "demo finished"
