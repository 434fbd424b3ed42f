#!/usr/bin/env bash
# The `terraform query` figures of make bench: a registry of N agents seeded
# through the API (scripts/bench/seed, as a registry populated outside
# Terraform is), then, with Terraform 1.14+ (scripts/query-terraform.sh):
#   query      terraform query of an agentregistry_agent list block with
#              include_resource = true (what -generate-config-out reads)
#   generate   terraform query -generate-config-out=generated.tf
#   imports    terraform plan of the generated configuration (N to import)
#   noop       terraform plan -detailed-exitcode of the same N agents once
#              imported and managed: the no-change plan the query compares with
# Medians of QUERY_RUNS runs; the growth from the smallest to the largest N; and
# the CPU of one run of each step at the largest N, the provider's own (its
# CPU profile) against Terraform's. It prints figures and checks that each plan is
# what it should be (N to import, then no changes); it asserts no timing.
#   QUERY_N="100 1000"  QUERY_RUNS=3
#   QUERY_PLUGINS=DIR   a provider build to use (make bench passes its own)
set -euo pipefail
root="$(cd "$(dirname "$0")/../.." && pwd)"
TERRAFORM=$("$root/scripts/query-terraform.sh")
N_LIST="${QUERY_N:-100 1000}"
RUNS="${QUERY_RUNS:-3}"
if [ -z "$TERRAFORM" ]; then
  echo "no Terraform 1.14+ (set TERRAFORM_QUERY): terraform query figures skipped"
  exit 0
fi

work=$(mktemp -d)
# shellcheck source=../lib.sh
. "$root/scripts/lib.sh"
trap 'stop_registry_server; rm -rf "$work"' EXIT

plugins="${QUERY_PLUGINS:-$work/plugins}"
echo "query bench: building..." >&2
[ -n "${QUERY_PLUGINS:-}" ] || build_provider "$plugins"
build_server "$work/bin"
(cd "$root" && go build -o "$work/bin/seed" ./scripts/bench/seed)
start_registry_server "$work/bin/agentregistry-server" "$work/server.log"
write_dev_overrides "$work/cli.tfrc" "$plugins"
export TF_CLI_CONFIG_FILE="$work/cli.tfrc" CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
# tf -chdir=DIR COMMAND ARGS...: Terraform without colours.
tf() { "$TERRAFORM" "$1" "$2" -no-color "${@:3}"; }

calc() { awk "BEGIN { printf \"%.4f\", $1 }"; }
median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# seconds CMD...: wall time of one command, its output in $work/last.log.
seconds() {
  local start end
  start=$(date +%s.%N)
  "$@" >"$work/last.log" 2>&1 || { cat "$work/last.log" >&2; echo "failed: $*" >&2; exit 1; }
  end=$(date +%s.%N)
  calc "$end - $start"
}
# expect_log TEXT: the last command printed TEXT.
expect_log() { grep -qF "$1" "$work/last.log" || { cat "$work/last.log" >&2; echo "expected: $1" >&2; exit 1; }; }

declare -A fig
for n in $N_LIST; do
  echo "query bench: seeding $n agents through the API..." >&2
  "$work/bin/seed" -endpoint "$endpoint" -project "bench-query-$n" -n "$n" -cards "$root/scripts/bench"
  adopt="$work/n$n/adopt" managed="$work/n$n/managed"
  mkdir -p "$adopt" "$managed"
  cat >"$adopt/main.tf" <<TF
terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry" }
  }
}
provider "agentregistry" {
  endpoint = "$endpoint"
  project  = "bench-query-$n"
}
TF
  cat >"$adopt/agents.tfquery.hcl" <<TF
list "agentregistry_agent" "a" {
  provider         = agentregistry
  include_resource = true
  limit            = $n
}
TF
  cp "$adopt/main.tf" "$managed/"
  queries=() gens=() imports=() noops=()
  for run in $(seq 1 "$RUNS"); do
    echo "query bench: N=$n run $run/$RUNS..." >&2
    queries+=("$(seconds tf -chdir="$adopt" query)")
    [ "$(grep -c '^list\.agentregistry_agent\.a ' "$work/last.log")" = "$n" ] || { cat "$work/last.log" >&2; echo "expected $n results" >&2; exit 1; }
    gens+=("$(seconds tf -chdir="$adopt" query -generate-config-out=generated.tf)")
    # Out of the query's folder: the next query would load and validate it.
    mv "$adopt/generated.tf" "$managed/generated.tf"
    imports+=("$(seconds tf -chdir="$managed" plan -input=false -lock=false)")
    expect_log "Plan: $n to import, 0 to add, 0 to change, 0 to destroy."
  done
  tf -chdir="$managed" apply -input=false -auto-approve -lock=false >"$work/last.log" 2>&1 || { cat "$work/last.log" >&2; exit 1; }
  expect_log "Resources: $n imported, 0 added, 0 changed, 0 destroyed."
  for run in $(seq 1 "$RUNS"); do
    noops+=("$(seconds tf -chdir="$managed" plan -input=false -lock=false -detailed-exitcode)")
  done
  fig[$n,query]=$(median "${queries[@]}")
  fig[$n,generate]=$(median "${gens[@]}")
  fig[$n,imports]=$(median "${imports[@]}")
  fig[$n,noop]=$(median "${noops[@]}")
