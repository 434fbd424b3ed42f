package spec

import (
	"bytes"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
)

// finding is a Problem before it is located in the text.
type finding struct {
	sev Severity
	ptr string
	// key locates the member name that introduces ptr rather than its value
	// (used for unknown properties and duplicate keys).
	key bool
	msg string
}

// check accumulates the findings on one decoded document.
type check struct {
	kind Kind
	doc  []byte
	// value is the document as jsoncanon.Decode reads it.
	value    any
	findings []finding
}

func (c *check) add(sev Severity, ptr string, key bool, format string, args ...any) {
	c.findings = append(c.findings, finding{sev: sev, ptr: ptr, key: key, msg: fmt.Sprintf(format, args...)})
}

// begin decodes doc. It returns nil and a finished Result when the document
// is not one JSON value or breaks a rule of jsoncanon (duplicate keys,
// invalid Unicode, a number beyond the double range): there is then nothing
// to validate, and nothing the tool lock or the canonical form could read.
func begin(kind Kind, doc []byte) (*check, *Result) {
	v, err := jsoncanon.Decode(doc)
	if err == nil {
		return &check{kind: kind, doc: doc, value: v}, nil
	}
	var je *jsoncanon.Error
	if !errors.As(err, &je) {
		je = &jsoncanon.Error{Msg: err.Error()} // not reached: Decode's errors are all *jsoncanon.Error
	}
	p := Problem{Severity: SeverityError, Pointer: je.Pointer, Message: "invalid JSON: " + je.Msg}
	if errors.Is(je, jsoncanon.ErrDuplicateKey) || errors.Is(je, jsoncanon.ErrNumber) {
		p.Message = je.Msg // valid JSON, which I-JSON refuses
	}
	p.Line, p.Column = lineCol(doc, lineStarts(doc), je.Offset)
	ps := []Problem{p}
	dropSingleLinePositions(doc, ps)
	return nil, &Result{Kind: kind, Problems: ps}
}

// finish normalises the document, applies the size limit, locates and sorts
// the findings.
func (c *check) finish(a2aVersion string) *Result {
	compact := jsoncanon.AppendCompact(make([]byte, 0, len(c.doc)), c.value)
	if len(compact) > MaxDocumentBytes {
		largest := ""
		if c.kind == KindToolSpec {
			if tools := toolSizes(c.value); len(tools) > 0 {
				largest = "; largest tools: " + LargestTools(tools)
			}
		}
		c.add(SeverityError, "", false,
			"the %s is %d bytes as compact JSON, over the registry's limit of %d bytes (10 KB); reduce it by %d bytes%s",
			c.kind, len(compact), MaxDocumentBytes, len(compact)-MaxDocumentBytes, largest)
	}
	r := &Result{Kind: c.kind, A2AVersion: a2aVersion, Compact: compact}
	if len(c.findings) == 0 {
		return r
	}
	r.Problems = c.locate()
	sortProblems(r.Problems)
	r.Problems = slices.Compact(r.Problems)
	return r
}

// locate turns the findings into problems at their line and column.
func (c *check) locate() []Problem {
	targets := make([]target, 0, 2*len(c.findings))
	for _, f := range c.findings {
		targets = append(targets, target{f.ptr, false})
		if f.key {
			targets = append(targets, target{f.ptr, true})
		}
	}
	offsets := locate(c.doc, targets)
	starts := lineStarts(c.doc)
	out := make([]Problem, 0, len(c.findings))
	for _, f := range c.findings {
		off, found := offsets[target{f.ptr, f.key}]
		if !found {
			off, found = offsets[target{f.ptr, false}]
		}
		p := Problem{Severity: f.sev, Pointer: f.ptr, Message: f.msg}
		if found {
			p.Line, p.Column = lineCol(c.doc, starts, off)
		}
		out = append(out, p)
	}
	dropSingleLinePositions(c.doc, out)
	for i := range out {
		if out[i].Line == 0 {
			out[i].Excerpt = excerpt(c.value, out[i].Pointer)
		}
	}
	return out
}

// dropSingleLinePositions leaves out the line and column of the problems of
// a document written on one line (as jsonencode writes it): "line 1, column
// 873" helps nobody there, and the JSON pointer and an excerpt of the
// document (see excerpt) lead instead. A syntax
// error has no pointer, so it keeps its column.
func dropSingleLinePositions(doc []byte, ps []Problem) {
	if bytes.IndexByte(bytes.TrimSpace(doc), '\n') >= 0 {
		return
	}
	for i := range ps {
		if ps[i].Pointer != "" || !strings.HasPrefix(ps[i].Message, "invalid JSON") {
			ps[i].Line, ps[i].Column = 0, 0
		}
	}
}

func sortProblems(ps []Problem) {
	slices.SortStableFunc(ps, func(a, b Problem) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		if a.Column != b.Column {
			return a.Column - b.Column
		}
		if c := strings.Compare(a.Pointer, b.Pointer); c != 0 {
			return c
		}
		if a.Severity != b.Severity {
			if a.Severity == SeverityError {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Message, b.Message)
	})
}

// unique reports every element of the array at listPtr whose string member
// field repeats an earlier element's, naming both positions: the registry
// and the modules that key maps by it need it unique.
func (c *check) unique(listPtr, field, what, scope string) {
	list, _ := lookup(c.value, listPtr)
	items, _ := list.([]any)
	first := map[string]int{}
	for i, it := range items {
		m, _ := it.(map[string]any)
		v, ok := m[field].(string)
		if !ok {
			continue
		}
		if j, seen := first[v]; seen {
			c.add(SeverityError, fmt.Sprintf("%s/%d/%s", listPtr, i, field), false,
				"duplicate %s %q: %s/%d/%s has it already; %ss must be unique within %s", what, v, listPtr, j, field, what, scope)
			continue
		}
		first[v] = i
	}
}
