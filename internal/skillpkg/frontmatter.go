// Package skillpkg implements the Agent Skills package format
// (https://agentskills.io/specification): the YAML front matter of a skill's
// SKILL.md, its validation, and a deterministic archive of the skill folder.
// The provider uses it at plan time and the bundled server when a revision is
// uploaded, so both apply the same rules.
package skillpkg

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"unicode/utf8"

	"gopkg.in/yaml.v3"
)

// Limits of the front matter fields, from the Agent Skills specification.
const (
	MaxNameLength          = 64
	MaxDescriptionLength   = 1024
	MaxCompatibilityLength = 500
)

// SkillFile is the file that makes a folder a skill.
const SkillFile = "SKILL.md"

// nameRE: lower-case letters, digits and single hyphens, not at either end.
var nameRE = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*$`)

// Frontmatter is the YAML header of SKILL.md.
type Frontmatter struct {
	Name          string            `json:"name"`
	Description   string            `json:"description"`
	License       string            `json:"license,omitempty"`
	Compatibility string            `json:"compatibility,omitempty"`
	Metadata      map[string]string `json:"metadata,omitempty"`
}

// Problem is one thing wrong with a SKILL.md, at a 1-based line of the file
// (0 when it concerns the file as a whole).
type Problem struct {
	Line  int
	Field string
	Msg   string
}

func (p Problem) String() string {
	loc := SkillFile
	if p.Line > 0 {
		loc = fmt.Sprintf("%s:%d", SkillFile, p.Line)
	}
	if p.Field != "" {
		return fmt.Sprintf("%s: %s: %s", loc, p.Field, p.Msg)
	}
	return loc + ": " + p.Msg
}

// ValidationError carries every problem of one SKILL.md, sorted by line, so
// that a user fixes them in one pass rather than one per plan.
type ValidationError struct{ Problems []Problem }

func (e *ValidationError) Error() string {
	lines := make([]string, len(e.Problems))
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	return strings.Join(lines, "\n")
}

// ParseFrontmatter reads and validates the front matter of a SKILL.md.
// folder is the name of the skill's folder, which the name must equal; ""
// skips that check (an archive whose entries sit at its root has no folder).
// On any problem the error is a *ValidationError listing all of them.
func ParseFrontmatter(content []byte, folder string) (*Frontmatter, error) {
	header, offset, p := splitFrontmatter(content)
	if p != nil {
		return nil, &ValidationError{Problems: []Problem{*p}}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(header, &doc); err != nil {
		return nil, &ValidationError{Problems: []Problem{{Line: offset + yamlErrorLine(err), Msg: "invalid YAML: " + err.Error()}}}
	}
	fm, problems := decode(&doc, offset)
	problems = append(problems, check(fm, folder, offset)...)
	if len(problems) > 0 {
		sort.SliceStable(problems, func(i, j int) bool { return problems[i].Line < problems[j].Line })
		return nil, &ValidationError{Problems: problems}
	}
	return &fm.Frontmatter, nil
}

// splitFrontmatter returns the YAML between the opening and closing "---"
// lines, and the number of lines before it (to turn YAML lines into file lines).
func splitFrontmatter(content []byte) ([]byte, int, *Problem) {
	text := strings.ReplaceAll(string(content), "\r\n", "\n")
	text = strings.TrimPrefix(text, "\ufeff")
	if !utf8.ValidString(text) {
		return nil, 0, &Problem{Msg: "is not valid UTF-8"}
	}
	lines := strings.Split(text, "\n")
	if len(lines) == 0 || strings.TrimRight(lines[0], " \t") != "---" {
		return nil, 0, &Problem{Line: 1, Msg: `must start with a YAML front matter block: a line "---", the fields, and a closing "---"`}
	}
	for i := 1; i < len(lines); i++ {
		if strings.TrimRight(lines[i], " \t") == "---" {
			return []byte(strings.Join(lines[1:i], "\n")), 1, nil
		}
	}
	return nil, 0, &Problem{Line: 1, Msg: `the front matter opened on line 1 is never closed by a "---" line`}
}

var yamlLineRE = regexp.MustCompile(`line (\d+)`)

func yamlErrorLine(err error) int {
	var n int
	if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
		fmt.Sscan(m[1], &n)
	}
	return n
}

// located is the front matter with the line of each field, for messages.
type located struct {
	Frontmatter
	lines map[string]int
}

// decode reads the mapping node by node, so that a wrongly typed field is
// reported with its line and the other fields are still checked.
func decode(doc *yaml.Node, offset int) (located, []Problem) {
	fm := located{lines: map[string]int{}}
	if len(doc.Content) == 0 {
		return fm, nil // empty header: check reports the missing fields
	}
	root := doc.Content[0]
	if root.Kind != yaml.MappingNode {
		return fm, []Problem{{Line: offset + root.Line, Msg: "the front matter must be a YAML mapping of fields"}}
	}
	var problems []Problem
	for i := 0; i+1 < len(root.Content); i += 2 {
		k, v := root.Content[i], root.Content[i+1]
		line := offset + k.Line
		fm.lines[k.Value] = line
		if p := decodeField(&fm.Frontmatter, k.Value, v, offset); p != nil {
			problems = append(problems, *p)
		}
	}
	return fm, problems
}

func decodeField(fm *Frontmatter, key string, v *yaml.Node, offset int) *Problem {
	line := offset + v.Line
	str := func(dst *string) *Problem {
		if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
			return &Problem{Line: line, Field: key, Msg: "must be a string"}
		}
		*dst = v.Value
		return nil
	}
	switch key {
	case "name":
		return str(&fm.Name)
	case "description":
		return str(&fm.Description)
	case "license":
		return str(&fm.License)
	case "compatibility":
		return str(&fm.Compatibility)
	case "allowed-tools":
		var s string
		return str(&s) // experimental in the specification: accepted, not kept
	case "metadata":
		return decodeMetadata(fm, v, offset)
	}
	return &Problem{Line: line, Field: key, Msg: "is not a field of the Agent Skills front matter (name, description, license, compatibility, metadata, allowed-tools)"}
}

func decodeMetadata(fm *Frontmatter, v *yaml.Node, offset int) *Problem {
	if v.Kind != yaml.MappingNode {
		return &Problem{Line: offset + v.Line, Field: "metadata", Msg: "must be a mapping of string keys to string values"}
	}
	fm.Metadata = map[string]string{}
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		if val.Kind != yaml.ScalarNode || val.Tag == "!!null" {
			return &Problem{Line: offset + k.Line, Field: "metadata." + k.Value, Msg: "must be a string"}
		}
		fm.Metadata[k.Value] = val.Value
	}
	return nil
}

func check(fm located, folder string, offset int) []Problem {
	var ps []Problem
	at := func(f string) int {
		if l, ok := fm.lines[f]; ok {
			return l
		}
		return offset // a missing field: point at the front matter
	}
	_, hasName := fm.lines["name"]
	_, hasDesc := fm.lines["description"]
	switch n := utf8.RuneCountInString(fm.Name); {
	case !hasName || n == 0:
		ps = append(ps, Problem{Line: at("name"), Field: "name", Msg: "is required (1 to 64 lower-case letters, digits and hyphens)"})
	case n > MaxNameLength:
		ps = append(ps, Problem{Line: at("name"), Field: "name", Msg: fmt.Sprintf("is %d characters long; the limit is %d", n, MaxNameLength)})
	case !nameRE.MatchString(fm.Name):
		ps = append(ps, Problem{Line: at("name"), Field: "name", Msg: fmt.Sprintf("%q must be lower-case letters, digits and hyphens, with no hyphen at the start, at the end or twice in a row", fm.Name)})
	case folder != "" && fm.Name != folder:
		ps = append(ps, Problem{Line: at("name"), Field: "name", Msg: fmt.Sprintf("%q must equal the name of the skill's folder, %q", fm.Name, folder)})
	}
	if n := utf8.RuneCountInString(strings.TrimSpace(fm.Description)); !hasDesc || n == 0 {
		ps = append(ps, Problem{Line: at("description"), Field: "description", Msg: "is required: say what the skill does and when to use it (1 to 1024 characters)"})
	} else if n := utf8.RuneCountInString(fm.Description); n > MaxDescriptionLength {
		ps = append(ps, Problem{Line: at("description"), Field: "description", Msg: fmt.Sprintf("is %d characters long; the limit is %d", n, MaxDescriptionLength)})
	}
	if n := utf8.RuneCountInString(fm.Compatibility); n > MaxCompatibilityLength {
		ps = append(ps, Problem{Line: at("compatibility"), Field: "compatibility", Msg: fmt.Sprintf("is %d characters long; the limit is %d", n, MaxCompatibilityLength)})
	}
	return ps
}