done

# cpu_split STEP DIR ARGS...: the CPU (user+sys) of one profiled run of a
# Terraform command at the largest N, the whole command's (Terraform and the
# provider; the server apart) and the provider's own (from the CPU profiles it
# writes, AGENTREGISTRY_CPUPROFILE); its largest profile is kept for the hot
# spots.
# shellcheck disable=SC2086 # N_LIST is a list of numbers
largest=$(printf '%s\n' $N_LIST | sort -n | tail -1)
# shellcheck disable=SC2086 # N_LIST is a list of numbers
smallest=$(printf '%s\n' $N_LIST | sort -n | head -1)
declare -A cpu
cpu_split() {
  local step=$1 t f line own=0
  shift
  rm -rf "$work/prof" && mkdir -p "$work/prof"
  TIMEFORMAT='%U %S'
  t=$( { time AGENTREGISTRY_CPUPROFILE="$work/prof/cpu-%p.prof" tf "$@" >"$work/last.log" 2>&1; } 2>&1 ) ||
    { cat "$work/last.log" >&2; echo "failed: $*" >&2; exit 1; }
  for f in "$work"/prof/*.prof; do
    line=$( (cd "$root" && go tool pprof -top "$f" 2>/dev/null) | grep -o 'Total samples = [0-9.]*[a-z]*' || true)
    case "$line" in
      *ms) own=$(calc "$own + ${line//[^0-9.]/} / 1000") ;;
      *s) own=$(calc "$own + ${line//[^0-9.]/}") ;;
    esac
  done
  cpu[$step,total]=$(calc "${t% *} + ${t#* }")
  cpu[$step,provider]=$own
  # shellcheck disable=SC2012 # ls -S: the largest profile; the names are the script's own
  cp "$(ls -S "$work"/prof/*.prof | head -1)" "$work/$step.prof"
}
cpu_split query -chdir="$work/n$largest/adopt" query
cpu_split generate -chdir="$work/n$largest/adopt" query -generate-config-out=generated.tf
rm "$work/n$largest/adopt/generated.tf"
# The imports again, from a state without them.
mkdir -p "$work/n$largest/imports" && cp "$work/n$largest/managed/"*.tf "$work/n$largest/imports/"
cpu_split imports -chdir="$work/n$largest/imports" plan -input=false -lock=false
cpu_split noop -chdir="$work/n$largest/managed" plan -input=false -lock=false
hot=$(cd "$root" && go tool pprof -top -cum "$work/query.prof" 2>/dev/null |
  grep -E 'provider\.(generatedConfigForm|\(\*listStream\)\.emit|\(\*serviceResource.*\)\.fromService)$|tfsdk\.\(\*Resource\)\.Set$' |
  awk '{printf "  %-8s %s\n", $4, $NF}' | sed 's#github.com/[a-z-]*/terraform-provider-agentregistry/internal/##; s#github.com/hashicorp/terraform-plugin-framework/##; s#\[go\.shape[^]]*\]##g')

printf '\nterraform query (%s), agents seeded through the API, median of %s runs\n' "$("$TERRAFORM" version | head -1)" "$RUNS"
printf '%-6s %10s %12s %12s %16s %14s\n' "N" "query s" "generate s" "imports s" "no-change s" "query/no-change"
for n in $N_LIST; do
  printf '%-6s %10.2f %12.2f %12.2f %16.2f %14.2f\n' "$n" "${fig[$n,query]}" "${fig[$n,generate]}" "${fig[$n,imports]}" \
    "${fig[$n,noop]}" "$(calc "${fig[$n,query]} / ${fig[$n,noop]}")"
done
if [ "$smallest" != "$largest" ]; then
  for step in query generate imports noop; do
    printf 'growth %-9s N=%s / N=%s: %.2f (linear would be %.1f; target <= 11)\n' "$step" "$largest" "$smallest" \
      "$(calc "${fig[$largest,$step]} / ${fig[$smallest,$step]}")" "$(calc "$largest / $smallest")"
  done
fi
printf 'target: the query of %s takes no longer than the no-change plan of the same %s: %s\n' "$largest" "$largest" \
  "$(awk "BEGIN { print (${fig[$largest,query]} <= ${fig[$largest,noop]}) ? \"met\" : \"NOT met\" }")"
printf '\nCPU seconds (user+sys) of one profiled run at N=%s: where the time goes\n' "$largest"
printf '%-9s %10s %14s %16s\n' "step" "total" "provider own" "Terraform own"
for step in query generate imports noop; do
  printf '%-9s %10.2f %14.2f %16.2f\n' "$step" "${cpu[$step,total]}" "${cpu[$step,provider]}" \
    "$(calc "${cpu[$step,total]} - ${cpu[$step,provider]}")"
done
[ -n "$hot" ] && printf 'the provider'"'"'s share of the query, cumulative:\n%s\n' "$hot"
printf 'machine load (1, 5, 15 min): %s\n' "$(cut -d' ' -f1-3 /proc/loadavg)"
