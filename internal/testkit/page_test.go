package testkit

import (
	"errors"
	"strings"
	"testing"

	"github.com/hashicorp/go-version"
)

// A page of every kind of block the runner meets: a list item's indented
// block, sections of three levels, a marker, captions.
const samplePage = "# Title\n" +
	"```sh\necho top\n```\n" +
	"## A\n" +
	"In a new folder, save as `main.tf`:\n" +
	"```terraform\nx {\n    y = 1\n}\n```\n" +
	"1. step\n" +
	"   ```text\n   a  b\n     c\n   ```\n" +
	"### A1\n" +
	"```sh\n# needs Google\ngcloud x\n```\n" +
	"A block marked `# needs Google` needs Google.\n" +
	"## B\n" +
	"```hcl\n# approve/main.tf\nz = 1\n```\n" +
	"```sh\necho b\n```\n"

func TestPage_blocks(t *testing.T) {
	p := NewPage("sample.md", samplePage)
	want := []Block{
		{Lang: "sh", Text: "echo top\n", Index: 0, Line: 2},
		{Lang: "terraform", Text: "x {\n    y = 1\n}\n", Index: 1, Line: 7, Section: "## A", Caption: "In a new folder, save as `main.tf`:"},
		// A block keeps its lines' indentation beyond its fence's.
		{Lang: "text", Text: "a  b\n  c\n", Index: 2, Line: 13, Section: "## A", Caption: "1. step"},
		{Lang: "sh", Text: "# needs Google\ngcloud x\n", Index: 3, Line: 18, Section: "## A"},
		{Lang: "hcl", Text: "# approve/main.tf\nz = 1\n", Index: 4, Line: 24, Section: "## B"},
		{Lang: "sh", Text: "echo b\n", Index: 5, Line: 28, Section: "## B"},
	}
	if len(p.Blocks) != len(want) {
		t.Fatalf("blocks = %+v", p.Blocks)
	}
	for i := range want {
		if p.Blocks[i] != want[i] {
			t.Errorf("block %d = %+v, want %+v", i, p.Blocks[i], want[i])
		}
	}
	if got := SaveAs(p.Blocks[1]) + "," + SaveAs(p.Blocks[4]) + "," + SaveAs(p.Blocks[2]); got != "main.tf,approve/main.tf," {
		t.Errorf("SaveAs = %q: the caption's file, the first line's file, nothing for a text block", got)
	}
}

func TestPage_sections(t *testing.T) {
	p := NewPage("sample.md", samplePage)
	for _, c := range []struct {
		from, to string
		want     []int
	}{
		{"## A", "", []int{1, 2, 3}}, // its subsections included, up to ## B
		{"### A1", "", []int{3}},
		{"## B", "", []int{4, 5}},
	} {
		blocks, err := p.Section(c.from)
		if err != nil || !sameIndexes(blocks, c.want) {
			t.Errorf("Section(%q) = %v, %v; want blocks %v", c.from, indexes(blocks), err, c.want)
		}
	}
	if blocks, err := p.Range("", "## A"); err != nil || !sameIndexes(blocks, []int{0}) {
		t.Errorf("Range up to ## A = %v, %v", indexes(blocks), err)
	}
	if blocks, err := p.Range("### A1", ""); err != nil || !sameIndexes(blocks, []int{3, 4, 5}) {
		t.Errorf("Range from ### A1 = %v, %v", indexes(blocks), err)
	}
	// "# needs Google" is a line of a block, not a heading.
	if _, err := p.Section("# needs Google"); err == nil {
		t.Error("a comment inside a block was taken for a heading")
	}
	if _, err := p.Section("## Missing"); err == nil || !strings.Contains(err.Error(), "## Missing") {
		t.Errorf("a missing heading: %v", err)
	}
}

func indexes(blocks []Block) []int {
	var out []int
	for _, b := range blocks {
		out = append(out, b.Index)
	}
	return out
}

func sameIndexes(blocks []Block, want []int) bool {
	got := indexes(blocks)
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if got[i] != want[i] {
			return false
		}
	}
	return true
}

// A page is followed only when every ```sh block ran or was not run for a
// reason: one left behind fails Check, naming its line.
func TestPage_checkFailsWhenFewerBlocksRan(t *testing.T) {
	p := NewPage("sample.md", samplePage)
	p.Ran(p.Blocks[0])
	if err := p.Skip(NotRun{In: "### A1", Reason: Marked("# needs Google")}); err != nil {
		t.Fatal(err)
	}
	err := p.Check()
	if err == nil || !strings.Contains(err.Error(), "line 28: echo b") || !strings.Contains(err.Error(), "1 ran, 1 were not run") {
		t.Fatalf("a page with a block neither run nor skipped passed, or the error does not name it: %v", err)
	}
	p.Ran(p.Blocks[5])
	if err := p.Check(); err != nil {
		t.Fatal(err)
	}
	if s := p.Summary(); s != "sample.md: 2 of 3 ```sh blocks ran; 1 not run: marked # needs Google" {
		t.Errorf("Summary = %q", s)
	}
}

