package testkit

import (
	"os/exec"
	"strings"
	"testing"
)

// The version the tests stamp is the one `make build` stamps: Version keeps
// scripts/version.sh's rule, with and without VERSION.
func TestVersionAsTheScript(t *testing.T) {
	root := Root(t)
	for _, env := range []string{"", "v1.2.3", "0.3.0-rc.1+build.5"} {
		t.Setenv("VERSION", env)
		out, err := exec.Command(root + "/scripts/version.sh").Output()
		if err != nil {
			t.Fatalf("scripts/version.sh with VERSION=%q: %v", env, err)
		}
		got, err := Version(root)
		if err != nil || got != strings.TrimSpace(string(out)) {
			t.Errorf("VERSION=%q: Version = %q, %v; scripts/version.sh says %q", env, got, err, out)
		}
	}
	t.Setenv("VERSION", "1.2")
	if _, err := Version(root); err == nil {
		t.Error("VERSION=1.2 is not a semantic version, and Version accepted it")
	}
}
