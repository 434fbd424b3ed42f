package testkit

import (
	"fmt"
	"regexp"
	"strings"
)

// Block is a fenced block of a Markdown document: its language (sh, text,
// terraform), its lines, with the indentation of its opening fence removed
// (the three spaces of a block inside a list item), and the last level-two
// heading before it ("## 3. Approve", "" before the first).
type Block struct {
	Lang    string
	Text    string
	Section string
}

var (
	fenceOpen  = regexp.MustCompile("^( *)```([a-z]+) *$")
	fenceClose = regexp.MustCompile("^ *``` *$")
)

// DocBlocks returns the fenced blocks of a Markdown document, in order; with
// a non-nil from, only those between the first line matching from and the
// next line matching to.
func DocBlocks(doc string, from, to *regexp.Regexp) []Block {
	var blocks []Block
	var cur *Block
	inside := from == nil
	section, indent := "", ""
	for _, line := range strings.Split(doc, "\n") {
		if cur == nil && strings.HasPrefix(line, "## ") {
			section = line
		}
		switch {
		case !inside:
			inside = from.MatchString(line)
		case from != nil && cur == nil && to.MatchString(line):
			return blocks
		case cur == nil && fenceOpen.MatchString(line):
			m := fenceOpen.FindStringSubmatch(line)
			cur, indent = &Block{Lang: m[2], Section: section}, m[1]
		case cur != nil && fenceClose.MatchString(line):
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.Text += strings.TrimPrefix(line, indent) + "\n"
		}
	}
	return blocks
}

// SectionBlocks returns the fenced blocks of a document's section: from the
// line that is heading (such as "### Making a signing key") to the next
// heading of the same level or higher.
func SectionBlocks(doc, heading string) []Block {
	level := len(heading) - len(strings.TrimLeft(heading, "#"))
	from := regexp.MustCompile("^" + regexp.QuoteMeta(heading) + " *$")
	to := regexp.MustCompile(fmt.Sprintf("^#{1,%d} ", level))
	return DocBlocks(doc, from, to)
}

// Blocks returns the blocks of one language, in order.
func Blocks(blocks []Block, lang string) []Block {
	var out []Block
	for _, b := range blocks {
		if b.Lang == lang {
			out = append(out, b)
		}
	}
	return out
}

var ansiEscape = regexp.MustCompile("\x1b\\[[0-9;]*m")

// normalize drops colour codes and runs of spaces, so that a document's
// output matches the CLI's whatever the alignment.
func normalize(s string) string {
	s = ansiEscape.ReplaceAllString(s, "")
	lines := strings.Split(s, "\n")
	for i, l := range lines {
		lines[i] = strings.Join(strings.Fields(l), " ")
	}
	return strings.Join(lines, "\n")
}

// ExpectLines returns an error naming the first non-empty line of want that
// is not in out, spacing aside: what a document says a command prints must
// appear in what it printed.
func ExpectLines(out, want string) error {
	got := normalize(out)
	for _, line := range strings.Split(want, "\n") {
		line = normalize(line)
		if line != "" && !strings.Contains(got, line) {
			return fmt.Errorf("the document says this appears, and it does not:\n  %s\n--- output:\n%s", line, out)
		}
	}
	return nil
}
