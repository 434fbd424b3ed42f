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

// The module's own tests, which "Test the module" runs, are
// TestAccModules_nativeTests (`make test-modules` runs it).
func fleetNotRun() []testkit.NotRun {
	return []testkit.NotRun{{In: "## Test the module", Match: `make test-modules|tofu test -var endpoint=`,
		Reason: testkit.RunBy("TestAccModules_nativeTests")}}
}

// The fleet guide's "Try the example against the bundled server" word for
// word: the server is the binary `make server` runs, started with the flags
// of its recipe (on a free port in place of 127.0.0.1:8787); examples/registry-fleet
// is applied as it is, with the provider installed from a filesystem mirror
// as a user's `init` installs it; every ```sh block runs in the example's
// folder, and the ```text block after one appears in what it printed. So the
// example applies against the server as `make server` starts it, and the
// plan with verify-app-hub.tfvars warns that App Hub lacks the workload.
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
