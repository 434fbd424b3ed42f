#!/usr/bin/env bash
# Benchmark suite (make bench): times plan, apply, a refresh-only plan and a plan
# that finds no changes (plan -detailed-exitcode, the CI drift check) of N
# agentregistry_agent resources against the bundled server on loopback, next to
# the same N of terraform_data resources carrying the same JSON (the OpenTofu
# floor), in the same run; prints medians and ratios, the provider's peak RSS
# during the largest no-change plan (the largest values it handles), and the Go
# benchmarks; then the `terraform query` figures of scripts/bench/query.sh (a
# registry of 100 and 1,000 agents seeded through the API, with Terraform 1.14+:
# TERRAFORM_QUERY, QUERY_N, QUERY_RUNS). It prints figures; it asserts
# no timing (machines here are shared and noisy).
#   BENCH_N="100 500"  sizes      BENCH_RUNS=3  runs per figure (median)
#   BENCH_SPLIT_RUNS=1 profiled runs of the CPU split (median)
#   BENCH_EXTRAS=0     leaves out the Go benchmarks and the query figures
#   BENCH_BASELINE=REV also times the provider built from git revision REV (a
#                      "before" column measured in the same run as the "after")
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
TOFU="${TOFU:-$("$root/scripts/install-tofu.sh")}"
N_LIST="${BENCH_N:-100 500}"
RUNS="${BENCH_RUNS:-3}"
SPLIT_RUNS="${BENCH_SPLIT_RUNS:-1}"
BASELINE="${BENCH_BASELINE:-}"
kinds="provider floor"
[ -n "$BASELINE" ] && kinds="provider baseline floor"

work=$(mktemp -d)
# shellcheck source=lib.sh
. "$root/scripts/lib.sh"
trap 'stop_registry_server; rm -rf "$work"' EXIT

echo "building the provider and the server..." >&2
build_provider "$work/plugins-provider"
build_server "$work/bin"
mkdir -p "$work/plugins-floor"
if [ -n "$BASELINE" ]; then
  echo "building the baseline provider at $BASELINE..." >&2
  mkdir -p "$work/baseline-src"
  (cd "$root" && git archive "$BASELINE" | tar -x -C "$work/baseline-src")
  build_provider "$work/plugins-baseline" "$work/baseline-src"
fi
start_registry_server "$work/bin/agentregistry-server" "$work/server.log"

# One CLI configuration per kind, each overriding the provider with its build.
for kind in $kinds; do
  write_dev_overrides "$work/tofurc-$kind" "$work/plugins-$kind"
done
export CHECKPOINT_DISABLE=1 TF_IN_AUTOMATION=1
# tf KIND ARGS...: OpenTofu with the provider build of KIND.
tf() { local kind=$1; shift; TF_CLI_CONFIG_FILE="$work/tofurc-$kind" "$TOFU" "$@"; }

# write_configs N: one folder with N agents (every 10th card is 10 KB, the rest
# about 2 KB), one with N terraform_data resources carrying the same documents.
# Each resource's card is its own (its URL carries the index), as in real use, so
# that no cache keyed by content can serve one resource with another's work.
write_configs() {
  local n=$1 d="$work/n$1"
  mkdir -p "$d/provider" "$d/floor"
  for kind in provider floor; do
    cp "$root/scripts/bench/card-2k.json" "$root/scripts/bench/card-10k.json" "$d/$kind/"
    cat > "$d/$kind/cards.tf" <<'TF'
locals {
  card_small = file("${path.module}/card-2k.json")
  card_large = file("${path.module}/card-10k.json")
}
# card(i): the document of resource i.
locals {
  cards = [for i in range(var.n) : replace(i % 10 == 0 ? local.card_large : local.card_small,
  "https://agents.example.com/", "https://agents.example.com/${i}/")]
}
TF
  done
  cat > "$d/provider/main.tf" <<TF
terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry" }
  }
}
provider "agentregistry" {
  endpoint = "$endpoint"
  project  = "bench-$n"
}
resource "agentregistry_agent" "a" {
  count      = $n
  service_id = "agent-\${count.index}"
  agent_card = local.cards[count.index]
}
variable "n" { default = $n }
TF
  if [ -n "$BASELINE" ]; then
    cp -r "$d/provider" "$d/baseline"
    sed -i "s/bench-$n/bench-$n-baseline/" "$d/baseline/main.tf"
  fi
  cat > "$d/floor/main.tf" <<TF
resource "terraform_data" "a" {
  count = $n
  input = local.cards[count.index]
}
variable "n" { default = $n }
TF
}

