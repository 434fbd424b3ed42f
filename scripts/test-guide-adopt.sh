#!/usr/bin/env bash
# Follows the guide "Adopt an existing registry" (templates/guides/
# adopt-an-existing-registry.md.tmpl) word for word: every ```sh block of the
# guide runs, in order, in one folder, with Terraform ($TERRAFORM, 1.14+) as
# `terraform`, and each ```text block that follows one must appear in what it
# printed (spacing aside). The ```terraform blocks the guide asks to write are
# written (finance.tfquery.hcl, the skill's source_dir); the excerpt of
# generated.tf must be in the generated file. The bundled server the guide
# starts on 127.0.0.1:8787 runs on a free port instead, and the provider is
# installed from this clone into a filesystem mirror. The OpenTofu section is
# then followed with OpenTofu 1.12+ ($TOFU when it is one, else the cached
# tofu-v1.12.6) by the Go test TestAccGuideAdoptOpenTofu. Without a Terraform 1.14+
# (scripts/query-terraform.sh) it says so and succeeds.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
gobin="$(go env GOPATH)/bin"
TERRAFORM=$("$root/scripts/query-terraform.sh")
TOFU="${TOFU:-}"
v=$("${TOFU:-false}" version 2>/dev/null || true)
grep -qE '^OpenTofu v(1\.(1[2-9]|[2-9][0-9])|[2-9])\.' <<<"$v" || TOFU="$gobin/tofu-v1.12.6"
guide="$root/templates/guides/adopt-an-existing-registry.md.tmpl"
if [ -z "$TERRAFORM" ]; then
  echo "no Terraform 1.14+ (set TERRAFORM_QUERY): the guide Adopt an existing registry was not followed"
  exit 0
fi

tmp=$(mktemp -d)
. "$root/scripts/registry-server.sh"
. "$root/scripts/doc-blocks.sh"
trap 'stop_registry_server; rm -rf "$tmp"' EXIT

# The provider from this clone, in a mirror both CLIs install from offline.
PLUGINS_DIR="$tmp/plugins" "$root/scripts/install.sh" >/dev/null
(cd "$root" && go build -o "$tmp/agentregistry-server" ./cmd/agentregistry-server)
cat > "$tmp/cli.tfrc" <<RC
provider_installation {
  filesystem_mirror {
    path    = "$tmp/plugins"
    include = ["registry.terraform.io/agentregistry/agentregistry", "registry.opentofu.org/agentregistry/agentregistry"]
  }
  direct {
    exclude = ["registry.terraform.io/agentregistry/agentregistry", "registry.opentofu.org/agentregistry/agentregistry"]
  }
}
RC
mkdir -p "$tmp/shim"
ln -s "$TERRAFORM" "$tmp/shim/terraform"
export TF_CLI_CONFIG_FILE="$tmp/cli.tfrc" CHECKPOINT_DISABLE=1 PATH="$tmp/shim:$PATH"

