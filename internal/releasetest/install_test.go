package releasetest

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"testing"
)

// TestAccReleaseInstall installs the release the way `init` installs a
// published provider: from a registry that speaks the Provider Registry
// Protocol over HTTPS, source localhost:PORT/agentregistry/agentregistry, with
// no mirror, override or cache. The CLI must verify the SHA256SUMS signature
// with the key the registry gives, record in the lock file the zh: hash of every
// platform the release serves, run the installed binary, and install it again on
// a clean plugin cache from the lock file alone (-lockfile=readonly).
func TestAccReleaseInstall(t *testing.T) {
	forEachCLI(t, nil, func(t *testing.T, c cli) {
		rel := builtRelease(t)
		ca := newTestCA(t)
		reg := startRegistry(t, ca, rel)
		w := newWorkspace(t, ca)
		w.write(t, "main.tf", moduleFor(reg.host, rel.version))

		out, err := w.run(t, c, "init", "-input=false", "-no-color")
		if err != nil {
			t.Fatalf("init failed: %v\n%s", err, out)
		}
		if !strings.Contains(out, "key ID "+rel.keyID) {
			t.Errorf("init does not say it verified the signature of key %s:\n%s", rel.keyID, out)
		}
		if n := reg.downloads(rel.sumsName + ".sig"); n == 0 {
			t.Errorf("init never downloaded %s.sig", rel.sumsName)
		}
		lock := string(readFile(t, filepath.Join(w.dir, ".terraform.lock.hcl")))
		checkLock(t, lock, reg.host, rel)
		checkSchema(t, w, c)

		if err := os.RemoveAll(filepath.Join(w.dir, ".terraform")); err != nil {
			t.Fatal(err)
		}
		out, err = w.run(t, c, "init", "-input=false", "-no-color", "-lockfile=readonly")
		if err != nil {
			t.Fatalf("a second init on a clean plugin cache, from the lock file, failed: %v\n%s", err, out)
		}
		if again := string(readFile(t, filepath.Join(w.dir, ".terraform.lock.hcl"))); again != lock {
			t.Errorf("the second init changed the lock file:\nbefore:\n%s\nafter:\n%s", lock, again)
		}
	})
}

// TestAccReleaseInstall_tamperedZip: a zip whose bytes changed after the
// release was signed (a compromised mirror) no longer matches SHA256SUMS, and
// init refuses it.
func TestAccReleaseInstall_tamperedZip(t *testing.T) {
	forEachCLI(t, nil, func(t *testing.T, c cli) {
		rel := builtRelease(t).withChangedZip(t, false)
		expectInitFailure(t, c, rel, regexp.MustCompile(`archive has incorrect checksum`))
	})
}

// TestAccReleaseInstall_badSignature: a changed zip with a SHA256SUMS rewritten
// to match it, under the release's signature, which no longer matches the
// SHA256SUMS: init refuses it.
func TestAccReleaseInstall_badSignature(t *testing.T) {
	forEachCLI(t, nil, func(t *testing.T, c cli) {
		rel := builtRelease(t).withChangedZip(t, true)
		expectInitFailure(t, c, rel, regexp.MustCompile(`error checking signature`))
	})
}

// expectInitFailure serves rel and expects init to fail with a message matching
// why, with no provider installed and no lock file written.
func expectInitFailure(t *testing.T, c cli, rel *release, why *regexp.Regexp) {
	t.Helper()
	ca := newTestCA(t)
	reg := startRegistry(t, ca, rel)
	w := newWorkspace(t, ca)
	w.write(t, "main.tf", moduleFor(reg.host, rel.version))
	out, err := w.run(t, c, "init", "-input=false", "-no-color")
	if err == nil {
		t.Fatalf("init installed a tampered release:\n%s", out)
	}
	// The CLIs wrap their messages at a width: words are compared across lines.
	if !why.MatchString(strings.Join(strings.Fields(out), " ")) {
		t.Errorf("init failed, but not with a message matching %s:\n%s", why, out)
	}
	t.Logf("init refused the tampered release:\n%s", out)
	if _, err := os.Stat(filepath.Join(w.dir, ".terraform.lock.hcl")); err == nil {
		t.Errorf("init wrote a lock file for a tampered release")
	}
}

