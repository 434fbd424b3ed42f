package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// `make test-modules`, which "Test the module" runs first, is
// TestAccModules_nativeTests; the lines that run the tests by hand are
// followed as written (followModuleTests).
func fleetNotRun() []testkit.NotRun {
	return []testkit.NotRun{{In: "## Test the module", Match: `^make test-modules`, Reason: testkit.RunBy("TestAccModules_nativeTests")}}
}

// The fleet guide's "Try the example against the bundled server" word for
// word: the server is the binary `make server` runs, started with the flags
// of its recipe (on a free port in place of 127.0.0.1:8787); examples/registry-fleet
// is applied as it is, with the provider installed from a filesystem mirror
// as a user's `init` installs it; every ```sh block runs in the example's
// folder, and the ```text block after one appears in what it printed. So the
// example applies against the server as `make server` starts it, and the
// plan with verify-app-hub.tfvars warns that App Hub lacks the workload.
// Then "Test the module" by hand, as written (followModuleTests).
func followFleet(t *testing.T, g *guideRun) {
	r := g.reader(t)
	copyTree(t, g.root, r.Dir, "examples/registry-fleet", "modules/registry-fleet")
	r.Dir = filepath.Join(r.Dir, "examples", "registry-fleet")
	r.Own = func(b testkit.Block) (bool, error) {
		if b.Lang != "sh" || strings.TrimSpace(b.Text) != "make server" {
			return false, nil
		}
		addr, err := startMakeServer(t, g.root)
		if err != nil {
			return true, err
		}
		r.Replace = strings.NewReplacer("127.0.0.1:8787", addr)
		main := filepath.Join(r.Dir, "main.tf")
		raw, err := os.ReadFile(main)
		if err != nil {
			return true, err
		}
		return true, os.WriteFile(main, []byte(r.Replace.Replace(string(raw))), 0o600)
	}
	must(t, r.FollowSection("## Try the example against the bundled server"))
	followModuleTests(t, g, "## Test the module", "")
}

// The module README's `make test-modules` is TestAccModules_nativeTests.
func fleetReadmeNotRun() []testkit.NotRun {
	return []testkit.NotRun{{In: "## Tests", Match: `^make test-modules`, Reason: testkit.RunBy("TestAccModules_nativeTests")}}
}

// The module's README: its tests run by hand as "Tests" says, word for word
// (`make test-modules` is TestAccModules_nativeTests).
func followFleetModuleReadme(t *testing.T, g *guideRun) {
	followModuleTests(t, g, "## Tests", "modules/registry-fleet")
}

// followModuleTests follows the section of a page that runs the fleet
// module's tests by hand, in a copy of the repository's modules/registry-fleet
// (in, under the copy, is where the section's commands start): the server
// line starts agentregistry-server as written, its flags included, on a free
// port that the lines after it name in place of 127.0.0.1:8787; `tofu init`
// installs the provider as a user's does (a filesystem mirror); and `tofu
// test` must pass. So the instructions hold as a reader runs them, not only
// as `make test-modules` runs the tests (with flags of its own).
func followModuleTests(t *testing.T, g *guideRun, section, in string) {
	r := g.reader(t)
	copyTree(t, g.root, r.Dir, "modules/registry-fleet")
	r.Dir = filepath.Join(r.Dir, in)
	r.Instead = []testkit.Instead{{Line: testkit.ServerLine, Why: "the server, started as written on a free port", Do: func(line string) error {
		addr, err := startServerLine(t, r, line)
		r.Replace = strings.NewReplacer("127.0.0.1:8787", addr)
		return err
	}}}
	must(t, r.FollowSection(section))
}

var serverExec = regexp.MustCompile(`(?m)^\texec bin/agentregistry-server(.*)$`)

// startMakeServer starts the server as `make server` does (BuildServer, the
// flags of its recipe), plus -listen on a free loopback port; it returns the
// address it listens on.
func startMakeServer(t *testing.T, root string) (string, error) {
	recipe, err := testkit.MakeRecipe(root, "server")
	if err != nil {
		return "", err
	}
	m := serverExec.FindStringSubmatch(recipe)
	if m == nil {
		return "", fmt.Errorf("the GNUmakefile's server recipe does not exec bin/agentregistry-server:\n%s", recipe)
	}
	args := append(strings.Fields(m[1]), "-listen", "127.0.0.1:0")
	addr, err := testkit.StartServer(t, t.TempDir(), os.Environ(), testkit.BuildServer(t), args...)
	t.Logf("agentregistry-server %s listening on %s", strings.Join(args, " "), addr)
	return addr, err
}
