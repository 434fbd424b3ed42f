package releasetest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

const snapshotSection = "### From a release snapshot"

// TestAccReadmeSnapshotInstall follows the README's "From a release snapshot"
// word for word with Terraform and OpenTofu: the snapshot is the one the run
// built (SINGLE_TARGET=1, as the README's first block asks) or RELEASE_DIST's,
// given to the blocks as the clone's dist/; every other ```sh block runs, in
// the clone when it says "# in the clone" and in a new module's folder
// otherwise, as `terraform` (a shim to the CLI under test); and the ```text
// block after one must appear in what it printed, with the snapshot's version
// written 0.2.0 as the README writes it. A block that locks platforms the
// snapshot has no zip for runs only with a snapshot of every platform.
func TestAccReadmeSnapshotInstall(t *testing.T) {
	forEachCLI(t, []string{"TERRAFORM", "TOFU"}, func(t *testing.T, c cli) {
		rel := builtRelease(t)
		root := repositoryRoot(t)
		blocks := fencedBlocks(readmeSection(t, root, snapshotSection))
		clone, work := t.TempDir(), t.TempDir()
		if err := os.Symlink(rel.dir, filepath.Join(clone, "dist")); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, "main.tf"), []byte(readmeModule), 0o600); err != nil {
			t.Fatal(err)
		}
		env := append(guideEnv(t, c), "CLONE="+clone)
		t.Cleanup(func() { killGPGAgent(env) })
		ran := 0
		for i, b := range blocks {
			if b.lang != "sh" || !runnable(t, b.body, rel) {
				continue
			}
			next := docBlock{}
			if i+1 < len(blocks) {
				next = blocks[i+1]
			}
			dir := work
			if strings.HasPrefix(b.body, "# in the clone") {
				dir = clone
			}
			out, err := runBlock(b.body, dir, env)
			out = strings.ReplaceAll(out, rel.version, "0.2.0")
			ran++
			switch {
			case next.lang == "text":
				if missing := missingLines(out, next.body); len(missing) > 0 {
					t.Fatalf("the README says these lines appear, and they do not:\n%s\n--- the block:\n%s--- its output:\n%s",
						strings.Join(missing, "\n"), b.body, out)
				}
			case err != nil:
				t.Fatalf("the README's block failed: %v\n--- the block:\n%s--- its output:\n%s", err, b.body, out)
			}
		}
		if ran < 2 {
			t.Fatalf("only %d of the README's blocks ran: the section %q lost its steps", ran, snapshotSection)
		}
	})
}

// readmeModule is the module the README's blocks install the provider for:
// its required_providers block, as the README shows it.
const readmeModule = `terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry", version = "~> 0.2" }
  }
}
`

var lockedPlatform = regexp.MustCompile(`-platform=(\w+)`)

// runnable says whether the test runs a block: the build of the snapshot is
// the run's own (with SINGLE_TARGET=1, the README's command), and a lock of
// platforms runs only when the snapshot has a zip for each.
func runnable(t *testing.T, body string, rel *release) bool {
	t.Helper()
	if strings.Contains(body, "make release-snapshot") {
		if !strings.Contains(body, "make release-snapshot SINGLE_TARGET=1") {
			t.Fatalf("the README builds the snapshot another way than the test does (SINGLE_TARGET=1):\n%s", body)
		}
		return false
	}
	for _, m := range lockedPlatform.FindAllStringSubmatch(body, -1) {
		if !rel.hasPlatform(m[1]) {
			t.Logf("not run: the snapshot has no zip for %s (a snapshot of every platform, RELEASE_DIST, runs it):\n%s", m[1], body)
			return false
		}
	}
	return true
}

// hasPlatform says whether the release has a zip for os_arch.
func (r *release) hasPlatform(platform string) bool {
	for _, z := range r.zips {
		if z.os+"_"+z.arch == platform {
			return true
		}
	}
	return false
}

// readmeSection is the README's text from heading to the next heading of the
// same level or higher, fenced blocks' lines (such as "# in the clone") aside.
func readmeSection(t *testing.T, root, heading string) string {
	t.Helper()
	level := len(heading) - len(strings.TrimLeft(heading, "#"))
	next := regexp.MustCompile(fmt.Sprintf(`^#{1,%d} `, level))
	var section []string
	inside, fenced := false, false
	for _, line := range strings.Split(string(readFile(t, filepath.Join(root, "README.md"))), "\n") {
		switch {
		case !inside:
			inside = strings.HasPrefix(line, heading)
		case !fenced && next.MatchString(line):
			return strings.Join(section, "\n")
		case strings.HasPrefix(line, "```"):
			fenced = !fenced
		}
		if inside {
			section = append(section, line)
		}
	}
	if !inside {
		t.Fatalf("the README has no section %q", heading)
	}
	return strings.Join(section, "\n")
}

// runBlock runs a block in bash, bounded to ten minutes.
func runBlock(body, dir string, env []string) (string, error) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, "bash", "-euo", "pipefail", "-c", body)
	cmd.Dir, cmd.Env = dir, env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// killGPGAgent stops the gpg agent that the README's gpg commands may have
// started in the test's home, and only that one.
func killGPGAgent(env []string) {
	cmd := exec.Command("gpgconf", "--kill", "gpg-agent")
	cmd.Env = env
	_ = cmd.Run()
}
