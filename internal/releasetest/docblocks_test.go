package releasetest

import (
	"regexp"
	"strings"
)

// docBlock is one fenced block of a Markdown page, with the last line of prose
// before it (which says what to do with it: "save as `main.tf`:").
type docBlock struct {
	lang    string // sh, terraform, json, text
	body    string
	caption string
}

var fence = regexp.MustCompile("^```([a-z]*)\\s*$")

// fencedBlocks lists the fenced blocks of a page in order.
func fencedBlocks(page string) []docBlock {
	var blocks []docBlock
	var open *docBlock
	var body []string
	lastProse := ""
	for _, line := range strings.Split(page, "\n") {
		m := fence.FindStringSubmatch(line)
		switch {
		case open == nil && m != nil && m[1] != "":
			open, body = &docBlock{lang: m[1], caption: lastProse}, nil
		case open != nil && m != nil && m[1] == "":
			open.body = strings.Join(body, "\n") + "\n"
			blocks = append(blocks, *open)
			open = nil
		case open != nil:
			body = append(body, line)
		case strings.TrimSpace(line) != "":
			lastProse = line
		}
	}
	return blocks
}

var ansiEscape = regexp.MustCompile("\x1b\\[[0-9;]*m")

// normalized is text as compared with a page's expected output: colours
// removed, runs of spaces and tabs as one space, each line trimmed.
func normalized(text string) string {
	lines := strings.Split(ansiEscape.ReplaceAllString(text, ""), "\n")
	for i, line := range lines {
		lines[i] = strings.Join(strings.Fields(line), " ")
	}
	return strings.Join(lines, "\n")
}

// missingLines lists the non-empty lines of want that are not in output,
// spacing aside.
func missingLines(output, want string) []string {
	got := normalized(output)
	var missing []string
	for _, line := range strings.Split(normalized(want), "\n") {
		if line != "" && !strings.Contains(got, line) {
			missing = append(missing, line)
		}
	}
	return missing
}
