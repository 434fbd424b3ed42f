// Package skillpkg implements the Agent Skills package format
// (https://agentskills.io/specification): the YAML front matter of a skill's
// SKILL.md, its validation, and a deterministic archive of the skill folder.
// The provider uses it at plan time and the bundled server when a revision is
// uploaded, so both apply the same rules.
package skillpkg

import (
	"bytes"
	"fmt"
	"regexp"
	"sort"
	"strconv"
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

// Limits of this package's own, which the specification leaves open. The
// front matter is parsed into a YAML node tree, which costs far more memory
// than its text (a 5 MB flow sequence held about 1 GB), so its size is
// checked before it is parsed; its metadata is kept by the registry with
// every revision, so it is bounded in entries and bytes too. A front matter
// holds a name, a description of at most 1024 characters and a few tags:
// these leave ample room for that.
const (
	// MaxFrontmatterBytes is the largest front matter, the bytes between the
	// two "---" lines.
	MaxFrontmatterBytes = 16 << 10
	// MaxMetadataEntries is the most metadata keys.
	MaxMetadataEntries = 64
	// MaxMetadataBytes bounds the metadata's keys and values together.
	MaxMetadataBytes = 8 << 10
	// MaxProblems is the most problems one ValidationError lists; it counts
	// the rest, so that an error stays small whatever the input.
	MaxProblems = 20
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

// ValidationError carries the problems of one SKILL.md, sorted by line, so
// that a user fixes them in one pass rather than one per plan: the first
// MaxProblems of them, and the count of the others.
type ValidationError struct {
	Problems []Problem
	// Omitted is how many problems there were beyond Problems.
	Omitted int
}

// Total is the number of problems found, listed or not.
func (e *ValidationError) Total() int { return len(e.Problems) + e.Omitted }

func (e *ValidationError) Error() string {
	lines := make([]string, len(e.Problems), len(e.Problems)+1)
	for i, p := range e.Problems {
		lines[i] = p.String()
	}
	if e.Omitted > 0 {
		lines = append(lines, e.OmittedLine())
	}
	return strings.Join(lines, "\n")
}

// OmittedLine says how many problems are not listed ("" when none).
func (e *ValidationError) OmittedLine() string {
	if e.Omitted == 0 {
		return ""
	}
	return fmt.Sprintf("%s: and %d more problems (only the first %d are listed)", SkillFile, e.Omitted, MaxProblems)
}

// newValidationError sorts problems by line and keeps the first MaxProblems.
func newValidationError(problems []Problem) *ValidationError {
	sort.SliceStable(problems, func(i, j int) bool { return problems[i].Line < problems[j].Line })
	if len(problems) <= MaxProblems {
		return &ValidationError{Problems: problems}
	}
	return &ValidationError{Problems: problems[:MaxProblems], Omitted: len(problems) - MaxProblems}
}

// shown is a key as a message quotes it: at most its first 64 bytes, so that
// a problem's text stays small whatever the key.
func shown(key string) string {
	if len(key) <= 64 {
		return key
	}
	cut := 64
	for cut > 0 && !utf8.RuneStart(key[cut]) {
		cut--
	}
	return key[:cut] + "..."
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
		return nil, newValidationError(problems)
	}
	return &fm.Frontmatter, nil
}

// splitFrontmatter returns the YAML between the opening and closing "---"
// lines, and the number of lines before it (to turn YAML lines into file
// lines). It reads no further than MaxFrontmatterBytes past the opening line
// and copies only the front matter: the rest of SKILL.md may be megabytes.
func splitFrontmatter(content []byte) ([]byte, int, *Problem) {
	if !utf8.Valid(content) {
		return nil, 0, &Problem{Msg: "is not valid UTF-8"}
	}
	content = bytes.TrimPrefix(content, []byte("\ufeff"))
	first, rest, _ := bytes.Cut(content, []byte("\n"))
	if !isFence(first) {
		return nil, 0, &Problem{Line: 1, Msg: `must start with a YAML front matter block: a line "---", the fields, and a closing "---"`}
	}
	for off := 0; off <= MaxFrontmatterBytes; {
		line, _, more := bytes.Cut(rest[off:], []byte("\n"))
		if isFence(line) {
			return bytes.ReplaceAll(rest[:off], []byte("\r\n"), []byte("\n")), 1, nil
		}
		if !more {
			return nil, 0, &Problem{Line: 1, Msg: `the front matter opened on line 1 is never closed by a "---" line`}
		}
		off += len(line) + 1
	}
	return nil, 0, &Problem{Line: 1, Msg: fmt.Sprintf(`the front matter opened on line 1 is not closed by a "---" line within its first %d bytes, the limit (%d KiB); keep the front matter to the fields and put the rest in the body`, MaxFrontmatterBytes, MaxFrontmatterBytes>>10)}
}

// isFence tells a "---" line (trailing blanks and a CR allowed).
func isFence(line []byte) bool {
	return string(bytes.TrimRight(line, " \t\r")) == "---"
}

var yamlLineRE = regexp.MustCompile(`line (\d+)`)

func yamlErrorLine(err error) int {
	if m := yamlLineRE.FindStringSubmatch(err.Error()); m != nil {
		if n, err := strconv.Atoi(m[1]); err == nil {
			return n
		}
	}
	return 0
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
		if _, dup := fm.lines[k.Value]; dup {
			// YAML readers differ on which of two values wins: refuse the
			// ambiguity rather than pick one.
			problems = append(problems, Problem{Line: line, Field: shown(k.Value), Msg: "appears more than once"})
			continue
		}
		fm.lines[k.Value] = line
		problems = append(problems, decodeField(&fm.Frontmatter, k.Value, v, offset)...)
	}
	return fm, problems
}

