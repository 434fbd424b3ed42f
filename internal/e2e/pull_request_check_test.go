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

const testingGuidePath = "templates/guides/testing-modules-with-the-bundled-server.md.tmpl"

// The testing guide's "A pull-request check without registry credentials"
// holds, word for word, with the CLI of the run, in a copy of
// examples/registry-fleet (the layout the section assumes) and an environment
// with no registry setting or credential: each ```terraform block is written
// to the file its first line names (and is formatted as the CLI formats it),
// each ```sh block runs (the bundled server it starts is the one started in
// process), and the ```text block after one appears in what it printed; a
// block with no text block after it must succeed. Then what the prose says: the
// functions-only check passes a good folder, and a bad card fails the test run
// naming the file.
func TestAccGuidePullRequestCheck(t *testing.T) {
	cli := testkit.CLIFromEnv(t)
	root := testkit.Root(t)
	raw, err := os.ReadFile(filepath.Join(root, testingGuidePath))
	if err != nil {
		t.Fatal(err)
	}
	guide := string(raw)
	tree := t.TempDir()
	copyTree(t, root, tree, "examples/registry-fleet", "modules/registry-fleet")
	registry := testkit.StartRegistry(t, registryserver.Options{})
	shell := &docShell{t: t, dir: filepath.Join(tree, "examples", "registry-fleet"), env: mirrorEnv(t, cli),
		replace: strings.NewReplacer("127.0.0.1:8787", strings.TrimPrefix(registry.URL, "http://"))}
	broken, err := os.ReadFile(filepath.Join(root, "modules/registry-fleet/tests/fixtures/bad-card/cards/broken-agent.json"))
	if err != nil {
		t.Fatal(err)
	}
	brokenPath := filepath.Join(shell.dir, "cards", "broken-agent.json")
	writeFile(t, brokenPath, string(broken))

	followSection(t, shell, guide, "### The validation functions, in a variable's validation", nil)
	if err := os.Remove(brokenPath); err != nil {
		t.Fatal(err)
	}
	shell.mustRun("cd check-documents && terraform plan -input=false")

	followSection(t, shell, guide, "### `terraform test` against the bundled server", nil)
	writeFile(t, brokenPath, string(broken))
	out, code := shell.run("terraform test")
	if code != 1 || testkit.ExpectLines(out, `broken-agent.json: line 1, column 1: (root): missing required property`) != nil {
		t.Fatalf("with a bad card, terraform test exited %d, want 1 with the file named:\n%s", code, out)
	}
	t.Logf("the pull-request checks hold, with no registry credentials, on %s", cli)
}

var blockFile = regexp.MustCompile(`^# ([\w./-]+\.(?:tf|hcl))\n`)

// followSection runs a guide section's blocks in shell's folder: a
// ```terraform block is written to the file its first line names; a ```sh
// block runs, and the ```text block after it must appear in what it printed,
// or it must succeed. A block that own (when not nil) says it handled is left
// to it.
func followSection(t *testing.T, shell *docShell, guide, heading string, own func(testkit.Block) bool) {
	t.Helper()
	blocks := testkit.SectionBlocks(guide, heading)
	ran := 0
	for i, b := range blocks {
		switch {
		case own != nil && own(b):
		case b.Lang == "terraform":
			m := blockFile.FindStringSubmatch(b.Text)
			if m == nil {
				t.Fatalf("%s: a terraform block does not name its file on its first line:\n%s", heading, b.Text)
			}
			writeFile(t, filepath.Join(shell.dir, m[1]), shell.replace.Replace(b.Text))
			shell.mustRun("terraform fmt -check -diff " + m[1])
		case b.Lang == "sh":
			out, code := shell.run(withoutServerStart(b.Text))
			ran++
			if i+1 < len(blocks) && blocks[i+1].Lang == "text" {
				if err := testkit.ExpectLines(out, blocks[i+1].Text); err != nil {
					t.Fatalf("%s: %v", heading, err)
				}
			} else if code != 0 {
				t.Fatalf("%s: a block failed (exit code %d):\n%s\n--- output:\n%s", heading, code, b.Text, out)
			}
		}
	}
	if ran == 0 {
		t.Fatalf("the guide has no ```sh block under %q: the section or its heading moved", heading)
	}
}

// withoutServerStart drops the lines that start the bundled server: the test
// started it in process.
func withoutServerStart(block string) string {
	var kept []string
	for _, line := range strings.Split(block, "\n") {
		if !strings.HasPrefix(line, "bin/agentregistry-server ") {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "\n")
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
