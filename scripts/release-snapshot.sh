#!/usr/bin/env bash
# Builds the release artifacts into dist/ with goreleaser (.goreleaser.yml), as a
# release does, without publishing: the zips of every platform, the SHA256SUMS,
# its detached signature, the manifest, and dist/signing-key.asc, the armored
# public half of the key that signed (what a registry is given to verify).
#
#   DIST=folder         writes there instead of dist/ (emptied first)
#   VERSION=X.Y.Z       the version stamped (default: scripts/version.sh)
#   SINGLE_TARGET=1     the host platform only: what the install test of `make test`
#                       needs, in a fraction of the time
#   GPG_FINGERPRINT=... signs with that key of the keyring (GNUPGHOME), as a release
#                       does; unset, a snapshot makes a 4096-bit RSA key for this
#                       build only (the Terraform Registry takes RSA or DSA keys,
#                       never the ed25519 that gnupg 2.3+ makes by default), in a
#                       temporary GNUPGHOME deleted at the end: no key is ever kept
#                       or committed.
# Prints the dist folder.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
goreleaser=$("$root/scripts/install-goreleaser.sh")
dist="${DIST:-$root/dist}"
RELEASE_VERSION=$("$root/scripts/version.sh")
export RELEASE_VERSION
name="terraform-provider-agentregistry_${RELEASE_VERSION}"

tmp=$(mktemp -d)
cleanup() {
  # Only the agent of the temporary GNUPGHOME made here, never the caller's.
  if [ -n "${own_gnupghome:-}" ]; then gpgconf --kill gpg-agent 2>/dev/null || true; fi
  rm -rf "$tmp"
}
trap cleanup EXIT

if [ -z "${GPG_FINGERPRINT:-}" ]; then
  own_gnupghome=1
  export GNUPGHOME="$tmp/gnupg"
  mkdir -m 700 "$GNUPGHOME"
  gpg --batch --quiet --passphrase '' --quick-gen-key \
    "terraform-provider-agentregistry snapshot <snapshot@agentregistry.invalid>" rsa4096 sign 1d 2>/dev/null
  GPG_FINGERPRINT=$(gpg --batch --with-colons --list-secret-keys 2>/dev/null | awk -F: '$1 == "fpr" { print $10; exit }')
  export GPG_FINGERPRINT
fi

# goreleaser has no flag for its output folder, and its --single-target is a flag
# of `build` only (no archives, checksums or signature): a copy of the
# configuration names the folder and, with SINGLE_TARGET, lists the host's
# platform as the only target.
host_only=""
[ -n "${SINGLE_TARGET:-}" ] && host_only="$(go env GOOS)_$(go env GOARCH)"
awk -v host="$host_only" '
  host != "" && /^    targets:/ { print; print "      - " host; skipping = 1; next }
  skipping && /^      - / { next }
  { skipping = 0; print }
' "$root/.goreleaser.yml" >"$tmp/goreleaser.yml"
printf 'dist: %s\n' "$dist" >>"$tmp/goreleaser.yml"
(cd "$root" && "$goreleaser" release --snapshot --clean --config "$tmp/goreleaser.yml") >"$tmp/goreleaser.log" 2>&1 || {
  cat "$tmp/goreleaser.log" >&2
  exit 1
}

# The manifest is checksummed under its release name but only uploaded by a
# release (release.extra_files): a snapshot writes it here.
cp "$root/terraform-registry-manifest.json" "$dist/${name}_manifest.json"
gpg --batch --armor --export "$GPG_FINGERPRINT" >"$dist/signing-key.asc"
gpg --batch --quiet --verify "$dist/${name}_SHA256SUMS.sig" "$dist/${name}_SHA256SUMS" 2>/dev/null || {
  echo "release-snapshot.sh: the SHA256SUMS signature does not verify" >&2
  exit 1
}
(cd "$dist" && sha256sum --quiet --check "${name}_SHA256SUMS") || {
  echo "release-snapshot.sh: an artifact does not match SHA256SUMS" >&2
  exit 1
}
echo "$dist"