# start_server: the bundled server on a free port; sets $addr (host:port).
start_server() {
  start_registry_server "$tmp/agentregistry-server" "$tmp/server.log"
  addr=${endpoint#http://}
}

# The guide's fenced blocks up to its OpenTofu section, in order: blocks/N.LANG.
# The OpenTofu section is followed word for word by the Go test
# TestAccGuideAdoptOpenTofu (internal/provider), on OpenTofu 1.12+.
sed '/^## With OpenTofu/,$d' "$guide" >"$tmp/guide-terraform.md"
doc_blocks "$tmp/guide-terraform.md" "$tmp/blocks"

work="$tmp/work"
mkdir -p "$work"
cp "$root/examples/query/"* "$work/"
cd "$work"
last_out=""
for block in "$tmp"/blocks/*; do
  case "$block" in
    *.sh)
      last_out="$block.out"
      : >"$last_out"
      while IFS= read -r cmd; do
        [ -z "$cmd" ] && continue
        if [[ "$cmd" == *"agentregistry-server -listen 127.0.0.1:8787"* ]]; then
          start_server
          sed -i "s#127.0.0.1:8787#$addr#" "$work/main.tf"
          echo "ok   started the bundled server ($addr)"
          continue
        fi
        cmd=${cmd//127.0.0.1:8787/$addr}
        case "$cmd" in tofu*) continue ;; esac # the OpenTofu section, below
        set +e
        eval "$cmd" >>"$last_out" 2>&1
        rc=$?
        set -e
        want=0
        [[ "$cmd" == *-detailed-exitcode* ]] && want=2 # the guide's drift step
        if [ "$rc" != "$want" ]; then
          echo "FAIL: $cmd exited $rc, want $want"; cat "$last_out"; exit 1
        fi
        echo "ok   $cmd" | cut -c1-150
      done <"$block"
      ;;
    *.text)
      [ -n "$last_out" ] && doc_expect "$last_out" "$block" && echo "ok   the output the guide shows"
      last_out=""
      ;;
    *.terraform)
      if grep -q 'list "agentregistry_agent" "finance"' "$block"; then
        cp "$block" finance.tfquery.hcl
      elif grep -q '^ *source_dir = ' "$block"; then
        grep -q '^  source_dir *= null$' generated.tf || { echo "FAIL: generated.tf has no source_dir = null"; exit 1; }
        sed -i "s#^  source_dir *= null\$#$(sed 's/[#&]/\\&/g' "$block")#" generated.tf
      elif grep -q '^resource "agentregistry_agent" "agents_0"' "$block"; then
        grep -v '# \.\.\.' "$block" >"$block.excerpt"
        doc_expect generated.tf "$block.excerpt"
        echo "ok   the excerpt of generated.tf"
      fi
      last_out=""
      ;;
  esac
done

# What the guide says in prose: generation does not overwrite a file; the skill's
# folder, which the registry holds as a TAR, was uploaded as a new revision;
# deleting the import blocks keeps the plan empty.
if terraform query -generate-config-out=generated.tf >gen-again.out 2>&1; then
  echo "FAIL: terraform query overwrote generated.tf"; exit 1
fi
echo "ok   terraform query -generate-config-out refuses to overwrite generated.tf"
skill=$(curl -sf "$R/skills/pdf-tools")
grep -q '"defaultRevision": *"[^"]*/revisions/rev-2"' <<<"$skill" ||
  { echo "FAIL: the skill's folder was not uploaded as a new revision"; curl -s "$R/skills/pdf-tools"; exit 1; }
echo "ok   the folder was uploaded as revision rev-2"
curl -sf -X PATCH "$R/services/billing-api?updateMask=displayName" -H 'Content-Type: application/json' -d '{"displayName": "Billing API"}' >/dev/null
awk '/^import \{/ {skip=1} !skip {print} skip && /^\}/ {skip=0}' generated.tf >generated.tf.new && mv generated.tf.new generated.tf
! grep -q '^import {' generated.tf || { echo "FAIL: import blocks left"; exit 1; }
terraform plan -detailed-exitcode -no-color >plan.out 2>&1 || { echo "FAIL: the plan without the import blocks"; cat plan.out; exit 1; }
echo "ok   without the import blocks (and the endpoint renamed back), the plan is empty"
# The card moved to a file, written as curl sent it, read as jsonencode(jsondecode(file(...))).
mkdir -p cards
grep -F 'serviceId=fx-agent' "$(ls "$tmp"/blocks/*.sh | sed -n 2p)" | sed -n "s/.*\"content\": \(.*\)}}'\$/\1/p" >cards/fx.json
[ -s cards/fx.json ] || { echo "FAIL: no card for cards/fx.json"; exit 1; }
awk '/^resource "agentregistry_agent" "agents_0"/ {in_fx=1}
  in_fx && /^  agent_card = jsonencode\(\{$/ {print "  agent_card = jsonencode(jsondecode(file(\"${path.module}/cards/fx.json\")))"; skip=1; next}
  skip && /^  \}\)$/ {skip=0; in_fx=0; next}
  !skip {print}' generated.tf >generated.tf.new && mv generated.tf.new generated.tf
grep -q 'cards/fx.json' generated.tf || { echo "FAIL: the card was not moved to a file"; exit 1; }
terraform plan -detailed-exitcode -no-color >plan.out 2>&1 || { echo "FAIL: the plan with the card in a file"; cat plan.out; exit 1; }
echo "ok   with the card in a file, read as jsonencode(jsondecode(file(...))), the plan is empty"

echo "the guide holds, word for word, on $("$TERRAFORM" version | head -1) (its OpenTofu section: TestAccGuideAdoptOpenTofu)"
