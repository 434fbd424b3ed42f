package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// The server guide's "Its REST API, with curl" holds word for word: its ```sh
// blocks run in order, each in bash with the variables the blocks before it
// set (R=...), against the bundled server started in process (its address in
// place of 127.0.0.1:8787), and every line of the ```text block after each one
// is in what that block printed, spacing aside. The blocks use curl and jq,
// as the guide shows them.
func TestServerGuide_restSection(t *testing.T) {
	for _, tool := range []string{"bash", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the server guide's REST blocks run %s, which is not on the PATH (Debian package %s)", tool, tool)
		}
	}
	root := testkit.Root(t)
	guide, err := os.ReadFile(filepath.Join(root, "docs", "guides", "the-bundled-registry-server.md"))
	if err != nil {
		t.Fatal(err)
	}
	blocks := testkit.SectionBlocks(string(guide), "## Its REST API, with curl")
	registry := testkit.StartRegistry(t, registryserver.Options{})
	shell := &docShell{t: t, dir: t.TempDir(), replace: strings.NewReplacer("http://127.0.0.1:8787", registry.URL)}
	ran, checked := 0, 0
	var last *string
	for _, b := range blocks {
		switch b.Lang {
		case "sh":
			out := shell.mustRun(b.Text)
			last = &out
			ran++
		case "text":
			if last == nil {
				t.Fatalf("a text block with no sh block before it:\n%s", b.Text)
			}
			if err := testkit.ExpectLines(*last, b.Text); err != nil {
				t.Error(err)
			}
			last = nil
			checked++
		}
	}
	if ran == 0 || checked == 0 {
		t.Fatalf("the server guide's REST section has %d sh blocks and %d outputs: the section or its heading moved", ran, checked)
	}
	t.Logf("the server guide's REST section holds: %d blocks run, %d outputs as shown", ran, checked)
}

// docShell runs a document's shell commands in one folder, carrying the
// variables they set (NAME=...) from one run to the next.
type docShell struct {
	t       *testing.T
	dir     string
	env     []string
	vars    []string
	replace *strings.Replacer
}

var assignment = regexp.MustCompile(`(?m)^[A-Z]+=.*$`)

// run runs script in bash (-euo pipefail) and returns its combined output
// and exit code.
func (s *docShell) run(script string) (string, int) {
	s.t.Helper()
	script = s.replace.Replace(script)
	cmd := exec.Command("bash", "-c", "set -euo pipefail\n"+strings.Join(s.vars, "\n")+"\n"+script)
	cmd.Dir, cmd.Env = s.dir, s.env
	out, err := cmd.CombinedOutput()
	s.vars = append(s.vars, assignment.FindAllString(script, -1)...)
	if exit, ok := err.(*exec.ExitError); ok {
		return string(out), exit.ExitCode()
	}
	if err != nil {
		s.t.Fatalf("bash: %v", err)
	}
	return string(out), 0
}

// mustRun runs script and fails the test unless it succeeds.
func (s *docShell) mustRun(script string) string {
	s.t.Helper()
	out, code := s.run(script)
	if code != 0 {
		s.t.Fatalf("a block of the document failed (exit code %d):\n%s\n--- output:\n%s", code, script, out)
	}
	return out
}
