#!/usr/bin/env bash
# Prints the path of a Terraform that has `terraform query` (1.14 or later), the
# first of $TERRAFORM_QUERY, $TERRAFORM and $(go env GOPATH)/bin/terraform-v1.16.3
# that is one; prints nothing when none is. Used by the query examples check, the
# guide check and the query bench. The version is read from the "Terraform vX.Y"
# line (a CLI may print configuration warnings before it).
set -euo pipefail
for cli in "${TERRAFORM_QUERY:-}" "${TERRAFORM:-}" "$(go env GOPATH)/bin/terraform-v1.16.3"; do
  if [ -z "$cli" ] || [ ! -x "$(command -v "$cli" || true)" ]; then continue; fi
  # The output first, then grep: grep -q would stop reading, and pipefail fail the pipe.
  v=$("$cli" version 2>/dev/null || true)
  if grep -qE '^Terraform v(1\.(1[4-9]|[2-9][0-9])|[2-9])\.' <<<"$v"; then
    command -v "$cli"
    exit 0
  fi
done
