#!/usr/bin/env bash
# Mutation testing with gremlins (github.com/go-gremlins/gremlins) on the packages
# whose tests are unit tests. Each argument is PACKAGE:EFFICACY:COVERAGE[:COEFFICIENT],
# e.g. `internal/spec:90:90:60`: the package fails when its test efficacy (killed over
# killed + lived; TIMED OUT counts as neither, as in gremlins) or its mutator
# coverage (covered mutants over all mutants outside NOT VIABLE) is below the
# given percent. COEFFICIENT is gremlins' --timeout-coefficient for the package:
# a mutant times out after COEFFICIENT times the first (coverage) run, building
# included, so a package whose tests take half a second needs a large one.
#
# Mutator coverage leaves out the NOT COVERED mutants that gremlins cannot
# measure: those on a line where Go's coverage profile has no block (the
# expressions of `case ...:` and package-level const/var declarations, to the
# line that closes them), which
# gremlins reports as not covered even when every test runs them. They are
# counted in the "blind" column.
#
# Lived mutants judged equivalent (no behaviour change) are listed in
# scripts/mutation-equivalent.txt, one per line, tab-separated:
#   PACKAGE  FUNCTION  MUTATOR  SOURCE LINE  reason
# keyed by what the mutant is, not where: gremlins reports FILE:LINE:COL, and the
# script reads that line of the source (trimmed) and the top-level function
# around it (Type.method for a method, "-" outside one), so an entry follows
# its code when lines are added above it or its function moves to another file
# of the package. Listed mutants are left out of the efficacy (neither killed
# nor lived); an entry that no longer matches a lived mutant is reported as
# stale (a warning), so the list is kept honest. A lived mutant that is not
# listed is printed with its key, ready to be judged and pasted.
#
# gremlins is installed at a pinned version into $(go env GOPATH)/bin and cached
# there as gremlins-$GREMLINS_VERSION (a no-op when present). Tests run with
# -short -count=1 (GOFLAGS) and without TF_ACC. Logs and JSON reports go to bin/mutation/.
#
# Environment: GREMLINS_VERSION (v0.6.0), MUTATION_WORKERS (2),
# MUTATION_TIMEOUT_COEFFICIENT (10: with 3, most mutants of a package whose tests
# take half a second time out while being built on a busy machine),
# MUTATION_EQUIVALENT (the list above), MUTATION_LOGS (bin/mutation), MUTATION_REPORT_ONLY=1 (no run: report on the
# logs of the last one, e.g. after editing the list of equivalent mutants).
set -euo pipefail

GREMLINS_VERSION="${GREMLINS_VERSION:-v0.6.0}"
workers="${MUTATION_WORKERS:-2}"
coefficient="${MUTATION_TIMEOUT_COEFFICIENT:-10}"
root=$(cd "$(dirname "$0")/.." && pwd)
equivalent="${MUTATION_EQUIVALENT:-$root/scripts/mutation-equivalent.txt}"
bin_dir="$(go env GOPATH)/bin"
gremlins="$bin_dir/gremlins-$GREMLINS_VERSION"

if [ ! -x "$gremlins" ]; then
  echo "installing gremlins $GREMLINS_VERSION from the Go module proxy..." >&2
  tmp=$(mktemp -d)
  trap 'rm -rf "$tmp"' EXIT
  GOBIN="$tmp" go install "github.com/go-gremlins/gremlins/cmd/gremlins@$GREMLINS_VERSION"
  mkdir -p "$bin_dir"
  mv "$tmp/gremlins" "$gremlins"
fi