# measure CMD...: "WALL CPU" seconds of one command; CPU is user+sys of it and
# of the processes it waited for (OpenTofu and the provider it starts; the
# registry server is not one of them). CPU time moves less than wall time when
# the machine is shared, so the table gives both.
measure() {
  local TIMEFORMAT='%R %U %S' t r u s
  t=$( { time "$@" >"$work/last.log" 2>&1; } 2>&1 ) || { cat "$work/last.log" >&2; echo "failed: $*" >&2; exit 1; }
  read -r r u s <<<"$t"
  echo "$r $(calc "$u + $s")"
}

calc() { awk "BEGIN { printf \"%.4f\", $1 }"; }

median() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

# peak_rss_kb CMD...: runs CMD while sampling the provider process's peak RSS.
peak_rss_kb() {
  local peak=0 pid v
  "$@" >"$work/last.log" 2>&1 &
  pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    for p in $(pgrep -f "$work/plugins-provider/terraform-provider-agentregistry" || true); do
      v=$(awk '/VmHWM/ {print $2}' "/proc/$p/status" 2>/dev/null || echo 0)
      [ "${v:-0}" -gt "$peak" ] && peak=$v
    done
    sleep 0.05
  done
  wait "$pid" || { cat "$work/last.log" >&2; exit 1; }
  echo "$peak"
}

