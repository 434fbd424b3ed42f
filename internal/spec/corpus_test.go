package spec

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit/speccorpus"
)

// specDir returns the spec corpus's folder (official schemas and published
// examples), or skips the test, saying where it looked and how to get it,
// when it is absent, as on a user's clone (speccorpus.Require).
func specDir(t testing.TB) string {
	t.Helper()
	return speccorpus.Require(t)
}

func readCorpus(t *testing.T, rel string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(specDir(t), "examples", rel))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func logProblems(t *testing.T, r *Result) {
	t.Helper()
	for _, p := range r.Problems {
		t.Logf("%s %s", p.Severity, p)
	}
}

// hasProblem reports whether r has a problem of sev at ptr whose message
// contains all of words.
func hasProblem(r *Result, sev Severity, ptr string, words ...string) bool {
	for _, p := range r.Problems {
		if p.Severity != sev || p.Pointer != ptr {
			continue
		}
		ok := true
		for _, w := range words {
			if !strings.Contains(p.Message, w) {
				ok = false
			}
		}
		if ok {
			return true
		}
	}
	return false
}

// TestCorpus checks the expected outcome of each published example, as the
// README of the spec folder lists it.
func TestCorpus(t *testing.T) {
	specDir(t)

	t.Run("a2a/a2a-spec-v0.3.0_sample_agent_card.json", func(t *testing.T) {
		r := ValidateAgentCard(readCorpus(t, "a2a/a2a-spec-v0.3.0_sample_agent_card.json"))
		logProblems(t, r)
		if !r.Valid() || r.A2AVersion != "0.3" {
			t.Fatalf("want valid 0.3, got valid=%v version=%q", r.Valid(), r.A2AVersion)
		}
		if len(r.Warnings()) != 1 || !hasProblem(r, SeverityWarning, "/protocolVersion", `"0.2.9"`, "0.3 and 1.0") {
			t.Fatalf("want exactly one protocolVersion 0.2.9 warning, got %v", r.Warnings())
		}
		if w := r.Warnings()[0]; w.Line != 2 || w.Column != 22 {
			t.Errorf("warning at line %d column %d, want 2:22", w.Line, w.Column)
		}
	})

	t.Run("a2a/a2a-spec-v1.0.1_sample_agent_card.json", func(t *testing.T) {
		r := ValidateAgentCard(readCorpus(t, "a2a/a2a-spec-v1.0.1_sample_agent_card.json"))
		logProblems(t, r)
		if !r.Valid() || r.A2AVersion != "1.0" {
			t.Fatalf("want valid 1.0, got valid=%v version=%q", r.Valid(), r.A2AVersion)
		}
		if len(r.Warnings()) != 1 || !hasProblem(r, SeverityWarning, "/security", `unknown field "security"`) {
			t.Fatalf("want exactly one unknown-field warning for security, got %v", r.Warnings())
		}
	})

	for _, tc := range []struct{ file, version string }{
		{"a2a/a2a-samples_adk_currency_agent_card.json", "0.3"},
		{"a2a/a2a-samples_adk_skills_agent_card.json", "1.0"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			r := ValidateAgentCard(readCorpus(t, tc.file))
			logProblems(t, r)
			if len(r.Problems) != 0 || r.A2AVersion != tc.version {
				t.Fatalf("want valid %s without warnings, got %d problems, version %q", tc.version, len(r.Problems), r.A2AVersion)
			}
		})
	}

	t.Run("a2a/a2a-samples_a2a_mcp_air_ticketing_agent.json", func(t *testing.T) {
		r := ValidateAgentCard(readCorpus(t, "a2a/a2a-samples_a2a_mcp_air_ticketing_agent.json"))
		logProblems(t, r)
		if r.Valid() {
			t.Fatal("want invalid")
		}
		if len(r.Errors()) != 1 || !hasProblem(r, SeverityError, "", `missing required property "protocolVersion"`) {
			t.Fatalf("want exactly the missing protocolVersion error, got %v", r.Errors())
		}
	})

	t.Run("mcp/github-mcp-server_tools-list_assembled.json", func(t *testing.T) {
		doc := readCorpus(t, "mcp/github-mcp-server_tools-list_assembled.json")
		r := ValidateToolSpec(doc)
		if r.Valid() {
			t.Fatal("want rejected for size")
		}
		errs := r.Errors()
		if len(errs) != 1 || !hasProblem(r, SeverityError, "", "bytes as compact JSON", "10240") {
			logProblems(t, r)
			t.Fatalf("want only the size error (schema-valid), got %d errors", len(errs))
		}
		if len(r.Compact) < 100_000 || len(r.Compact) >= len(doc) {
			t.Errorf("compact form is %d bytes (text %d), expected over 100 KB and smaller than the text", len(r.Compact), len(doc))
		}
		tools, err := ParseToolSpec(doc)
		if err != nil || len(tools) != 117 {
			t.Fatalf("ParseToolSpec: %d tools, %v; want 117", len(tools), err)
		}
	})

	dir := filepath.Join(specDir(t), "examples", "mcp", "official-2026-07-28")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) == 0 {
		t.Fatalf("no official MCP examples in %s: %v", dir, err)
	}
	for _, f := range files {
		base := filepath.Base(f)
		t.Run("mcp/official-2026-07-28/"+base, func(t *testing.T) {
			raw, err := os.ReadFile(f)
			if err != nil {
				t.Fatal(err)
			}
			var doc []byte
			switch {
			case strings.HasPrefix(base, "Tool__"):
				doc = []byte(`{"tools":[` + string(raw) + `]}`)
			case strings.HasPrefix(base, "ListToolsResultResponse__"):
				var env struct {
					Result json.RawMessage `json:"result"`
				}
				if err := json.Unmarshal(raw, &env); err != nil || env.Result == nil {
					t.Fatalf("no result in JSON-RPC envelope: %v", err)
				}
				doc = env.Result
			case strings.HasPrefix(base, "ListToolsResult__"):
				doc = raw
			default:
				t.Fatalf("unexpected corpus file %s", base)
			}
			r := ValidateToolSpec(doc)
			logProblems(t, r)
			if len(r.Problems) != 0 {
				t.Fatalf("want valid without warnings")
			}
		})
	}
}
