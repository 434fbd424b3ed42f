package releasetest

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

const providerName = "terraform-provider-agentregistry"

// release is what scripts/release-snapshot.sh wrote into a dist folder, read the
// way a registry operator publishes it: the files by name, the SHA256SUMS
// entries, the platforms of the zips and the signing key.
type release struct {
	dir      string // the dist folder read
	version  string
	files    map[string][]byte // the published files by name: zips, SHA256SUMS, .sig, manifest
	sumsName string            // terraform-provider-agentregistry_{VERSION}_SHA256SUMS
	zips     []platformZip
	keyArmor string // dist/signing-key.asc
	keyID    string // the signing key's long id, 16 hex digits
	keyAlgo  string // its OpenPGP public-key algorithm: 1 is RSA, 17 DSA, 22 EdDSA
}

// platformZip is one zip of the release: its platform and its SHA256SUMS entry.
type platformZip struct {
	os, arch, filename, sha256 string
}

var sumsFileName = regexp.MustCompile(`^` + providerName + `_(.+)_SHA256SUMS$`)

// readRelease reads dist: every published file and the key, failing the test
// when one that a registry needs is missing.
func readRelease(t *testing.T, dist string) *release {
	t.Helper()
	entries, err := os.ReadDir(dist)
	if err != nil {
		t.Fatalf("reading the release folder: %v", err)
	}
	r := &release{dir: dist, files: map[string][]byte{}}
	for _, e := range entries {
		if e.IsDir() || !strings.HasPrefix(e.Name(), providerName+"_") {
			continue
		}
		if m := sumsFileName.FindStringSubmatch(e.Name()); m != nil {
			r.version, r.sumsName = m[1], e.Name()
		}
		r.files[e.Name()] = readFile(t, filepath.Join(dist, e.Name()))
	}
	if r.sumsName == "" {
		t.Fatalf("%s holds no %s_{VERSION}_SHA256SUMS", dist, providerName)
	}
	for _, name := range []string{r.sumsName + ".sig", fmt.Sprintf("%s_%s_manifest.json", providerName, r.version)} {
		if _, ok := r.files[name]; !ok {
			t.Fatalf("%s has no %s", dist, name)
		}
	}
	r.zips = zipsOf(t, r.version, r.files[r.sumsName])
	r.keyArmor = string(readFile(t, filepath.Join(dist, "signing-key.asc")))
	r.keyID, r.keyAlgo = gpgKey(t, filepath.Join(dist, "signing-key.asc"))
	return r
}

// zipsOf lists the zips named in a SHA256SUMS file ("<hex>  <name>" lines).
func zipsOf(t *testing.T, version string, sums []byte) []platformZip {
	t.Helper()
	prefix := providerName + "_" + version + "_"
	var zips []platformZip
	scanner := bufio.NewScanner(bytes.NewReader(sums))
	for scanner.Scan() {
		sum, name, ok := strings.Cut(scanner.Text(), "  ")
		if !ok || !strings.HasSuffix(name, ".zip") {
			continue
		}
		goos, arch, ok := strings.Cut(strings.TrimSuffix(strings.TrimPrefix(name, prefix), ".zip"), "_")
		if !ok {
			t.Fatalf("SHA256SUMS names %q, which is not %s{OS}_{ARCH}.zip", name, prefix)
		}
		zips = append(zips, platformZip{os: goos, arch: arch, filename: name, sha256: sum})
	}
	if len(zips) == 0 {
		t.Fatalf("SHA256SUMS lists no zip:\n%s", sums)
	}
	return zips
}

// gpgKey reads the long key id and the algorithm of an armored public key with
// gpg (the tool that made it), without importing it anywhere.
func gpgKey(t *testing.T, armored string) (id, algorithm string) {
	t.Helper()
	cmd := exec.Command("gpg", "--batch", "--with-colons", "--import-options", "show-only", "--import", armored)
	cmd.Env = append(os.Environ(), "GNUPGHOME="+t.TempDir())
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("gpg could not read %s: %v", armored, err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		if fields := strings.Split(line, ":"); fields[0] == "pub" && len(fields) > 4 {
			return fields[4], fields[3]
		}
	}
	t.Fatalf("gpg found no public key in %s:\n%s", armored, out)
	return "", ""
}

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func sha256Hex(b []byte) string {
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:])
}
