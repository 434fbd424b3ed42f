package tooltext

import (
	"encoding/json"
	"strconv"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
)

// resolvePointer follows an RFC 6901 pointer in a value decoded by
// encoding/json, independently of the package's own walk.
func resolvePointer(v any, pointer string) (any, bool) {
	for _, tok := range jsoncanon.SplitPointer(pointer) {
		switch x := v.(type) {
		case map[string]any:
			next, ok := x[tok]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(x) || strconv.Itoa(i) != tok {
				return nil, false
			}
			v = x[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// described is a tool named t whose description is desc, as JSON (desc
// escaped as JSON needs, hidden characters included).
func described(desc string) string {
	b, err := json.Marshal(map[string]any{"name": "t", "description": desc, "inputSchema": map[string]any{"type": "object"}})
	if err != nil {
		panic(err)
	}
	return string(b)
}

// withSchema is a tool named t whose inputSchema is schema, a Go value
// marshalled as JSON.
func withSchema(schema any) string {
	b, err := json.Marshal(map[string]any{"name": "t", "inputSchema": schema})
	if err != nil {
		panic(err)
	}
	return string(b)
}

// ofRule is the findings of one rule.
func ofRule(fs []Finding, rule string) []Finding {
	var out []Finding
	for _, f := range fs {
		if f.Rule == rule {
			out = append(out, f)
		}
	}
	return out
}

// fires reports whether rule fired on a tool.
func fires(t *testing.T, tool, rule string) bool {
	t.Helper()
	return len(ofRule(analyzeTool(t, tool), rule)) > 0
}

// message is the one message rule gave on a tool; the test fails when the
// rule fired other than once.
func message(t *testing.T, tool, rule string) string {
	t.Helper()
	fs := ofRule(analyzeTool(t, tool), rule)
	if len(fs) != 1 {
		t.Fatalf("%s fired %d times on %s; findings: %s", rule, len(fs), tool, rulesOf(analyzeTool(t, tool)))
	}
	return fs[0].Message
}

// checkDescriptions checks, for each description, whether rule fires on a
// tool that has it.
func checkDescriptions(t *testing.T, rule string, want map[string]bool) {
	t.Helper()
	for text, fire := range want {
		if got := fires(t, described(text), rule); got != fire {
			t.Errorf("%.80q: %s fired %v, want %v", text, rule, got, fire)
		}
	}
}