// withChangedZip copies the release with one byte of the host platform's zip
// changed, as a compromised mirror would serve it; with rewriteSums, the
// SHA256SUMS is rewritten to match the changed zip and the signature is kept.
func (r *release) withChangedZip(t *testing.T, rewriteSums bool) *release {
	t.Helper()
	tampered := *r
	tampered.files = map[string][]byte{}
	for name, b := range r.files {
		tampered.files[name] = b
	}
	tampered.zips = slices.Clone(r.zips)
	i := slices.IndexFunc(tampered.zips, func(z platformZip) bool { return z.os == runtime.GOOS && z.arch == runtime.GOARCH })
	if i < 0 {
		t.Fatalf("the release has no zip for %s_%s", runtime.GOOS, runtime.GOARCH)
	}
	z := &tampered.zips[i]
	changed := slices.Clone(r.files[z.filename])
	changed[len(changed)/2] ^= 0xff
	tampered.files[z.filename] = changed
	if rewriteSums {
		newSum := sha256Hex(changed)
		sums := strings.Replace(string(r.files[r.sumsName]), z.sha256+"  "+z.filename, newSum+"  "+z.filename, 1)
		tampered.files[r.sumsName] = []byte(sums)
		z.sha256 = newSum
	}
	return &tampered
}

// moduleFor is a module that requires the provider from the registry at host.
func moduleFor(host, version string) string {
	return fmt.Sprintf(`terraform {
  required_providers {
    agentregistry = {
      source  = "%s/agentregistry/agentregistry"
      version = "%s"
    }
  }
}

provider "agentregistry" {
  endpoint = "http://127.0.0.1:1"
  project  = "release-test"
}
`, host, version)
}

var (
	lockVersion = regexp.MustCompile(`(?m)^\s*version\s*=\s*"([^"]+)"`)
	lockHash    = regexp.MustCompile(`"((?:zh|h1):[^"]+)"`)
)

// checkLock: the lock file records the provider at host, the release's version,
// an h1: hash of the installed package, and the zh: hash of every zip served
// (every platform), each as SHA256SUMS lists it (the CLIs take every entry of
// that signed file, the manifest's included).
func checkLock(t *testing.T, lock, host string, rel *release) {
	t.Helper()
	if !strings.Contains(lock, fmt.Sprintf(`provider "%s/agentregistry/agentregistry"`, host)) {
		t.Fatalf("the lock file does not record %s/agentregistry/agentregistry:\n%s", host, lock)
	}
	if m := lockVersion.FindStringSubmatch(lock); m == nil || m[1] != rel.version {
		t.Errorf("the lock file records version %v, want %s:\n%s", m, rel.version, lock)
	}
	zh := map[string]bool{}
	h1 := 0
	for _, m := range lockHash.FindAllStringSubmatch(lock, -1) {
		if strings.HasPrefix(m[1], "zh:") {
			zh[m[1]] = true
		} else {
			h1++
		}
	}
	for _, z := range rel.zips {
		if !zh["zh:"+z.sha256] {
			t.Errorf("the lock file has no zh: hash of %s (%s_%s):\n%s", z.filename, z.os, z.arch, lock)
		}
	}
	for hash := range zh {
		if !strings.Contains(string(rel.files[rel.sumsName]), strings.TrimPrefix(hash, "zh:")+"  ") {
			t.Errorf("the lock file records %s, which SHA256SUMS does not list", hash)
		}
	}
	if h1 == 0 {
		t.Errorf("the lock file has no h1: hash of the installed package:\n%s", lock)
	}
}

// checkSchema runs the installed binary through the CLI: its schema must list
// the provider's resources.
func checkSchema(t *testing.T, w workspace, c cli) {
	t.Helper()
	out, err := w.run(t, c, "providers", "schema", "-json")
	if err != nil {
		t.Fatalf("providers schema failed: %v\n%s", err, out)
	}
	if !strings.Contains(out, `"agentregistry_agent"`) {
		t.Errorf("the installed provider's schema has no agentregistry_agent:\n%.2000s", out)
	}
}
