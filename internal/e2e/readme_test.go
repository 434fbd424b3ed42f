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
