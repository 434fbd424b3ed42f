// Package speccorpus finds the spec corpus: the official schemas and
// published examples (A2A agent cards, MCP tool lists) that the validation
// and tool-lock tests check against. The project never copies it; it sits
// beside the clone as ../shared/spec, or where AGENTREGISTRY_SPEC_DIR says.
// It imports nothing of the project, so that the tests of any package, the
// validators' own included, can use it.
package speccorpus

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit/modroot"
)

// Env names the corpus's folder, in place of ../shared/spec beside the clone.
const Env = "AGENTREGISTRY_SPEC_DIR"

// NotFound starts the message of a test skipped for want of the corpus; `make
// test` counts the tests it skips by it.
const NotFound = "spec corpus not found at"

// Dir is where the corpus is looked for: $AGENTREGISTRY_SPEC_DIR, else
// shared/spec beside the clone (the folder that holds go.mod); found says
// whether it is there (a folder with examples/ in it).
func Dir() (dir string, found bool) {
	dir = os.Getenv(Env)
	if dir == "" {
		root, err := modroot.Find()
		if err != nil {
			return filepath.Join("..", "shared", "spec"), false
		}
		dir = filepath.Join(filepath.Dir(root), "shared", "spec")
	}
	st, err := os.Stat(filepath.Join(dir, "examples"))
	return dir, err == nil && st.IsDir()
}

// Require returns the corpus's folder for a test that reads it. Where the
// corpus is missing the test skips, saying where it looked and how to get
// it. Under CI=true it fails instead: CI runs with ../shared beside the
// clone (the README says so), so a missing corpus there is a broken setup,
// and a run that skipped the real-world documents would pass without having
// checked them.
func Require(t testing.TB) string {
	t.Helper()
	dir, found := Dir()
	if found {
		return dir
	}
	how := NotFound + " " + dir + " (" + Env + ", else shared/spec beside the clone): this test checks the official " +
		"schemas and published examples. To run it, put the spec corpus (a folder with examples/ and the schemas, " +
		"described by its README.md) at ../shared/spec beside the clone, or set " + Env + " to its folder"
	if os.Getenv("CI") == "true" {
		t.Fatal(how + "; under CI=true a missing corpus fails the run")
	}
	t.Skip(how)
	return ""
}
