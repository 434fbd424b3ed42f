package releasetest

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// installingGuide is the guide this test follows a section of (its template,
// which tfplugindocs renders into docs/guides/), and snapshotSection that
// section: its row of the guide table (internal/e2e) leaves it to this test,
// which has the snapshot this package builds.
const (
	installingGuide = "templates/guides/installing-the-provider.md.tmpl"
	snapshotSection = "## From a release snapshot: `-plugin-dir` or `filesystem_mirror`"
)

// TestAccInstallingGuideSnapshot follows the installing guide's "From a release snapshot"
// word for word with Terraform and OpenTofu (testkit's runner): the snapshot
// is the one the run built (SINGLE_TARGET=1, as the section's first block asks)
// or RELEASE_DIST's, given to the blocks as the clone's dist/; every other
// ```sh block runs, in the clone when it says "# in the clone" and in a new
// module's folder otherwise, as `terraform` (the CLI under test), and the
// ```text block after one must appear in what it printed, with the
// snapshot's version written 0.2.0 as the guide writes it. A block that
// locks platforms the snapshot has no zip for runs only with a snapshot of
// every platform.
func TestAccInstallingGuideSnapshot(t *testing.T) {
	forEachCLI(t, []string{"TERRAFORM", "TOFU"}, func(t *testing.T, c cli) {
		rel := builtRelease(t)
		root := testkit.Root(t)
		guide, err := testkit.ReadPage(root, installingGuide)
		must(t, err)
		page, err := guide.Part(snapshotSection)
		must(t, err)
		must(t, page.Skip(notRun(page, rel)...))
		clone, work := t.TempDir(), t.TempDir()
		must(t, os.Symlink(rel.dir, filepath.Join(clone, "dist")))
		must(t, os.WriteFile(filepath.Join(work, "main.tf"), []byte(guideModule), 0o600))
		r := &testkit.Reader{Page: page, Dir: work, Clone: clone, Env: testkit.UserEnv(t, c.path, map[string]string{"CLONE": clone}),
			Output: func(out string) string { return strings.ReplaceAll(out, rel.version, "0.2.0") }, Logf: t.Logf}
		t.Cleanup(func() { killGPGAgent(r.Env) })
		must(t, r.Follow(page.Blocks))
		must(t, page.Check())
		t.Log(page.Summary())
	})
}

// guideModule is the module the guide's blocks install the provider for: its
// required_providers block, as the guide shows it.
const guideModule = `terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry", version = "~> 0.2" }
  }
}
`

var lockedPlatform = regexp.MustCompile(`-platform=(\w+)`)

// notRun is what the test does not run of the section: the build of the
// snapshot, which is the run's own (with SINGLE_TARGET=1, the guide's
// command), and a lock of platforms the snapshot has no zip for (a snapshot
// of every platform, RELEASE_DIST, runs it).
func notRun(page *testkit.Page, rel *release) []testkit.NotRun {
	rules := []testkit.NotRun{{Match: "make release-snapshot", Reason: testkit.Because(
		"the run builds the snapshot itself, as the guide does (SINGLE_TARGET=1)", func(b testkit.Block) error {
			if !strings.Contains(b.Text, "make release-snapshot SINGLE_TARGET=1") {
				return errors.New("the guide builds the snapshot another way than the test does (SINGLE_TARGET=1)")
			}
			return nil
		})}}
	for _, b := range testkit.Of(page.Blocks, "sh") {
		if missing := rel.missingPlatforms(b.Text); len(missing) > 0 {
			rules = append(rules, testkit.NotRun{Match: regexp.QuoteMeta(b.FirstLine()), Reason: testkit.Because(
				"the snapshot has no zip for "+strings.Join(missing, ", ")+" (a snapshot of every platform, RELEASE_DIST, runs it)",
				func(b testkit.Block) error {
					if len(rel.missingPlatforms(b.Text)) == 0 {
						return errors.New("the snapshot has a zip of every platform the block locks")
					}
					return nil
				})})
		}
	}
	return rules
}

// missingPlatforms lists the platforms a block locks (-platform=os_arch)
// that the release has no zip for.
func (r *release) missingPlatforms(block string) []string {
	var missing []string
	for _, m := range lockedPlatform.FindAllStringSubmatch(block, -1) {
		if !slices.ContainsFunc(r.zips, func(z platformZip) bool { return z.os+"_"+z.arch == m[1] }) {
			missing = append(missing, m[1])
		}
	}
	return missing
}

// killGPGAgent stops the gpg agent that the guide's gpg commands may have
// started in the test's home, and only that one.
func killGPGAgent(env []string) {
	cmd := exec.Command("gpgconf", "--kill", "gpg-agent")
	cmd.Env = env
	_ = cmd.Run()
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
