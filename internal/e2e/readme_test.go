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

// readmeSnapshotSection is the README's section that
// TestAccReadmeSnapshotInstall (internal/releasetest) follows: it installs the
// snapshot that package builds.
const readmeSnapshotSection = "### From a release snapshot: `-plugin-dir` or `filesystem_mirror`"

func readmeSnapshotNotRun() []testkit.NotRun {
	return []testkit.NotRun{{Reason: testkit.RunBy("TestAccReadmeSnapshotInstall")}}
}

// `make install PLUGINS_DIR=...` and `init -plugin-dir` are the install
// checks'.
func readmeCIRunnersNotRun() []testkit.NotRun {
	return []testkit.NotRun{{Match: `^make install PLUGINS_DIR=`, Reason: testkit.RunBy("TestAccInstall_offline")}}
}

var goTestCommand = regexp.MustCompile(`^(?:[A-Z_]+=(?:\$\([^)]*\)|[^\s$])+ +)*go test `)

// The suite's own commands: a test cannot run the suite it is part of.
func readmeSuiteNotRun() []testkit.NotRun {
	return []testkit.NotRun{{Match: "go test", Reason: testkit.Because("the suite itself, which runs this test", func(b testkit.Block) error {
		for _, command := range strings.Split(strings.ReplaceAll(b.Text, "\\\n", " "), "\n") {
			if strings.TrimSpace(command) != "" && !goTestCommand.MatchString(command) {
				return errors.New("it runs more than go test: " + command)
			}
		}
		return nil
	})}}
}

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

// "While developing": `make dev-override` builds the provider into bin/ as
// `make build` does, and writes the CLI configuration with which the examples'
// checks run both CLIs (testkit.DevOverrides): checked the same, the
// configuration its script writes, without the build (a link of the provider
// that CI does not need twice).
func readmeDevOverridesNotRun() []testkit.NotRun {
	return []testkit.NotRun{{Match: `^make dev-override `, Reason: testkit.Because(
		"the configuration it writes is the one TestAccExamples_validateAndFormat runs both CLIs with, checked the same",
		func(testkit.Block) error {
			root, err := os.Getwd()
			if err != nil {
				return err
			}
			root = filepath.Join(root, "..", "..")
			recipe, err := testkit.MakeRecipe(root, "dev-override")
			if err != nil || !strings.Contains(recipe, "./scripts/dev-override.sh") {
				return errors.Join(err, errors.New("make dev-override no longer runs scripts/dev-override.sh"))
			}
			script, err := os.ReadFile(filepath.Join(root, "scripts", "dev-override.sh"))
			if err != nil || !regexp.MustCompile(`(?m)^write_dev_overrides "\$rc" "\$root/bin"$`).Match(script) {
				return errors.Join(err, errors.New("scripts/dev-override.sh no longer writes its configuration with write_dev_overrides"))
			}
			rc := filepath.Join(os.TempDir(), fmt.Sprintf("dev-overrides-%d.tfrc", os.Getpid()))
			defer func() { _ = os.Remove(rc) }()
			cmd := exec.Command("bash", "-c", `. scripts/lib.sh && write_dev_overrides "$0" /clone/bin`, rc)
			cmd.Dir = root
			if out, err := cmd.CombinedOutput(); err != nil {
				return fmt.Errorf("write_dev_overrides: %w\n%s", err, out)
			}
			written, err := os.ReadFile(rc)
			if err == nil && string(written) != testkit.DevOverridesConfig("/clone/bin") {
				err = fmt.Errorf("write_dev_overrides writes\n%s\nand the examples' checks run with\n%s", written, testkit.DevOverridesConfig("/clone/bin"))
			}
			return err
		})}}
}

// "The bundled registry server": built as `make build` builds it, started
// with the flags shown (on a free port, its data file in the test's folder).
func followReadmeServer(t *testing.T, g *guideRun) {
	r := g.readerAsUser(t, nil)
	r.Instead = serverLines(t, r)
	must(t, r.Follow(g.page.Blocks))
}
