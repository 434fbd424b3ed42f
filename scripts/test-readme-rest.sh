#!/usr/bin/env bash
# Follows the README's "Its REST API, with curl" word for word: its ```sh blocks
# run, in order, in one shell, against the bundled server (on a free port in
# place of 127.0.0.1:8787), and every line of the ```text block after each one
# must be in what that block printed (spacing aside). Needs curl and jq.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
for tool in curl jq; do
  command -v "$tool" >/dev/null || { echo "scripts/test-readme-rest.sh needs $tool (Debian package $tool)"; exit 1; }
done
tmp=$(mktemp -d)
. "$root/scripts/registry-server.sh"
. "$root/scripts/doc-blocks.sh"
trap 'stop_registry_server; rm -rf "$tmp"' EXIT

(cd "$root" && go build -o "$tmp/agentregistry-server" ./cmd/agentregistry-server)
start_registry_server "$tmp/agentregistry-server" "$tmp/server.log"
doc_blocks "$root/README.md" "$tmp/blocks" '^### Its REST API, with curl' '^##'
ls "$tmp"/blocks/*.sh >/dev/null 2>&1 || { echo "FAIL: no sh block under README's REST section"; exit 1; }

last_out=""
checked=0
for block in "$tmp"/blocks/*; do
  case "$block" in
    *.sh)
      last_out="$block.out"
      script=$(sed "s#http://127.0.0.1:8787#$endpoint#g" "$block")
      if ! (set -euo pipefail; eval "$script") >"$last_out" 2>&1; then
        echo "FAIL: a README block failed:"; cat "$block"; echo "--- output:"; cat "$last_out"; exit 1
      fi
      # The next block runs in the same shell state (R=...).
      eval "$(grep -E '^[A-Z]+=' "$block" | sed "s#http://127.0.0.1:8787#$endpoint#g")"
      ;;
    *.text)
      [ -n "$last_out" ] || { echo "FAIL: a text block with no sh block before it"; exit 1; }
      doc_expect "$last_out" "$block"
      checked=$((checked + 1))
      last_out=""
      ;;
  esac
done
echo "ok   the README's REST section holds: $(ls "$tmp"/blocks/*.sh | wc -l) blocks run, $checked outputs as shown"
