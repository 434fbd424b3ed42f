package releasetest

import (
	"archive/zip"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"runtime"
	"slices"
	"testing"
)

// registryPlatforms are the platforms `make release-snapshot` builds: those
// HashiCorp's own providers publish (.goreleaser.yml).
var registryPlatforms = []string{
	"darwin_amd64", "darwin_arm64", "freebsd_amd64", "freebsd_arm64", "linux_386", "linux_amd64", "linux_arm",
	"linux_arm64", "windows_amd64", "windows_arm64",
}

// TestAccReleaseArtifacts checks the release against the Terraform Registry's
// publishing requirements: each zip holds exactly the binary
// terraform-provider-agentregistry_v{VERSION} (.exe on Windows); the manifest
// says protocol 6.0; the SHA256SUMS lists the manifest too; the signing key is
// RSA (the registry takes RSA or DSA only, never the ed25519 that gnupg 2.3+
// makes by default). The platforms are every one of registryPlatforms for a
// release built by `make release-snapshot` (RELEASE_DIST=dist), the host's for
// the snapshot `make test` builds.
func TestAccReleaseArtifacts(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("TF_ACC is not set: the release is built only with the acceptance tests")
	}
	rel := builtRelease(t)
	wantPlatforms := []string{runtime.GOOS + "_" + runtime.GOARCH}
	if os.Getenv("RELEASE_DIST") != "" {
		wantPlatforms = registryPlatforms
	}
	var platforms []string
	for _, z := range rel.zips {
		platforms = append(platforms, z.os+"_"+z.arch)
		checkZip(t, rel, z)
	}
	slices.Sort(platforms)
	if !slices.Equal(platforms, wantPlatforms) {
		t.Errorf("the release's platforms are %v, want %v", platforms, wantPlatforms)
	}
	manifest := fmt.Sprintf("%s_%s_manifest.json", providerName, rel.version)
	var m struct {
		Version  int `json:"version"`
		Metadata struct {
			ProtocolVersions []string `json:"protocol_versions"`
		} `json:"metadata"`
	}
	if err := json.Unmarshal(rel.files[manifest], &m); err != nil || m.Version != 1 || !slices.Equal(m.Metadata.ProtocolVersions, []string{"6.0"}) {
		t.Errorf("%s is not a version 1 manifest of protocol 6.0 (%v): %s", manifest, err, rel.files[manifest])
	}
	if !bytes.Contains(rel.files[rel.sumsName], []byte(sha256Hex(rel.files[manifest])+"  "+manifest)) {
		t.Errorf("SHA256SUMS does not list %s with its checksum:\n%s", manifest, rel.files[rel.sumsName])
	}
	if rel.keyAlgo != "1" {
		t.Errorf("the signing key's algorithm is %s, want 1 (RSA)", rel.keyAlgo)
	}
}

// checkZip: the zip matches its SHA256SUMS entry and holds exactly the binary.
func checkZip(t *testing.T, rel *release, z platformZip) {
	t.Helper()
	b := rel.files[z.filename]
	if sha256Hex(b) != z.sha256 {
		t.Errorf("%s does not match its SHA256SUMS entry", z.filename)
	}
	r, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		t.Fatalf("%s is not a zip: %v", z.filename, err)
	}
	want := providerName + "_v" + rel.version
	if z.os == "windows" {
		want += ".exe"
	}
	var names []string
	for _, f := range r.File {
		names = append(names, f.Name)
	}
	if !slices.Equal(names, []string{want}) {
		t.Errorf("%s holds %v, want exactly [%s]", z.filename, names, want)
	}
}
