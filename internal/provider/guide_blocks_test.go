package provider

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// The guides are followed by internal/e2e's table (guides()); a test here
// takes a guide's commands as its data (TestAccAgentResource_signingKeyPEMFromTheGuide).

// guideShBlock returns the nth (from 0) ```sh block of a section of a
// guide's template, as a reader copies it.
func guideShBlock(t *testing.T, guide, heading string, n int) string {
	t.Helper()
	page, err := testkit.ReadPage("../..", "templates/guides/"+guide+".md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	section, err := page.Section(heading)
	if err != nil {
		t.Fatal(err)
	}
	blocks := testkit.Of(section, "sh")
	if n >= len(blocks) {
		t.Fatalf("the guide %s has %d ```sh blocks under %q, want at least %d", guide, len(blocks), heading, n+1)
	}
	return blocks[n].Text
}

// runGuideScript runs a script from a guide with bash in the harness's
// folder, with the CLI under test on the PATH under the names a guide uses
// (tofu, terraform), and returns its output and exit code.
func (h *cliHarness) runGuideScript(t *testing.T, name, script string) (string, int) {
	t.Helper()
	bin := t.TempDir()
	for _, cli := range []string{"tofu", "terraform"} {
		if err := os.Symlink(h.bin, filepath.Join(bin, cli)); err != nil {
			t.Fatal(err)
		}
	}
	h.write(t, name, script)
	cmd := exec.Command("bash", name)
	cmd.Dir = h.dir
	cmd.Env = append(append([]string{}, h.env...), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "TF_CLI_ARGS=-no-color")
	out, err := cmd.CombinedOutput()
	if exit, ok := err.(*exec.ExitError); ok {
		return string(out), exit.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}
