package testkit

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
)

// Page is a Markdown page a test follows as its reader does: its fenced
// blocks, and for each ```sh block whether the test ran it or why it did not.
// A page is followed when every ```sh block ran or was not run for a reason
// that holds (Check): a test cannot leave a step of the page behind unnoticed.
type Page struct {
	Path     string // as the test names it: templates/guides/x.md.tmpl, README.md
	Text     string
	Blocks   []Block
	headings []heading
	ran      map[int]bool
	notRun   map[int]string
}

// NewPage reads a page's text.
func NewPage(path, text string) *Page {
	blocks, headings := parse(text)
	return &Page{Path: path, Text: text, Blocks: blocks, headings: headings, ran: map[int]bool{}, notRun: map[int]string{}}
}

// ReadPage reads the page at path, relative to the repository's root.
func ReadPage(root, path string) (*Page, error) {
	raw, err := os.ReadFile(filepath.Join(root, path))
	if err != nil {
		return nil, err
	}
	return NewPage(path, string(raw)), nil
}

// Section is the blocks from the heading line given ("### Making a signing
// key") to the next heading of the same level or higher; an error when the
// page has no such heading.
func (p *Page) Section(title string) ([]Block, error) {
	h, err := p.heading(title)
	if err != nil {
		return nil, err
	}
	end := 0
	for _, next := range p.headings {
		if next.line > h.line && next.level <= h.level {
			end = next.line
			break
		}
	}
	return p.lines(h.line, end), nil
}

// Range is the blocks after the heading from ("" for the start of the page)
// and before the heading to ("" for the end of the page).
func (p *Page) Range(from, to string) ([]Block, error) {
	start, end := 0, 0
	for _, bound := range []struct {
		title string
		line  *int
	}{{from, &start}, {to, &end}} {
		if bound.title == "" {
			continue
		}
		h, err := p.heading(bound.title)
		if err != nil {
			return nil, err
		}
		*bound.line = h.line
	}
	return p.lines(start, end), nil
}

func (p *Page) heading(title string) (heading, error) {
	for _, h := range p.headings {
		if h.text == title {
			return h, nil
		}
	}
	return heading{}, fmt.Errorf("%s has no heading %q: the page changed, or its heading did", p.Path, title)
}

// lines is the blocks that open after line start and before line end (0: the
// end of the page).
func (p *Page) lines(start, end int) []Block {
	var out []Block
	for _, b := range p.Blocks {
		if b.Line > start && (end == 0 || b.Line < end) {
			out = append(out, b)
		}
	}
	return out
}

// Next is the block after b, or nil for the last.
func (p *Page) Next(b Block) *Block {
	if b.Index+1 < len(p.Blocks) {
		return &p.Blocks[b.Index+1]
	}
	return nil
}

// Ran records that the test ran a block.
func (p *Page) Ran(b Block) { p.ran[b.Index] = true }

// HasRun tells whether the test ran a block.
func (p *Page) HasRun(b Block) bool { return p.ran[b.Index] }

// NotRunWhy is why the test does not run a block, or "" when nothing said so.
func (p *Page) NotRunWhy(b Block) string { return p.notRun[b.Index] }

// A Reason says why a ```sh block of a page is not run, and checks that it
// holds for that block: a test does not leave a step out on its word alone.
type Reason struct {
	Why   string
	Check func(p *Page, b Block) error
}

// NotRun names ```sh blocks of a page that its test does not run, and why.
type NotRun struct {
	In     string // the heading of the section they are in; "" for the whole page
	Match  string // a regular expression a block's text matches; "" for every ```sh block of In
	Reason Reason
}

// Skip records the blocks that each rule names as not run. A rule that names
// no block, a block named twice, and a reason that does not hold are errors:
// the page changed and the rule did not follow.
func (p *Page) Skip(rules ...NotRun) error {
	for _, rule := range rules {
		blocks, err := p.Range("", "")
		if rule.In != "" {
			blocks, err = p.Section(rule.In)
		}
		if err != nil {
			return err
		}
		match := regexp.MustCompile(rule.Match)
		var named []Block
		for _, b := range Of(blocks, "sh") {
			if match.MatchString(b.Text) {
				named = append(named, b)
			}
		}
		if len(named) == 0 {
			return fmt.Errorf("%s: no ```sh block in %q matches %q (not run: %s): the page changed", p.Path, rule.In, rule.Match, rule.Reason.Why)
		}
		if err := p.SkipBlocks(named, rule.Reason); err != nil {
			return err
		}
	}
	return nil
}

// SkipBlocks records the ```sh blocks given as not run, for the reason given,
// once its check holds for each.
func (p *Page) SkipBlocks(blocks []Block, r Reason) error {
	for _, b := range Of(blocks, "sh") {
		if why := p.notRun[b.Index]; why != "" {
			return fmt.Errorf("%s:%d: a block is not run for two reasons: %s, and %s", p.Path, b.Line, why, r.Why)
		}
		if r.Check == nil {
			return fmt.Errorf("%s:%d: the reason %q has no check", p.Path, b.Line, r.Why)
		}
		if err := r.Check(p, b); err != nil {
			return fmt.Errorf("%s:%d: the block is said not to run (%s), and that does not hold: %w", p.Path, b.Line, r.Why, err)
		}
		p.notRun[b.Index] = r.Why
	}
	return nil
}

