package e2e

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// The sections of the guide "Installing the provider" with ```sh blocks.
const (
	// installingSnapshotSection is the section TestAccInstallingGuideSnapshot
	// (internal/releasetest) follows: it installs the snapshot that package
	// builds.
	installingSnapshotSection   = "## From a release snapshot: `-plugin-dir` or `filesystem_mirror`"
	installingCIRunnersSection  = "## On CI runners: `-plugin-dir` or `filesystem_mirror`"
	installingDevelopingSection = "## While developing: `dev_overrides`"
)

// installingNotRun are the guide's blocks, each run by another test: the
// snapshot install by the release tests, `make install PLUGINS_DIR=...` (and
// `init -plugin-dir`) by the install checks, `make dev-override` by what the
// examples' checks run.
func installingNotRun() []testkit.NotRun {
	return []testkit.NotRun{
		{In: installingSnapshotSection, Reason: testkit.RunBy("TestAccInstallingGuideSnapshot")},
		{In: installingCIRunnersSection, Match: `^make install PLUGINS_DIR=`, Reason: testkit.RunBy("TestAccInstall_offline")},
		devOverridesChecked(),
	}
}

// devOverridesChecked: `make dev-override` builds the provider into bin/ as
// `make build` does, and writes the CLI configuration with which the examples'
// checks run both CLIs (testkit.DevOverrides): checked the same, the
// configuration its script writes, without the build (a link of the provider
// that CI does not need twice).
func devOverridesChecked() testkit.NotRun {
	return testkit.NotRun{In: installingDevelopingSection, Match: `^make dev-override `, Reason: testkit.Because(
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
		})}
}
