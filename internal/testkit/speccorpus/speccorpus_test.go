package speccorpus

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit/modroot"
)

// The corpus is where AGENTREGISTRY_SPEC_DIR says, found when it holds
// examples/; without the variable, it is shared/spec beside the clone.
func TestDir(t *testing.T) {
	with := t.TempDir()
	if err := os.Mkdir(filepath.Join(with, "examples"), 0o755); err != nil {
		t.Fatal(err)
	}
	for dir, want := range map[string]bool{with: true, t.TempDir(): false} {
		t.Setenv(Env, dir)
		if got, found := Dir(); got != dir || found != want {
			t.Errorf("%s=%s: Dir() = %s, %t; want %s, %t", Env, dir, got, found, dir, want)
		}
	}
	t.Setenv(Env, "")
	root, err := modroot.Find()
	if err != nil {
		t.Fatal(err)
	}
	if got, _ := Dir(); got != filepath.Join(filepath.Dir(root), "shared", "spec") {
		t.Errorf("Dir() = %s, want shared/spec beside %s", got, root)
	}
}
