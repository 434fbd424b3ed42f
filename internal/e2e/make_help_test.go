package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

var (
	makeTarget = regexp.MustCompile(`(?m)^([a-z][a-z0-9-]*):(?:[^=\n][^\n]*)?$`)
	makePhony  = regexp.MustCompile(`(?m)^\.PHONY:((?:[^\n]*\\\n)*[^\n]*)$`)
	helpLine   = regexp.MustCompile(`^  ([a-z][a-z0-9-]*) +(\S.*)$`)
)

// `make help` lists every target of the GNUmakefile with one line saying
// what it does; every target is in .PHONY (none is a file) and every target
// of .PHONY is defined, so a target added without a help line, or a help
// line left for a target that is gone, fails here.
func TestMakeHelp_listsEveryTarget(t *testing.T) {
	root := testkit.Root(t)
	raw, err := os.ReadFile(filepath.Join(root, "GNUmakefile"))
	must(t, err)
	var defined []string
	for _, m := range makeTarget.FindAllStringSubmatch(string(raw), -1) {
		defined = append(defined, m[1])
	}
	m := makePhony.FindStringSubmatch(string(raw))
	if m == nil {
		t.Fatal("the GNUmakefile has no .PHONY line")
	}
	phony := strings.Fields(strings.ReplaceAll(m[1], "\\\n", " "))
	slices.Sort(defined)
	slices.Sort(phony)
	if !slices.Equal(defined, phony) {
		t.Errorf("the targets defined %q are not those of .PHONY %q", defined, phony)
	}
	if _, err := exec.LookPath("make"); err != nil {
		t.Skip("no make on the PATH: `make help` cannot run here (the targets were checked against .PHONY)")
	}
	cmd := exec.Command("make", "-s", "help")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make help: %v\n%s", err, out)
	}
	helped := map[string]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(out)), "\n")[1:] {
		hm := helpLine.FindStringSubmatch(line)
		if hm == nil {
			t.Errorf("make help printed %q, not a target and its line", line)
			continue
		}
		helped[hm[1]] = hm[2]
	}
	for _, target := range phony {
		if helped[target] == "" {
			t.Errorf("make help has no line for %s: add `## what it does` after its name in the GNUmakefile", target)
		}
	}
	if len(helped) != len(phony) {
		t.Errorf("make help lists %d targets, .PHONY has %d:\n%s", len(helped), len(phony), out)
	}
}