// Check is an error unless every ```sh block of the page ran or was not run
// for a reason: fewer blocks ran than the page holds.
func (p *Page) Check() error {
	var left []string
	sh := Of(p.Blocks, "sh")
	ran := 0
	for _, b := range sh {
		switch {
		case p.ran[b.Index]:
			ran++
		case p.notRun[b.Index] == "":
			left = append(left, fmt.Sprintf("  line %d: %s", b.Line, b.FirstLine()))
		}
	}
	if len(left) > 0 {
		return fmt.Errorf("%s holds %d ```sh blocks; %d ran, %d were not run for a reason, and these were left behind:\n%s",
			p.Path, len(sh), ran, len(sh)-ran-len(left), strings.Join(left, "\n"))
	}
	return nil
}

// Summary says how many ```sh blocks ran, and why the others did not.
func (p *Page) Summary() string {
	sh := Of(p.Blocks, "sh")
	ran, whys := 0, map[string]int{}
	for _, b := range sh {
		if p.ran[b.Index] {
			ran++
		} else if why := p.notRun[b.Index]; why != "" {
			whys[why]++
		}
	}
	parts := []string{fmt.Sprintf("%s: %d of %d ```sh blocks ran", p.Path, ran, len(sh))}
	for _, why := range slices.Sorted(maps.Keys(whys)) {
		parts = append(parts, fmt.Sprintf("%d not run: %s", whys[why], why))
	}
	return strings.Join(parts, "; ")
}

// Marked is the reason of a block whose first line is marker ("# needs
// Google"), a convention the page states: it quotes the marker in its prose.
func Marked(marker string) Reason {
	return Reason{Why: "marked " + marker, Check: func(p *Page, b Block) error {
		if !strings.HasPrefix(b.FirstLine(), marker) {
			return fmt.Errorf("its first line is %q, not %q", b.FirstLine(), marker)
		}
		if !strings.Contains(p.Text, "`"+marker+"`") {
			return fmt.Errorf("the page does not say what `%s` means", marker)
		}
		return nil
	}}
}

// NeedsCLI is the reason of a block that needs a CLI at least the release of
// its flavour given ("" when no release of it qualifies); it holds only when
// the CLI of the run is older.
func NeedsCLI(cli CLI, what, terraform, opentofu string) Reason {
	why := what + " needs " + needs(terraform, opentofu) + "; this run's CLI is " + cli.Flavour + " " + cli.Version.String()
	return Reason{Why: why, Check: func(*Page, Block) error {
		if cli.AtLeast(terraform, opentofu) {
			return fmt.Errorf("%s is %s %s, which has it: the block must run", cli.Path, cli.Flavour, cli.Version)
		}
		return nil
	}}
}

// RunBy is the reason of a block that another test of the repository runs
// (a module's own tests, the install checks); it holds while a _test.go file
// under internal/ declares that test.
func RunBy(test string) Reason {
	return Reason{Why: "run by " + test, Check: func(*Page, Block) error {
		files, err := testFiles()
		if err != nil {
			return err
		}
		decl := "func " + test + "(t *testing.T)"
		for _, f := range files {
			if strings.Contains(f, decl) {
				return nil
			}
		}
		return fmt.Errorf("no _test.go file under internal/ declares %s", decl)
	}}
}

// Because is the reason why, which holds when check finds nothing wrong with
// the block.
func Because(why string, check func(b Block) error) Reason {
	return Reason{Why: why, Check: func(_ *Page, b Block) error { return check(b) }}
}

// testFiles is the text of every _test.go file under the repository's
// internal/, read once per test process.
var testFiles = onceFor(func() ([]string, error) {
	dir, err := root()
	if err != nil {
		return nil, err
	}
	var files []string
	err = filepath.WalkDir(filepath.Join(dir, "internal"), func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return err
		}
		raw, err := os.ReadFile(path)
		files = append(files, string(raw))
		return err
	})
	return files, err
})

// Part is the page's section under the heading given, as a page of its own
// (its blocks keep their lines in the page); "" is the part before the
// page's first level-two heading.
func (p *Page) Part(title string) (*Page, error) {
	start, end, level := 0, 0, 2
	if title != "" {
		h, err := p.heading(title)
		if err != nil {
			return nil, err
		}
		start, level = h.line-1, h.level
	}
	for _, next := range p.headings {
		if next.line > start+1 && next.level <= level {
			end = next.line - 1
			break
		}
	}
	lines := strings.Split(p.Text, "\n")
	if end == 0 {
		end = len(lines)
	}
	part := NewPage(p.Path, strings.Join(lines[start:end], "\n"))
	for i := range part.Blocks {
		part.Blocks[i].Line += start
	}
	for i := range part.headings {
		part.headings[i].line += start
	}
	return part, nil
}
