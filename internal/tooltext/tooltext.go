// Package tooltext judges what an MCP tool asks of the model that reads it:
// a deterministic, offline analysis of every string a model reads in a tool
// spec (the name, title and description, the annotations, and every string of
// inputSchema and outputSchema, property names, defaults, enums, examples and
// keyword values included), against rules kept as data (rules.go): each has a
// stable id, a family, a severity, a rationale and a source, and the rule
// index page of the documentation lists them with an example each.
//
// Precision comes first: a rule that raises a high finding on a real, benign
// server is a bug (testdata/corpus holds the published poisoned tool lists
// and the real benign ones the rules are measured against). The analysis
// reads each string once, in time linear in its length (no regular
// expression; the phrase matcher is a word-indexed table), imports no
// networking, and is bounded: a document nested or filled beyond what a tool
// spec needs is a high finding (the check fails closed), never a long wait.
//
// Findings are computed, never stored: the approved-tools lock
// (internal/toollock) stays the record of what a person approved.
package tooltext

import (
	"errors"
	"fmt"
	"sort"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
)

// Severity is how sure a rule is that a finding is an attack: high findings
// fail a plan under tool_policy = "enforce".
type Severity int

// The severities, from the least to the most sure.
const (
	Low Severity = iota + 1
	Medium
	High
)

func (s Severity) String() string {
	switch s {
	case Low:
		return "low"
	case Medium:
		return "medium"
	case High:
		return "high"
	}
	return fmt.Sprintf("severity(%d)", int(s))
}

// Finding is one rule that fired on one place of a tool spec.
type Finding struct {
	// Tool is the name of the tool the text belongs to, escaped for a
	// terminal (termsafe.Escape); "" for a tool without a string name.
	Tool string
	// Pointer is the RFC 6901 pointer, into the document analysed, of the
	// value that fired the rule: a string, or the member a property name
	// names.
	Pointer string
	// Rule is the rule's stable id (Rules).
	Rule     string
	Severity Severity
	// Message says what was found, the text quoted with every hidden
	// character escaped (\u200b), never raw.
	Message string
}

// Bounds of what one analysis reads, so that a document given to the
// function (which may be far larger than the registry's 10 KB) costs little
// whatever it holds. Past a bound the analysis stops and reports
// unchecked-text: a high finding, so that enforce fails closed.
const (
	// MaxDocumentBytes is the largest document analysed at all; a larger one
	// is an error.
	MaxDocumentBytes = 4 << 20
	// MaxSchemaDepth bounds the nesting walked in a schema.
	MaxSchemaDepth = 64
	// MaxStrings bounds the strings read in one document.
	MaxStrings = 100_000
	// MaxTools bounds the tools read in one document.
	MaxTools = 10_000
)

// ErrNotToolSpec is returned for a document that is not a tool spec at all.
var ErrNotToolSpec = errors.New("not an MCP tool spec")

// Analyze reads a tool spec (a tools/list result, {"tools": [...]}) and
// returns its findings, sorted by tool, pointer and rule. A document that is
// not JSON under the project's rules (jsoncanon.Decode), is larger than
// MaxDocumentBytes or has no "tools" array is an error: nothing can be said
// of it, and a caller that gates on findings must fail closed.
func Analyze(doc []byte) ([]Finding, error) {
	tools, err := decodeTools(doc)
	if err != nil {
		return nil, err
	}
	return analyzeTools(tools), nil
}

// decodeTools reads the document's tools array.
func decodeTools(doc []byte) ([]any, error) {
	if len(doc) > MaxDocumentBytes {
		return nil, fmt.Errorf("%w: the document is %d bytes, more than the %d this check reads", ErrNotToolSpec, len(doc), MaxDocumentBytes)
	}
	v, err := jsoncanon.Decode(doc)
	if err != nil {
		return nil, err
	}
	root, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("%w: expected a JSON object with a \"tools\" array", ErrNotToolSpec)
	}
	tools, ok := root["tools"].([]any)
	if !ok {
		return nil, fmt.Errorf("%w: expected a \"tools\" array", ErrNotToolSpec)
	}
	return tools, nil
}

func analyzeTools(tools []any) []Finding {
	a := newAnalysis(tools)
	a.run()
	sortFindings(a.findings)
	return a.findings
}

func sortFindings(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		if fs[i].Pointer != fs[j].Pointer {
			return lessPointer(fs[i].Pointer, fs[j].Pointer)
		}
		return fs[i].Rule < fs[j].Rule
	})
}

// lessPointer orders pointers by their tokens, numbers as numbers, so that
// /tools/2 comes before /tools/10.
func lessPointer(a, b string) bool {
	ta, tb := jsoncanon.SplitPointer(a), jsoncanon.SplitPointer(b)
	for i := 0; i < len(ta) && i < len(tb); i++ {
		if ta[i] == tb[i] {
			continue
		}
		na, errA := atoi(ta[i])
		nb, errB := atoi(tb[i])
		if errA == nil && errB == nil {
			return na < nb
		}
		return ta[i] < tb[i]
	}
	return len(ta) < len(tb)
}

func atoi(s string) (int, error) {
	if s == "" || len(s) > 9 {
		return 0, errors.New("not an index")
	}
	n := 0
	for _, c := range s {
		if c < '0' || c > '9' {
			return 0, errors.New("not an index")
		}
		n = n*10 + int(c-'0')
	}
	return n, nil
}
