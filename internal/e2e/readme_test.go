package e2e

import (
	"errors"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// The README's first block: `make demo` runs to its end with the CLI of the
// run (the `terraform` on the PATH, which it picks), and its drift step names
// the agent changed behind Terraform's back and the attributes that changed,
// not only the exit code. `make test` is the suite, which runs this test.
func followReadmeDemo(t *testing.T, g *guideRun) {
	for _, tool := range []string{"bash", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the demo runs %s, which is not on the PATH", tool)
		}
	}
	r := g.readerAsUser(t, nil)
	r.Dir = g.root
	r.Instead = []testkit.Instead{{Line: regexp.MustCompile(`^make test( |$)`), Why: "the suite, which runs this test"}}
	r.Own = func(b testkit.Block) (bool, error) {
		out, code, err := r.Run(b.Text)
		want := "Changed outside Terraform (address: attributes):\n" +
			`  agentregistry_agent.agents["currency-agent"]: agent_card, update_time` + "\n"
		if err == nil && (code != 0 || !strings.Contains(out, want) || !strings.Contains(out, "demo finished")) {
			err = errors.New("make demo should end, its drift step naming the drifted agent and its attributes:\n" + want + "--- output:\n" + out)
		}
		return true, err
	}
	must(t, r.Follow(g.page.Blocks))
}

// "The bundled registry server": built as `make build` builds it, started
// with the flags shown (on a free port, its data file in the test's folder).
func followReadmeServer(t *testing.T, g *guideRun) {
	r := g.readerAsUser(t, nil)
	r.Instead = serverLines(t, r)
	must(t, r.Follow(g.page.Blocks))
}

// readmeMaxLines is the README's length limit: what a first reader needs (the
// two commands, requirements, an example, where the docs are); the rest is
// on pages under docs/.
const readmeMaxLines = 300

// The README stays short, and opens with its two commands, make demo and
// make test, in its first block, before any section.
func TestReadme_isShort(t *testing.T) {
	readme, err := testkit.ReadPage(testkit.Root(t), "README.md")
	must(t, err)
	if n := strings.Count(strings.TrimSuffix(readme.Text, "\n"), "\n") + 1; n > readmeMaxLines {
		t.Errorf("README.md has %d lines, the limit is %d: move what a first reader does not need to a page under docs/ "+
			"(a guide template under templates/guides/, with its row in guides())", n, readmeMaxLines)
	}
	opening, err := readme.Part("")
	must(t, err)
	first := testkit.Of(opening.Blocks, "sh")
	if len(first) == 0 || !strings.HasPrefix(first[0].Text, "make demo ") || !strings.Contains(first[0].Text, "\nmake test ") {
		t.Errorf("the README's first lines no longer give make demo and make test in one block before its first section")
	}
}
