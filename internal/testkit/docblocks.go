package testkit

import (
	"fmt"
	"regexp"
	"strings"
)

// Block is a fenced block of a Markdown page: its language (sh, text,
// terraform), its lines with the indentation of its opening fence removed
// (the three spaces of a block inside a list item), where it is and what the
// page says just before it.
type Block struct {
	Lang string
	Text string
	// Index is the block's place among the page's blocks, from 0; Line the
	// line of its opening fence, from 1.
	Index, Line int
	// Section is the last level-two heading before it ("## 3. Approve"; ""
	// before the first).
	Section string
	// Caption is the line of prose just before it, if any ("save as
	// `main.tf`:").
	Caption string
}

// FirstLine is the block's first line.
func (b Block) FirstLine() string {
	first, _, _ := strings.Cut(b.Text, "\n")
	return first
}

// heading is a heading of a page: its line, its level (the number of #) and
// its line number.
type heading struct {
	text        string
	level, line int
}

var (
	fenceOpen  = regexp.MustCompile("^( *)```([a-z]+) *$")
	fenceClose = regexp.MustCompile("^ *``` *$")
	headingRe  = regexp.MustCompile(`^(#{1,6}) \S`)
)

// parse reads a page's fenced blocks and its headings (lines inside a block,
// such as "# in the clone", are not headings).
func parse(doc string) ([]Block, []heading) {
	var blocks []Block
	var headings []heading
	var cur *Block
	section, caption, indent := "", "", ""
	for i, line := range strings.Split(doc, "\n") {
		switch {
		case cur == nil && fenceOpen.MatchString(line):
			m := fenceOpen.FindStringSubmatch(line)
			cur, indent = &Block{Lang: m[2], Index: len(blocks), Line: i + 1, Section: section, Caption: caption}, m[1]
		case cur != nil && fenceClose.MatchString(line):
			blocks = append(blocks, *cur)
			cur, caption = nil, ""
		case cur != nil:
			cur.Text += strings.TrimPrefix(line, indent) + "\n"
		case headingRe.MatchString(line):
			level := len(headingRe.FindStringSubmatch(line)[1])
			headings = append(headings, heading{text: strings.TrimRight(line, " "), level: level, line: i + 1})
			if level == 2 {
				section = line
			}
			caption = ""
		case strings.TrimSpace(line) != "":
			caption = strings.TrimSpace(line)
		}
	}
	return blocks, headings
}

// Of is the blocks of one language, in order.
func Of(blocks []Block, lang string) []Block {
	var out []Block
	for _, b := range blocks {
		if b.Lang == lang {
			out = append(out, b)
		}
	}
	return out
}

var ansiEscape = regexp.MustCompile("\x1b\\[[0-9;]*m")

// normalize drops colour codes and runs of spaces, so that a page's output
// matches the CLI's whatever the alignment.
func normalize(s string) string {
	s = ansiEscape.ReplaceAllString(s, "")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.Join(lines, "\n")
}

// MissingLines lists the non-empty lines of want that are not in out,
// spacing and colours aside: what a page says a command prints must appear in
// what it printed.
func MissingLines(out, want string) []string {
	got := normalize(out)
	var missing []string
	for _, line := range strings.Split(normalize(want), "\n") {
		if line != "" && !strings.Contains(got, line) {
			missing = append(missing, line)
		}
	}
	return missing
}

// ExpectLines returns an error naming the lines of want that are not in out
// (MissingLines), with the output.
func ExpectLines(out, want string) error {
	if missing := MissingLines(out, want); len(missing) > 0 {
		return fmt.Errorf("the page says these lines appear, and they do not:\n  %s\n--- output:\n%s",
			strings.Join(missing, "\n  "), out)
	}
	return nil
}