func decodeField(fm *Frontmatter, key string, v *yaml.Node, offset int) []Problem {
	line := offset + v.Line
	str := func(dst *string) []Problem {
		if v.Kind != yaml.ScalarNode || v.Tag == "!!null" {
			return []Problem{{Line: line, Field: key, Msg: "must be a string"}}
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
	return []Problem{{Line: line, Field: shown(key), Msg: "is not a field of the Agent Skills front matter (name, description, license, compatibility, metadata, allowed-tools)"}}
}

// decodeMetadata reads metadata, a mapping of strings to strings of at most
// MaxMetadataEntries entries and MaxMetadataBytes bytes.
func decodeMetadata(fm *Frontmatter, v *yaml.Node, offset int) []Problem {
	if v.Kind != yaml.MappingNode {
		return []Problem{{Line: offset + v.Line, Field: "metadata", Msg: "must be a mapping of string keys to string values"}}
	}
	var problems []Problem
	if n := len(v.Content) / 2; n > MaxMetadataEntries {
		problems = append(problems, Problem{Line: offset + v.Line, Field: "metadata",
			Msg: fmt.Sprintf("has %d entries; the limit is %d", n, MaxMetadataEntries)})
	}
	fm.Metadata = map[string]string{}
	size := 0
	for i := 0; i+1 < len(v.Content); i += 2 {
		k, val := v.Content[i], v.Content[i+1]
		field := "metadata." + shown(k.Value)
		switch _, dup := fm.Metadata[k.Value]; {
		case k.Kind != yaml.ScalarNode:
			problems = append(problems, Problem{Line: offset + k.Line, Field: "metadata", Msg: "keys must be strings"})
		case dup:
			problems = append(problems, Problem{Line: offset + k.Line, Field: field, Msg: "appears more than once"})
		case val.Kind != yaml.ScalarNode || val.Tag == "!!null":
			problems = append(problems, Problem{Line: offset + k.Line, Field: field, Msg: "must be a string"})
		default:
			fm.Metadata[k.Value] = val.Value
			size += len(k.Value) + len(val.Value)
		}
	}
	if size > MaxMetadataBytes {
		problems = append(problems, Problem{Line: offset + v.Line, Field: "metadata",
			Msg: fmt.Sprintf("holds %d bytes of keys and values; the limit is %d", size, MaxMetadataBytes)})
	}
	return problems
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
