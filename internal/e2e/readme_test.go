package e2e

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// The README's first block: `make demo` runs to its end with the CLI of the
// run (the `terraform` on the PATH, which it picks), and its drift step names
// the agent changed behind Terraform's back and the attributes that changed,
// not only the exit code. It ends with a summary of what it registered and
// the drift, and a pointer to Getting started; its output stays short, the
// apply's plan saved to the file it names. `make test` is the suite, which
// runs this test.
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
		if err == nil {
			err = demoSummary(g.root, out)
		}
		return true, err
	}
	must(t, r.Follow(g.page.Blocks))
}

// demoSummary checks the end of the demo's output (out): the summary names
// what was registered (each agent's skills, the MCP server's tools, the
// AgentProperties entry) and the drift, points to Getting started, a page
// that exists, and names the file that holds the apply's plan, which is not
// in the output: the output stays under 100 lines.
func demoSummary(root, out string) error {
	_, summary, found := strings.Cut(out, "==> Summary")
	if !found {
		return errors.New("make demo printed no summary:\n" + out)
	}
	if missing := testkit.MissingLines(summary, strings.Join([]string{
		"agent currency-agent: 2 skills (convert_currency, historical_rates)",
		"agent travel-planner: 3 skills (plan_itinerary, book_hotel, budget_in_local_currency)",
		"MCP server weather-tools: 2 tools (get_forecast, get_alerts)",
		"AgentProperties of projects/demo-project/locations/global/applications/payments/workloads/currency-agent, verified against App Hub",
		`agentregistry_agent.agents["currency-agent"]: agent_card, update_time`,
		"Try next: the guide Getting started (docs/guides/getting-started.md) registers an agent of your own against",
	}, "\n")); len(missing) > 0 {
		return fmt.Errorf("the demo's summary lacks:\n  %s\n--- output:\n%s", strings.Join(missing, "\n  "), out)
	}
	if _, err := os.Stat(filepath.Join(root, "docs", "guides", "getting-started.md")); err != nil {
		return fmt.Errorf("the demo points to a guide that is not there: %w", err)
	}
	m := regexp.MustCompile(`The plan and the apply in full: (\S+)`).FindStringSubmatch(summary)
	if m == nil {
		return errors.New("the demo's summary names no file with the apply's plan:\n" + out)
	}
	applied, err := os.ReadFile(m[1])
	if err != nil || !strings.Contains(string(applied), `# agentregistry_agent.agents["currency-agent"] will be created`) {
		return fmt.Errorf("%s should hold the apply's plan (%v):\n%s", m[1], err, applied)
	}
	if lines := strings.Count(out, "\n"); lines >= 100 || strings.Contains(out, "will be created") {
		return fmt.Errorf("make demo printed %d lines, the create plan among them or not: keep it in %s\n%s", lines, m[1], out)
	}
	return nil
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
