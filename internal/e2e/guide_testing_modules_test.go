package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

const (
	validationSection = "### The validation functions, in a variable's validation"
	testSection       = "### `terraform test` against the bundled server"
)

// The guide "Testing modules against the bundled registry server" word for
// word. Its server lines start the server as written (the binary `make build`
// builds, on a free port in place of 127.0.0.1:8787); its "A pull-request
// check without registry credentials" runs in a copy of
// examples/registry-fleet (the layout the section assumes), with no registry
// setting or credential and the bundled server in process in place of the
// one its test file names: each file the guide names on a block's first line
// is written there (formatted as the CLI formats it), each ```sh block runs,
// and the ```text block after one appears in what it printed. Then what the
// prose says: the functions-only check passes a good folder, and a bad card
// fails the test run naming the file.
func followTestingModules(t *testing.T, g *guideRun) {
	registry := testkit.StartRegistry(t, registryserver.Options{})
	r := g.reader(t)
	r.Replace = strings.NewReplacer("127.0.0.1:8787", strings.TrimPrefix(registry.URL, "http://"))
	r.Instead = serverLines(t, r)
	before, err := g.page.Range("", validationSection)
	must(t, err)
	must(t, r.Follow(before)) // in a folder of its own: its test file is not the example's

	tree := t.TempDir()
	copyTree(t, g.root, tree, "examples/registry-fleet", "modules/registry-fleet")
	r.Dir = filepath.Join(tree, "examples", "registry-fleet")
	broken, err := os.ReadFile(filepath.Join(g.root, "modules/registry-fleet/tests/fixtures/bad-card/cards/broken-agent.json"))
	must(t, err)
	brokenPath := filepath.Join(r.Dir, "cards", "broken-agent.json")
	writeFile(t, brokenPath, string(broken))
	must(t, r.FollowSection(validationSection))
	must(t, os.Remove(brokenPath))
	if out, code, err := r.Run("cd check-documents && terraform plan -input=false"); err != nil || code != 0 {
		t.Fatalf("the functions-only check of a good folder: exit code %d (%v)\n%s", code, err, out)
	}
	must(t, r.FollowSection(testSection))
	writeFile(t, brokenPath, string(broken))
	out, code, err := r.Run("terraform test")
	if err != nil || code != 1 || testkit.ExpectLines(out, `broken-agent.json: line 1, column 1: (root): missing required property`) != nil {
		t.Fatalf("with a bad card, terraform test exited %d (%v), want 1 with the file named:\n%s", code, err, out)
	}
	r.Dir = t.TempDir()
	must(t, r.FollowSection("## In Go acceptance tests of another module"))
	t.Logf("the pull-request checks hold, with no registry credentials, on %s", g.cli)
}

// serverLines is the Instead of a page's lines that build and start the
// bundled server: `make build` builds it as the tests do (BuildServer, which
// checks the recipe), and each server line starts it as written, on a free
// port (StartServerLine), in a folder of its own.
func serverLines(t *testing.T, r *testkit.Reader) []testkit.Instead {
	return []testkit.Instead{
		{Line: regexp.MustCompile(`^make build( |$)`), Why: "the server, built as `make build` builds it", Do: func(string) error {
			testkit.BuildServer(t)
			return nil
		}},
		{Line: testkit.ServerLine, Why: "the server, started as written on a free port", Do: func(line string) error {
			_, err := startServerLine(t, r, line)
			return err
		}},
	}
}

// startServerLine starts the server as a page's line does (its variables and
// flags), on a free port, in a folder of its own, and returns its address.
func startServerLine(t *testing.T, r *testkit.Reader, line string) (string, error) {
	addr, err := testkit.StartServerLine(t, t.TempDir(), line)
	r.Logf("%s: listening on %s", strings.TrimSpace(line), addr)
	return addr, err
}