[ $# -gt 0 ] || { echo "usage: $0 PACKAGE:EFFICACY:COVERAGE..." >&2; exit 2; }
out="${MUTATION_LOGS:-$root/bin/mutation}"
mkdir -p "$out"
cd "$root"
unset TF_ACC

failed=()
rows=()
start_all=$(date +%s)
for spec in "$@"; do
  IFS=: read -r pkg want_eff want_cov pkg_coefficient <<<"$spec"
  pkg_coefficient="${pkg_coefficient:-$coefficient}"
  name=$(basename "$pkg")
  log="$out/$name.log"
  echo "== $pkg (efficacy >= $want_eff%, coverage >= $want_cov%): gremlins, $workers workers, timeout coefficient $pkg_coefficient, log $log" >&2
  start=$(date +%s)
  # gremlins' own thresholds are not used: the efficacy must leave out the equivalent mutants.
  if [ -n "${MUTATION_REPORT_ONLY:-}" ]; then
    [ -s "$log" ] || { failed+=("$pkg: no log $log to report on"); continue; }
  # --exclude-files '/': gremlins also mutates the packages under ./$pkg; only
  # the package itself is measured (registryserver/registryservertest, the
  # fault-injection wrapper, is tested by the client tests that use it).
  # -count=1: a cached test result would make gremlins' coverage run look
  # instant, and its timeout (coefficient x that run) then fails every mutant.
  elif ! GOFLAGS="${GOFLAGS:+$GOFLAGS }-short -count=1" "$gremlins" unleash --workers "$workers" \
    --timeout-coefficient "$pkg_coefficient" --exclude-files '/' -o "$out/$name.json" "./$pkg" >"$log" 2>&1; then
    tail -20 "$log" >&2
    failed+=("$pkg: gremlins failed (see $log)")
    continue
  fi
  secs=$(($(date +%s) - start))
  # Lines such as "      LIVED CONDITIONALS_BOUNDARY at client.go:129:22".
  read -r killed lived equiv timedout notcov unmeasured _notviable stale < <(
    awk -v pkg="$pkg" -v eqfile="$equivalent" '
      # Reads file once: marks the lines where Go coverage has no block, so
      # that gremlins reports a mutant there as NOT COVERED whatever the tests
      # run (the expressions of a switch case (case ...:) and package-level
      # const and var declarations), and keeps each line trimmed and the
      # top-level function it is in, for the keys of the equivalent mutants.
      function load(file,    line, n, inblock, cur) {
        loaded[file] = 1
        n = 0
        cur = "-"
        while ((getline line < file) > 0) {
          n++
          if (line ~ /^func /) cur = funcName(line)
          text[file, n] = trim(line)
          fn[file, n] = cur
          if (line ~ /^}/) cur = "-"
          # A block, or one declaration whose value goes on past its line
          # (var routes = []route{ ... }), is blind to the line that closes it.
          if (line ~ /^(const|var) \($/ || line ~ /^(const|var) .*[{(,]$/) { inblock = 1; blind[file, n] = 1; continue }
          if (inblock) { blind[file, n] = 1; if (line ~ /^[)}]/) inblock = 0; continue }
          if (line ~ /^(const|var) / || line ~ /^[[:space:]]*case .*:/) blind[file, n] = 1
        }
        close(file)
      }
      function trim(s) { sub(/^[ \t]+/, "", s); sub(/[ \t]+$/, "", s); return s }
      # funcName is the name a "func ..." line declares: name, or Type.name
      # for a method (the receiver type without * and type parameters).
      function funcName(line,    s, recv, r, n, parts, name) {
        s = substr(line, 6)
        recv = ""
        if (s ~ /^\(/) {
          r = substr(s, 2, index(s, ")") - 2)
          s = substr(s, index(s, ")") + 2)
          n = split(r, parts, " ")
          recv = parts[n]; sub(/^\*/, "", recv); sub(/\[.*$/, "", recv); recv = recv "."
        }
        name = s; sub(/[\[(].*$/, "", name)
        return recv name
      }
      # at returns the file and line of a FILE:LINE:COL, loading the file.
      function at(loc, parts,    file) {
        split(loc, parts, ":")
        file = pkg "/" parts[1]
        if (!(file in loaded)) load(file)
        return file SUBSEP (parts[2] + 0)
      }
      function unmeasurable(loc,    parts) { return at(loc, parts) in blind }
      # key is the equivalent-list key of a mutant: package, function,
      # mutator and source line, tab-separated.
      function key(loc, mutator,    parts, fl) {
        fl = at(loc, parts)
        return pkg "\t" fn[fl] "\t" mutator "\t" text[fl]
      }
      BEGIN {
        FS = " "
        while ((getline line < eqfile) > 0) {
          if (line ~ /^[[:space:]]*(#|$)/) continue
          nf = split(line, f, "\t")
          if (nf < 5) { print "malformed equivalent entry (want 5 tab-separated fields): " line > "/dev/stderr"; continue }
          if (f[1] != pkg) continue
          eq[f[1] "\t" f[2] "\t" f[3] "\t" f[4]]++
        }
      }
      $1 == "KILLED" { k++ }
      $1 == "LIVED" {
        kk = key($4, $2)
        if (used[kk] < eq[kk]) { e++; used[kk]++ } else { l++; print "lived: " pkg "/" $4 " " $2 "\n  key: " kk > "/dev/stderr" }
      }
      $1 == "TIMED" { t++ }
      $1 == "NOT" && $2 == "COVERED" { if (unmeasurable($5)) u++; else { n++; print "not covered: " pkg "/" $5 " " $3 > "/dev/stderr" } }
      $1 == "NOT" && $2 == "VIABLE" { v++ }
      END {
        for (kk in eq) if (used[kk] < eq[kk]) { s += eq[kk] - used[kk]; print "stale equivalent entry (" eq[kk] - used[kk] " of " eq[kk] " unmatched, no such lived mutant): " kk > "/dev/stderr" }
        printf "%d %d %d %d %d %d %d %d\n", k, l, e, t, n, u, v, s
      }' "$log")
  # As gremlins does, timed-out mutants are covered but neither killed nor lived.
  k=$killed
  eff=$(awk -v k="$k" -v l="$lived" 'BEGIN { printf "%.2f", (k + l) ? 100 * k / (k + l) : 100 }')
  cov=$(awk -v c="$((k + lived + equiv + timedout))" -v n="$notcov" 'BEGIN { printf "%.2f", (c + n) ? 100 * c / (c + n) : 100 }')
  rows+=("$(printf '%-26s %9s%% %9s%% %7d %6d %6d %6d %7d %7d %6ds' "$pkg" "$eff" "$cov" "$k" "$lived" "$equiv" "$timedout" "$notcov" "$unmeasured" "$secs")")
  awk -v a="$eff" -v b="$want_eff" 'BEGIN { exit !(a + 0 < b + 0) }' && failed+=("$pkg: efficacy $eff% < $want_eff%")
  awk -v a="$cov" -v b="$want_cov" 'BEGIN { exit !(a + 0 < b + 0) }' && failed+=("$pkg: mutator coverage $cov% < $want_cov%")
  [ "$stale" -eq 0 ] || echo "warning: $pkg: $stale stale entries in $equivalent (listed above)" >&2
done

echo
printf '%-26s %10s %10s %7s %6s %6s %6s %7s %7s %7s\n' package efficacy coverage killed lived equiv t/out notcov blind time
for r in "${rows[@]}"; do echo "$r"; done
echo "total time: $(($(date +%s) - start_all))s"
if [ ${#failed[@]} -gt 0 ]; then
  printf 'FAIL %s\n' "${failed[@]}" >&2
  exit 1
fi
echo "mutation thresholds met"
