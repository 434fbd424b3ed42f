package testkit

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// UserEnv is the environment of a user who runs a page's commands with the
// CLI at cliPath: `terraform` and `tofu` on the PATH naming it (a page says
// one or the other; none when cliPath is ""), a home of their own (where `make install` puts the
// provider, and nothing of the caller's home is read), Go's caches kept (in
// the empty home they would be empty, and every module would be downloaded
// and built again), and none of the caller's settings that change what a CLI
// installs or which registry and credentials the provider uses (TF_*,
// AGENTREGISTRY_*, GOOGLE_*, XDG_*) or what make builds and runs (its own
// variables, VERSION, the GNUmakefile's CLI variables); then set.
func UserEnv(t testing.TB, cliPath string, set map[string]string) []string {
	t.Helper()
	path := os.Getenv("PATH")
	if cliPath != "" {
		shims := t.TempDir()
		for _, name := range []string{"terraform", "tofu"} {
			if err := os.Symlink(cliPath, filepath.Join(shims, name)); err != nil {
				t.Fatal(err)
			}
		}
		path = shims + string(os.PathListSeparator) + path
	}
	caches := goCaches.value(t)
	env := []string{"HOME=" + t.TempDir(), "PATH=" + path,
		"CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1"}
	env = append(env, caches...)
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if _, ok := set[name]; !ok && !callersOwn(name) {
			env = append(env, kv)
		}
	}
	for k, v := range set {
		env = append(env, k+"="+v)
	}
	return env
}

// callersOwn tells whether a variable of the test process is the caller's
// setting, which a user following a page does not have.
func callersOwn(name string) bool {
	for _, prefix := range []string{"TF_", "AGENTREGISTRY_", "GOOGLE_", "XDG_", "TOFU", "TERRAFORM"} {
		if strings.HasPrefix(name, prefix) {
			return true
		}
	}
	switch name {
	case "HOME", "PATH", "GOPATH", "GOMODCACHE", "GOCACHE", "CHECKPOINT_DISABLE",
		"MAKEFLAGS", "MAKELEVEL", "MFLAGS", "VERSION", "CLI", "TF":
		return true
	}
	return false
}

// goCaches is GOPATH, GOMODCACHE and GOCACHE as the test process has them.
var goCaches = onceFor(func() ([]string, error) {
	names := []string{"GOPATH", "GOMODCACHE", "GOCACHE"}
	out, err := exec.Command("go", append([]string{"env"}, names...)...).Output()
	if err != nil {
		return nil, err
	}
	values := strings.Split(strings.TrimSpace(string(out)), "\n")
	if len(values) != len(names) {
		return nil, errors.New("go env printed " + string(out))
	}
	env := make([]string, len(names))
	for i, name := range names {
		env[i] = name + "=" + values[i]
	}
	return env, nil
})