// A reason is checked: a marker the block does not carry, or that the page
// does not explain; a test that does not exist; a CLI that has what the block
// needs; a rule that names no block; a block given two reasons.
func TestPage_reasonsAreChecked(t *testing.T) {
	cli := func(flavour, v string) CLI {
		return CLI{Path: "/cli", Flavour: flavour, Version: version.Must(version.NewVersion(v))}
	}
	for _, c := range []struct {
		name, page string
		rule       NotRun
		fails      string
	}{
		{"marked", samplePage, NotRun{In: "### A1", Reason: Marked("# needs Google")}, ""},
		{"not marked", samplePage, NotRun{In: "## B", Reason: Marked("# needs Google")}, `its first line is "echo b"`},
		{"marker unexplained", strings.Replace(samplePage, "`# needs Google`", "it", 1),
			NotRun{In: "### A1", Reason: Marked("# needs Google")}, "does not say what"},
		{"run by a test", samplePage, NotRun{Match: "echo b", Reason: RunBy("TestPage_reasonsAreChecked")}, ""},
		{"run by no test", samplePage, NotRun{Match: "echo b", Reason: RunBy("TestNoSuchTest")}, "declares func TestNoSuchTest("},
		{"older CLI", samplePage, NotRun{Match: "echo b", Reason: NeedsCLI(cli(Terraform, "1.13.0"), "query", "1.14.0", "")}, ""},
		{"CLI that has it", samplePage, NotRun{Match: "echo b", Reason: NeedsCLI(cli(Terraform, "1.14.2"), "query", "1.14.0", "")},
			"the block must run"},
		{"OpenTofu never has it", samplePage, NotRun{Match: "echo b", Reason: NeedsCLI(cli(OpenTofu, "1.20.0"), "query", "1.14.0", "")}, ""},
		{"because", samplePage, NotRun{Match: "echo", Reason: Because("why", func(b Block) error {
			if b.Index == 5 {
				return errors.New("not this one")
			}
			return nil
		})}, "not this one"},
		{"names no block", samplePage, NotRun{Match: "no such command", Reason: Marked("# needs Google")}, "no ```sh block"},
		{"no check", samplePage, NotRun{Match: "echo b", Reason: Reason{Why: "trust me"}}, "has no check"},
	} {
		t.Run(c.name, func(t *testing.T) {
			err := NewPage("sample.md", c.page).Skip(c.rule)
			if (c.fails == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), c.fails)) {
				t.Errorf("Skip = %v, want an error with %q", err, c.fails)
			}
		})
	}
	p := NewPage("sample.md", samplePage)
	twice := NotRun{Match: "echo b", Reason: Because("why", func(Block) error { return nil })}
	if err := p.Skip(twice, twice); err == nil || !strings.Contains(err.Error(), "two reasons") {
		t.Errorf("a block skipped twice: %v", err)
	}
}

func TestMissingLines(t *testing.T) {
	out := "Plan:   2 to add,\t0 to change\n\x1b[1mdone\x1b[0m\n"
	if missing := MissingLines(out, "Plan: 2 to add, 0 to change\n\ndone\n"); len(missing) != 0 {
		t.Errorf("missing %q", missing)
	}
	if missing := MissingLines(out, "Plan: 3 to add\ndone\nnot printed\n"); strings.Join(missing, "|") != "Plan: 3 to add|not printed" {
		t.Errorf("MissingLines = %q, want every line not printed", missing)
	}
}

// A section as a page of its own: its blocks, at their lines in the page.
func TestPage_part(t *testing.T) {
	p := NewPage("sample.md", samplePage)
	a, err := p.Part("## A")
	if err != nil || !sameIndexes(a.Blocks, []int{0, 1, 2}) || a.Blocks[2].Line != 18 || a.Blocks[2].Lang != "sh" {
		t.Fatalf("Part(## A) = %+v, %v", a.Blocks, err)
	}
	if a1, err := a.Section("### A1"); err != nil || len(a1) != 1 || a1[0].Line != 18 {
		t.Errorf("the part's sections keep the page's lines: %+v, %v", a1, err)
	}
	intro, err := p.Part("")
	if err != nil || len(intro.Blocks) != 1 || intro.Blocks[0].Text != "echo top\n" {
		t.Errorf("Part(\"\") = %+v, %v", intro.Blocks, err)
	}
}
