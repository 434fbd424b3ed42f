package tooltext

import (
	"errors"
	"slices"
	"strings"
	"testing"
)

// unchecked finds the unchecked-text finding, or fails.
func unchecked(t *testing.T, fs []Finding) Finding {
	t.Helper()
	u := ofRule(fs, "unchecked-text")
	if len(u) != 1 {
		t.Fatalf("%d unchecked-text findings, want one: %s", len(u), rulesOf(fs))
	}
	return u[0]
}

// A document of MaxDocumentBytes is read; one byte more is refused.
func TestBounds_documentSize(t *testing.T) {
	doc := `{"tools":[]}`
	at := []byte(doc + strings.Repeat(" ", MaxDocumentBytes-len(doc)))
	if _, err := Analyze(at); err != nil {
		t.Errorf("a document of exactly %d bytes: %v", MaxDocumentBytes, err)
	}
	_, err := Analyze(append(at, ' '))
	if !errors.Is(err, ErrNotToolSpec) || !strings.Contains(err.Error(), "4194305 bytes, more than the 4194304") {
		t.Errorf("a document of %d bytes: %v", MaxDocumentBytes+1, err)
	}
}

// MaxStrings strings are read; the next one is an unchecked-text finding
// at that string, naming its tool.
func TestBounds_strings(t *testing.T) {
	// The tool's name is the first string, the enum's entries the others.
	enum := func(n int) string { return withSchema(map[string]any{"enum": slices.Repeat([]any{"x"}, n)}) }
	fs := analyzeTool(t, enum(MaxStrings-1))
	if u := ofRule(fs, "unchecked-text"); len(u) > 0 {
		t.Errorf("%d strings: %s at %s", MaxStrings, u[0].Message, u[0].Pointer)
	}
	u := unchecked(t, analyzeTool(t, enum(MaxStrings)))
	if u.Pointer != "/tools/0/inputSchema/enum/99999" || u.Tool != "t" || u.Severity != High ||
		u.Message != "Text beyond what the check reads: the document has more than 100000 strings; the text past this point was not read" {
		t.Errorf("%d strings: %+v", MaxStrings+1, u)
	}
}

// MaxTools tools are read; with one more, an unchecked-text finding at the
// first tool not read, naming no tool (the document is what is too long).
func TestBounds_tools(t *testing.T) {
	tools := func(n int) []byte {
		return []byte(`{"tools":[` + strings.TrimSuffix(strings.Repeat(`{"name":"a"},`, n), ",") + `]}`)
	}
	fs, err := Analyze(tools(MaxTools))
	if err != nil || len(ofRule(fs, "unchecked-text")) > 0 {
		t.Errorf("%d tools: %v %s", MaxTools, err, rulesOf(fs))
	}
	fs, err = Analyze(tools(MaxTools + 1))
	if err != nil {
		t.Fatal(err)
	}
	if u := unchecked(t, fs); u.Pointer != "/tools/10000" || u.Tool != "" {
		t.Errorf("%d tools: %+v", MaxTools+1, u)
	}
}

// A schema is read to MaxSchemaDepth levels of nesting, however it nests
// (items, properties, allOf), and so is a value (default, enum...); a level
// more is an unchecked-text finding at the first place not read.
func TestBounds_depth(t *testing.T) {
	nest := func(opening, closing string, n int) string {
		return strings.Repeat(opening, n) + "{}" + strings.Repeat(closing, n)
	}
	for _, c := range []struct {
		name, schema, pointer, why string
	}{
		{"items", nest(`{"items":`, `}`, MaxSchemaDepth), "", ""},
		{"items", nest(`{"items":`, `}`, MaxSchemaDepth+1), strings.Repeat("/items", MaxSchemaDepth+1), "a schema nested more than 64 levels"},
		{"properties", nest(`{"properties":{"p":`, `}}`, MaxSchemaDepth), "", ""},
		{"properties", nest(`{"properties":{"p":`, `}}`, MaxSchemaDepth+1), strings.Repeat("/properties/p", MaxSchemaDepth+1), "a schema nested more than 64 levels"},
		{"allOf", nest(`{"allOf":[`, `]}`, MaxSchemaDepth/2), "", ""},
		{"allOf", nest(`{"allOf":[`, `]}`, MaxSchemaDepth/2+1), strings.Repeat("/allOf/0", MaxSchemaDepth/2) + "/allOf", "a schema nested more than 64 levels"},
		{"default", `{"default":` + strings.Repeat("[", MaxSchemaDepth) + strings.Repeat("]", MaxSchemaDepth) + `}`, "", ""},
		{"default", `{"default":` + strings.Repeat("[", MaxSchemaDepth+1) + strings.Repeat("]", MaxSchemaDepth+1) + `}`, "/default" + strings.Repeat("/0", MaxSchemaDepth), "a value nested more than 64 levels"},
		{"default object", `{"default":` + nest(`{"k":`, `}`, MaxSchemaDepth) + `}`, "/default" + strings.Repeat("/k", MaxSchemaDepth), "a value nested more than 64 levels"},
	} {
		fs := analyzeTool(t, `{"name":"t","inputSchema":`+c.schema+`}`)
		u := ofRule(fs, "unchecked-text")
		switch {
		case c.pointer == "" && len(u) > 0:
			t.Errorf("%s within the bound: %s at %s", c.name, u[0].Message, u[0].Pointer)
		case c.pointer == "":
		case len(u) != 1:
			t.Errorf("%s past the bound: no unchecked-text: %s", c.name, rulesOf(fs))
		case u[0].Pointer != "/tools/0/inputSchema"+c.pointer || !strings.HasPrefix(u[0].Message, "Text beyond what the check reads: "+c.why):
			t.Errorf("%s past the bound: %s at %s", c.name, u[0].Message, u[0].Pointer)
		}
	}
}
