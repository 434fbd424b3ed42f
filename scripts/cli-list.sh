# Sourced by the scripts that run several CLIs (test-install.sh,
# test-modules.sh, validate-examples.sh). Not run on its own.

# cli_list BINARY...: sets clis to the arguments that are not empty and names to
# each one's short name, from its version line: tofu-1.12.6, terraform-1.16.3.
# Fails on a binary that is neither Terraform nor OpenTofu.
cli_list() {
  clis=() names=()
  local cli line
  for cli in "$@"; do
    [ -n "$cli" ] || continue
    # grep: OpenTofu 1.12 prints its CLI configuration warnings on stdout, before the version.
    line=$("$cli" version 2>/dev/null | grep -m1 -E '^(Terraform|OpenTofu) v' || true)
    case "$line" in
      "OpenTofu v"*) names+=("tofu-${line#OpenTofu v}") ;;
      "Terraform v"*) names+=("terraform-${line#Terraform v}") ;;
      *) echo "$cli is neither Terraform nor OpenTofu (its version: ${line:-none})" >&2; exit 1 ;;
    esac
    clis+=("$cli")
  done
}
