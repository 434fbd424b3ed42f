#!/usr/bin/env bash
# Runs shellcheck on every shell script of the clone (make lint). shellcheck is
# the Debian package of that name: when it is missing, it is installed with
# apt-get (as root, or through sudo) and otherwise the script says how.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
if ! command -v shellcheck >/dev/null; then
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo=sudo
  if command -v apt-get >/dev/null; then
    echo "shellcheck is missing: installing the Debian package" >&2
    $sudo apt-get install -y -qq shellcheck >/dev/null
  fi
  command -v shellcheck >/dev/null || { echo "install shellcheck (https://www.shellcheck.net) and run make lint again" >&2; exit 1; }
fi
cd "$root"
# The scripts and CI's entry point; not examples/*/import.sh, which are
# fragments of the docs (one command each, no shebang).
mapfile -t scripts < <(git ls-files 'scripts/*.sh' .ci/run)
# -x follows the files the scripts source (scripts/lib.sh, cached-go-build.sh).
shellcheck -x "${scripts[@]}"
echo "shellcheck: ${#scripts[@]} scripts clean"
