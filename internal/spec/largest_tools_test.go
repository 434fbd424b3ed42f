package spec

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
)

// LargestTools names at most five tools, largest first, equal sizes in
// document order.
func TestLargestTools(t *testing.T) {
	for _, tc := range []struct {
		tools []ToolSize
		want  string
	}{
		{nil, ""},
		{[]ToolSize{{"a", 10}}, "a (10 bytes)"},
		{[]ToolSize{{"a", 10}, {"b", 30}, {"c", 10}, {"d", 20}}, "b (30 bytes), d (20 bytes), a (10 bytes), c (10 bytes)"},
		{[]ToolSize{{"a", 1}, {"b", 2}, {"c", 3}, {"d", 4}, {"e", 5}, {"f", 6}}, "f (6 bytes), e (5 bytes), d (4 bytes), c (3 bytes), b (2 bytes)"},
	} {
		if got := LargestTools(tc.tools); got != tc.want {
			t.Errorf("LargestTools(%v) = %q, want %q", tc.tools, got, tc.want)
		}
	}
}

// A tool spec over the registry's limit names its largest tools, each with
// its size as compact JSON, as the live data source names them; one without
// tools, and a card, over the limit name none.
func TestSizeError_namesTheLargestTools(t *testing.T) {
	tool := func(name string, n int) map[string]any {
		return map[string]any{"name": name, "description": strings.Repeat("d", n), "inputSchema": map[string]any{"type": "object"}}
	}
	tools := []any{tool("small", 10), tool("big", 9000), tool("medium", 4000), tool("huge", 12000),
		tool("tiny", 1), tool("mid", 3000), map[string]any{"inputSchema": map[string]any{"type": "object"}}}
	doc, _ := json.Marshal(map[string]any{"tools": tools})
	size := func(i int) int { b, _ := json.Marshal(tools[i]); return len(b) }
	want := fmt.Sprintf("; largest tools: huge (%d bytes), big (%d bytes), medium (%d bytes), mid (%d bytes), small (%d bytes)",
		size(3), size(1), size(2), size(5), size(0))
	r := ValidateToolSpec(doc)
	var msgs []string
	for _, p := range r.Problems {
		msgs = append(msgs, p.Message)
	}
	if !strings.Contains(strings.Join(msgs, "\n"), "over the registry's limit of 10240 bytes (10 KB); reduce it by") ||
		!strings.Contains(strings.Join(msgs, "\n"), want) {
		t.Errorf("problems %q\nlack %q", msgs, want)
	}
	if sizes := toolSizes(map[string]any{"tools": []any{map[string]any{"name": json.Number("5")}, "x"}}); sizes[0].Name != "/tools/0" || sizes[1].Name != "/tools/1" {
		t.Errorf("tools without a string name are named %v, want their pointers", sizes)
	}
	empty := []byte(`{"tools":[],"nextCursor":"` + strings.Repeat("c", MaxDocumentBytes) + `"}`)
	if r := ValidateToolSpec(empty); len(r.Problems) != 1 || strings.Contains(r.Problems[0].Message, "largest tools") {
		t.Errorf("a tool spec without tools over the limit: %v", r.Problems)
	}
	card := padTo(t, fixture(t, "card/valid-0.3.json"), "description", MaxDocumentBytes+1)
	if r := ValidateAgentCard(card); len(r.Problems) != 1 || strings.Contains(r.Problems[0].Message, "largest tools") {
		t.Errorf("a card over the limit: %v", r.Problems)
	}
}