# provider_cpu_seconds: the provider's CPU seconds in the CPU profiles it wrote
# (AGENTREGISTRY_CPUPROFILE, one per provider process) under $work/prof.
provider_cpu_seconds() {
  local total=0 f line
  for f in "$work"/prof/*.prof; do
    line=$( (cd "$root" && go tool pprof -top "$f" 2>/dev/null) | grep -o 'Total samples = [0-9.]*[a-z]*' || true)
    case "$line" in
      *mins) total=$(calc "$total + ${line//[^0-9.]/} * 60") ;;
      *ms) total=$(calc "$total + ${line//[^0-9.]/} / 1000") ;;
      *s) total=$(calc "$total + ${line//[^0-9.]/}") ;;
    esac
  done
  echo "$total"
}

# cpu_split KIND STEP CMD...: records the CPU of one profiled run of a step,
# and for a provider build (this one or the baseline) the part that was the
# provider's own (from its CPU profiles), so that the table can show how much
# of the cost is OpenTofu's own. Samples add up over the split runs.
declare -A cpu
cpu_split() {
  local kind=$1 step=$2
  shift 2
  rm -rf "$work/prof" && mkdir -p "$work/prof"
  cpu[$kind,$step]+="$(AGENTREGISTRY_CPUPROFILE="$work/prof/cpu-%p.prof" measure "$@" | cut -d" " -f2) "
  [ "$kind" != floor ] && cpu[$kind-own,$step]+="$(provider_cpu_seconds) "
  return 0
}

steps="plan apply refresh noop"
# step_args STEP: the OpenTofu arguments of a step.
step_args() {
  case $1 in
    plan) echo "plan -input=false -lock=false" ;;
    apply) echo "apply -input=false -auto-approve -lock=false" ;;
    refresh) echo "plan -input=false -refresh-only -lock=false" ;;
    noop) echo "plan -input=false -detailed-exitcode -lock=false" ;;
  esac
}

# Runs are the outer loop and kinds the inner one, so that the provider, the
# baseline and the floor of one run are measured minutes apart at most, under
# the same load; each figure is the median of its runs.
declare -A fig samples
for n in $N_LIST; do
  write_configs "$n"
  for run in $(seq 1 "$RUNS"); do
    for kind in $kinds; do
      echo "N=$n run $run/$RUNS $kind..." >&2
      dir="$work/n$n/$kind"
      for step in $steps; do
        # shellcheck disable=SC2046 # step_args is words on purpose
        read -r wall cpus <<<"$(measure tf "$kind" -chdir="$dir" $(step_args "$step"))"
        samples[$n,$kind,$step,wall]+="$wall "
        samples[$n,$kind,$step,cpu]+="$cpus "
      done
      tf "$kind" -chdir="$dir" destroy -input=false -auto-approve -lock=false >"$work/last.log" 2>&1 ||
        { cat "$work/last.log" >&2; exit 1; }
    done
  done
  for kind in $kinds; do
    for step in $steps; do
      for m in wall cpu; do
        # shellcheck disable=SC2086 # the samples are words
        fig[$n,$kind,$step,$m]=$(median ${samples[$n,$kind,$step,$m]})
      done
    done
  done
done

# shellcheck disable=SC2086 # N_LIST is a list of numbers
largest=$(printf '%s\n' $N_LIST | sort -n | tail -1)
for run in $(seq 1 "$SPLIT_RUNS"); do
  echo "N=$largest CPU split (profiled run $run/$SPLIT_RUNS of each kind)..." >&2
  for kind in $kinds; do
    dir="$work/n$largest/$kind"
    for step in $steps; do
      # shellcheck disable=SC2046 # step_args is words on purpose
      cpu_split "$kind" "$step" tf "$kind" -chdir="$dir" $(step_args "$step")
    done
    tf "$kind" -chdir="$dir" destroy -input=false -auto-approve -lock=false >"$work/last.log" 2>&1 ||
      { cat "$work/last.log" >&2; exit 1; }
  done
done

dir="$work/n$largest/provider"
tf provider -chdir="$dir" apply -input=false -auto-approve -lock=false >"$work/last.log" 2>&1 || { cat "$work/last.log" >&2; exit 1; }
rss=$(peak_rss_kb tf provider -chdir="$dir" plan -input=false -detailed-exitcode -lock=false)
tf provider -chdir="$dir" destroy -input=false -auto-approve -lock=false >"$work/last.log" 2>&1 || { cat "$work/last.log" >&2; exit 1; }

# table METRIC TITLE: the medians of one metric, with the ratios to the floor
# (and the baseline's).
table() {
  local m=$1 n step p f b
  printf '\n%s (median of %s runs)\n' "$2" "$RUNS"
  if [ -n "$BASELINE" ]; then
    printf '%-6s %-8s %12s %12s %12s %10s %8s %12s\n' "N" "step" "provider s" "floor s" "baseline s" "base ratio" "ratio" "prov/base"
  else
    printf '%-6s %-8s %12s %12s %8s\n' "N" "step" "provider s" "floor s" "ratio"
  fi
  for n in $N_LIST; do
    for step in $steps; do
      p=${fig[$n,provider,$step,$m]} f=${fig[$n,floor,$step,$m]}
      if [ -n "$BASELINE" ]; then
        b=${fig[$n,baseline,$step,$m]}
        printf '%-6s %-8s %12.2f %12.2f %12.2f %10.2f %8.2f %12.2f\n' "$n" "$step" "$p" "$f" "$b" \
          "$(calc "$b / $f")" "$(calc "$p / $f")" "$(calc "$p / $b")"
      else
        printf '%-6s %-8s %12.2f %12.2f %8.2f\n' "$n" "$step" "$p" "$f" "$(calc "$p / $f")"
      fi
    done
  done
}
table wall "Wall time, seconds"
table cpu "CPU time (user+sys of OpenTofu and the provider), seconds"
# shellcheck disable=SC2086 # N_LIST is a list of numbers
smallest=$(printf '%s\n' $N_LIST | sort -n | head -1)
if [ "$smallest" != "$largest" ]; then
  echo
  for step in $steps; do
    printf 'growth %-8s N=%s / N=%s CPU time ratio: %.2f (linear would be %.1f)\n' "$step" "$largest" "$smallest" \
      "$(calc "${fig[$largest,provider,$step,cpu]} / ${fig[$smallest,provider,$step,cpu]}")" \
      "$(calc "$largest / $smallest")"
  done
fi
# split_row LABEL KIND: one build's CPU split of every step (medians).
split_row() {
  local step total own
  for step in $steps; do
    # shellcheck disable=SC2086 # the samples are words
    total=$(median ${cpu[$2,$step]}) own=$(median ${cpu[$2-own,$step]})
    # shellcheck disable=SC2086 # cpu[...] holds a list of figures, one per run
    printf '%-9s %-8s %10.2f %18.2f %14.2f %16.2f\n' "$1" "$step" "$(median ${cpu[floor,$step]})" "$total" "$own" "$(calc "$total - $own")"
  done
}
printf '\nCPU seconds (user+sys) at N=%s, median of %s profiled runs: where the time goes\n' "$largest" "$SPLIT_RUNS"
printf '%-9s %-8s %10s %18s %14s %16s\n' "build" "step" "floor" "with the provider" "provider own" "OpenTofu own"
split_row head provider
[ -n "$BASELINE" ] && split_row baseline baseline

printf '\nprovider peak RSS during the N=%s no-change plan: %.1f MB\n' "$largest" "$(calc "$rss / 1024")"

if [ "${BENCH_EXTRAS:-1}" = 0 ]; then
  exit 0
fi
echo
echo "Go benchmarks (validation, search on 10,000 agents, the provider's requests for one agent with a 10 KB card):"
(cd "$root" && go test -run '^$' -bench . -benchmem -count 1 ./internal/spec/ ./internal/registryserver/ ./internal/provider/ 2>&1 |
  grep -E '^(Benchmark|ok|FAIL)')

echo
echo "Operation polling (issue 35): n services whose operations take d, applied 10 at once, against the floor of ceil(n/10) waves of d:"
(cd "$root" && go test -run '^$' -bench OperationPolling -benchtime 1x -count 1 -v ./internal/registryclient/ 2>&1 |
  grep -E '^(Benchmark|ok|FAIL)|floor|polls')

echo
QUERY_PLUGINS="$work/plugins-provider" "$root/scripts/bench/query.sh"
