package tooltext

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
)

// projectDocuments are the real tool specs the project already judges: its
// own valid fixture and the shared spec corpus (../shared/spec beside the
// clone, or AGENTREGISTRY_SPEC_DIR): GitHub's 117 tools (209 KB) and the MCP
// specification's examples, each tool example wrapped as {"tools":[tool]}.
func projectDocuments(t *testing.T) map[string][]byte {
	t.Helper()
	docs := map[string][]byte{}
	own, err := os.ReadFile(filepath.Join("..", "spec", "testdata", "tools", "valid.json"))
	if err != nil {
		t.Fatal(err)
	}
	docs["internal/spec/testdata/tools/valid.json"] = own
	dir := os.Getenv("AGENTREGISTRY_SPEC_DIR")
	if dir == "" {
		dir = filepath.Join("..", "..", "..", "shared", "spec")
	}
	mcp := filepath.Join(dir, "examples", "mcp")
	if _, err := os.Stat(mcp); err != nil {
		t.Skipf("spec corpus not found at %s (set AGENTREGISTRY_SPEC_DIR): %v", mcp, err)
	}
	paths, _ := filepath.Glob(filepath.Join(mcp, "*.json"))
	more, _ := filepath.Glob(filepath.Join(mcp, "official-2026-07-28", "*.json"))
	for _, p := range append(paths, more...) {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		base := filepath.Base(p)
		switch {
		case len(base) > 6 && base[:6] == "Tool__":
			b = append(append([]byte(`{"tools":[`), b...), "]}"...)
		case len(base) > 17 && base[:17] == "ListToolsResultRe":
			var env struct{ Result json.RawMessage }
			if err := json.Unmarshal(b, &env); err != nil {
				t.Fatal(err)
			}
			b = env.Result
		}
		docs[base] = b
	}
	return docs
}

// No high finding on any real document the project already holds; their
// pointers resolve.
func TestProjectDocuments_noHighFinding(t *testing.T) {
	docs := projectDocuments(t)
	tools := 0
	for name, doc := range docs {
		fs, err := Analyze(doc)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var v struct{ Tools []any }
		_ = json.Unmarshal(doc, &v)
		tools += len(v.Tools)
		checkPointers(t, name, doc, fs)
		for _, f := range fs {
			if f.Severity == High {
				t.Errorf("%s: high finding %s at %s: %s", name, f.Rule, f.Pointer, f.Message)
			}
			t.Logf("%s: %s %s %s: %s", name, f.Severity, f.Rule, f.Pointer, f.Message)
		}
	}
	t.Logf("%d documents, %d tools", len(docs), tools)
}
