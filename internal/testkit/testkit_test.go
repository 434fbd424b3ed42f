package testkit

import (
	"os/exec"
	"regexp"
	"strings"
	"testing"
)

// The version the tests stamp is the one `make build` stamps: Version keeps
// scripts/version.sh's rule, with and without VERSION.
func TestVersionAsTheScript(t *testing.T) {
	root := Root(t)
	for _, env := range []string{"", "v1.2.3", "0.3.0-rc.1+build.5"} {
		t.Setenv("VERSION", env)
		out, err := exec.Command(root + "/scripts/version.sh").Output()
		if err != nil {
			t.Fatalf("scripts/version.sh with VERSION=%q: %v", env, err)
		}
		got, err := Version(root)
		if err != nil || got != strings.TrimSpace(string(out)) {
			t.Errorf("VERSION=%q: Version = %q, %v; scripts/version.sh says %q", env, got, err, out)
		}
	}
	t.Setenv("VERSION", "1.2")
	if _, err := Version(root); err == nil {
		t.Error("VERSION=1.2 is not a semantic version, and Version accepted it")
	}
}

func TestDocBlocks(t *testing.T) {
	doc := "# A\n```sh\necho a\n```\n## B\n1. step\n   ```text\n   a  b\n     c\n   ```\n## C\n```hcl\nx {\n    y = 1\n}\n```\n"
	all := DocBlocks(doc, nil, nil)
	// A block keeps its lines' indentation beyond its fence's.
	if len(all) != 3 || all[0] != (Block{"sh", "echo a\n", ""}) || all[1] != (Block{"text", "a  b\n  c\n", "## B"}) ||
		all[2] != (Block{"hcl", "x {\n    y = 1\n}\n", "## C"}) {
		t.Fatalf("blocks = %q", all)
	}
	section := DocBlocks(doc, regexp.MustCompile(`^## B`), regexp.MustCompile(`^##`))
	if len(section) != 1 || section[0].Lang != "text" {
		t.Fatalf("the blocks of section B = %q", section)
	}
}

func TestSectionBlocks(t *testing.T) {
	doc := "## A\n### A1\n```sh\none\n```\n```text\nout\n```\n```sh\n# not a heading\ntwo\n```\n" +
		"#### deeper\n```sh\nthree\n```\n### A2\n```sh\nfour\n```\n## B\n```sh\nfive\n```\n"
	var got []string
	for _, b := range Blocks(SectionBlocks(doc, "### A1"), "sh") {
		got = append(got, strings.TrimSpace(b.Text))
	}
	if strings.Join(got, ",") != "one,# not a heading\ntwo,three" {
		t.Errorf("the sh blocks of ### A1 = %q, want its three, not A2's or B's", got)
	}
	if n := len(SectionBlocks(doc, "## A")); n != 5 {
		t.Errorf("## A has %d blocks, want 5 (its subsections' included)", n)
	}
	if n := len(SectionBlocks(doc, "## Missing")); n != 0 {
		t.Errorf("a missing heading has %d blocks", n)
	}
}

func TestExpectLines(t *testing.T) {
	out := "Plan:   2 to add,\t0 to change\n\x1b[1mdone\x1b[0m\n"
	if err := ExpectLines(out, "Plan: 2 to add, 0 to change\n\ndone\n"); err != nil {
		t.Error(err)
	}
	if err := ExpectLines(out, "Plan: 3 to add\n"); err == nil || !strings.Contains(err.Error(), "Plan: 3 to add") {
		t.Errorf("a line not printed passed, or the error does not name it: %v", err)
	}
}
