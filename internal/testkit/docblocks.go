package testkit

import (
	"fmt"
	"regexp"
	"strings"
)

// Block is a fenced block of a Markdown document: its language (sh, text,
// terraform) and its lines, with the indentation of a block inside a list
// item (three spaces) removed.
type Block struct {
	Lang string
	Text string
}

var (
	fenceOpen  = regexp.MustCompile("^ *```([a-z]+) *$")
	fenceClose = regexp.MustCompile("^ *``` *$")
)

// DocBlocks returns the fenced blocks of a Markdown document, in order; with
// a non-nil from, only those between the first line matching from and the
// next line matching to.
func DocBlocks(doc string, from, to *regexp.Regexp) []Block {
	var blocks []Block
	var cur *Block
	inside := from == nil
	for _, line := range strings.Split(doc, "\n") {
		switch {
		case !inside:
			inside = from.MatchString(line)
		case from != nil && cur == nil && to.MatchString(line):
			return blocks
		case cur == nil && fenceOpen.MatchString(line):
			cur = &Block{Lang: fenceOpen.FindStringSubmatch(line)[1]}
		case cur != nil && fenceClose.MatchString(line):
			blocks = append(blocks, *cur)
			cur = nil
		case cur != nil:
			cur.Text += strings.TrimPrefix(line, "   ") + "\n"
		}
	}
	return blocks
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
