package spec

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// TestCardVersionUndetected: besides saying that the version cannot be
// detected, the error lists what each version would still need.
func TestCardVersionUndetected(t *testing.T) {
	for _, tc := range []struct{ doc, missing03, missing10 string }{
		{`{}`, "name, description, version, skills, url, protocolVersion", "name, description, version, skills, supportedInterfaces"},
		{`{"name":"n","skills":[]}`, "description, version, url, protocolVersion", "description, version, supportedInterfaces"},
	} {
		checkResult(t, []byte(tc.doc), ValidateAgentCard([]byte(tc.doc)), "", []want{
			e("", 0, 0, "", "cannot detect the A2A version: expected supportedInterfaces (A2A 1.0) or top-level url and protocolVersion (A2A 0.3), found none of them; "+
				"missing for A2A 0.3: "+tc.missing03+"; missing for A2A 1.0: "+tc.missing10),
		})
	}
}

// TestOneLineDocument: a document written on one line (jsonencode) gets
// problems led by the JSON pointer, without "line 1, column 873"; the same
// document indented keeps line and column.
func TestOneLineDocument(t *testing.T) {
	var card map[string]any
	if err := json.Unmarshal(fixture(t, "card/valid-1.0.json"), &card); err != nil {
		t.Fatal(err)
	}
	card["version"] = 3
	oneLine, _ := json.Marshal(card)
	indented, _ := json.MarshalIndent(card, "", "  ")
	for _, tc := range []struct {
		doc  []byte
		want string
	}{
		{oneLine, "/version: expected string, found number 3"},
		{append(oneLine, '\n'), "/version: expected string, found number 3"}, // file() of a one-line file
		{indented, "line 56, column 14: /version: expected string, found number 3"},
	} {
		r := ValidateAgentCard(tc.doc)
		if len(r.Problems) != 1 || r.Problems[0].String() != tc.want {
			t.Errorf("got %v, want [%s]", r.Problems, tc.want)
		}
	}
}

// TestSizeBoundary: the limit is 10,240 bytes of compact JSON, inclusive,
// for each kind of document (the text itself is indented and longer).
func TestSizeBoundary(t *testing.T) {
	for _, tc := range []struct {
		fixture, field string
		validate       func([]byte) *Result
	}{
		{"card/valid-0.3.json", "description", ValidateAgentCard},
		{"tools/valid.json", "nextCursor", ValidateToolSpec},
		{"properties/valid.json", "description", ValidateAgentProperties},
	} {
		at := padTo(t, fixture(t, tc.fixture), tc.field, MaxDocumentBytes)
		if r := tc.validate(at); len(r.Problems) != 0 || len(r.Compact) != MaxDocumentBytes {
			t.Errorf("%s at %d compact bytes: %v", tc.fixture, len(r.Compact), r.Problems)
		}
		over := padTo(t, fixture(t, tc.fixture), tc.field, MaxDocumentBytes+1)
		r := tc.validate(over)
		if len(r.Problems) != 1 || !strings.Contains(r.Problems[0].Message, "is 10241 bytes as compact JSON, over the registry's limit of 10240 bytes (10 KB); reduce it by 1 bytes") {
			t.Errorf("%s at 10241 compact bytes: %v", tc.fixture, r.Problems)
		}
	}
}

// padTo lengthens the string member field of doc so that its compact form
// is exactly size bytes, and returns it indented.
func padTo(t *testing.T, doc []byte, field string, size int) []byte {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal(doc, &m); err != nil {
		t.Fatal(err)
	}
	compact, err := Normalize(doc)
	if err != nil {
		t.Fatal(err)
	}
	m[field] = as[string](t, m[field]) + strings.Repeat("x", size-len(compact))
	out, _ := json.MarshalIndent(m, "", "  ")
	if n, _ := Normalize(out); len(n) != size || len(out) <= size {
		t.Fatalf("padded %s to %d compact bytes (%d of text), want %d", field, len(n), len(out), size)
	}
	return out
}

// TestSkillRequiredFields removes each required field of a skill of each
// card version: exactly one error naming it. It checks the embedded schemas'
// required lists by their effect (removing "description" from the 0.3
// AgentSkill's fails it). AgentProperties' schema requires none of them.
func TestSkillRequiredFields(t *testing.T) {
	for _, tc := range []struct {
		fixture, version string
		validate         func([]byte) *Result
	}{
		{"card/valid-0.3.json", "0.3", ValidateAgentCard},
		{"card/valid-1.0.json", "1.0", ValidateAgentCard},
	} {
		for _, field := range []string{"id", "name", "description", "tags"} {
			t.Run(tc.fixture+"/"+field, func(t *testing.T) {
				var doc map[string]any
				if err := json.Unmarshal(fixture(t, tc.fixture), &doc); err != nil {
					t.Fatal(err)
				}
				delete(as[map[string]any](t, as[[]any](t, doc["skills"])[0]), field)
				b, _ := json.Marshal(doc)
				checkResult(t, b, tc.validate(b), tc.version, []want{
					e("/skills/0", 0, 0, "", fmt.Sprintf("missing required property %q", field)),
				})
			})
		}
	}
}

func TestAgentPropertiesSkillFieldsOptional(t *testing.T) {
	doc := []byte(`{"displayName":"d","skills":[{}]}`)
	if r := ValidateAgentProperties(doc); len(r.Problems) != 0 {
		t.Errorf("got %v", r.Problems)
	}
}
