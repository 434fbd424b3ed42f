package spec

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// seed adds every fixture of a testdata folder to the fuzz corpus.
func seed(f *testing.F, dirs ...string) {
	for _, dir := range dirs {
		files, _ := filepath.Glob(filepath.Join("testdata", dir, "*.json"))
		for _, file := range files {
			b, err := os.ReadFile(file)
			if err != nil {
				f.Fatal(err)
			}
			f.Add(b)
		}
	}
	f.Add([]byte(``))
	f.Add([]byte(`{"a":`))
	f.Add([]byte(`[{"~0/~1":{"":[]}}]`))
}

// checkInvariants holds for every Result: sorted problems, located within the
// text, non-empty messages, and a compact form that is the normal form.
func checkInvariants(t *testing.T, doc []byte, r *Result) {
	t.Helper()
	for i, p := range r.Problems {
		if p.Message == "" || (p.Severity != SeverityError && p.Severity != SeverityWarning) {
			t.Fatalf("bad problem %#v", p)
		}
		if p.Line < 0 || p.Column < 0 || p.Line > bytes.Count(doc, []byte("\n"))+1 {
			t.Fatalf("position out of range: %s", p)
		}
		if p.Pointer != "" && !strings.HasPrefix(p.Pointer, "/") {
			t.Fatalf("bad pointer %q", p.Pointer)
		}
		if i > 0 {
			q := r.Problems[i-1]
			if q.Line > p.Line || (q.Line == p.Line && q.Column > p.Column) ||
				(q.Line == p.Line && q.Column == p.Column && q.Pointer > p.Pointer) {
				t.Fatalf("problems not sorted: %s before %s", q, p)
			}
		}
		_ = p.String()
	}
	if r.Compact != nil {
		n, err := Normalize(doc)
		if err != nil || !bytes.Equal(n, r.Compact) {
			t.Fatalf("compact form differs from Normalize: %v", err)
		}
	}
	if r.Valid() != (len(r.Errors()) == 0) {
		t.Fatal("Valid inconsistent with Errors")
	}
}

func FuzzValidateAgentCard(f *testing.F) {
	seed(f, "card", "card/real", "properties")
	f.Fuzz(func(t *testing.T, doc []byte) {
		r := validateAgentCard(doc)
		checkInvariants(t, doc, r)
		if r.Valid() && r.A2AVersion == "" {
			t.Fatal("valid card without a detected version")
		}
		if r.Valid() {
			if _, err := ParseAgentCard(doc); err != nil {
				t.Fatalf("valid card does not parse: %v", err)
			}
			props, err := AgentPropertiesFromCard(doc, "fw", "uri")
			if err != nil {
				t.Fatalf("AgentPropertiesFromCard: %v", err)
			}
			if pr := validateAgentProperties(props); !pr.Valid() {
				t.Fatalf("derived properties invalid: %v\n%s", pr.Problems, props)
			}
		}
	})
}

func FuzzValidateToolSpec(f *testing.F) {
	seed(f, "tools")
	f.Fuzz(func(t *testing.T, doc []byte) {
		r := validateToolSpec(doc)
		checkInvariants(t, doc, r)
		if r.Valid() {
			if _, err := ParseToolSpec(doc); err != nil {
				t.Fatalf("valid tool spec does not parse: %v", err)
			}
		}
	})
}

func FuzzValidateAgentProperties(f *testing.F) {
	seed(f, "properties", "card")
	f.Fuzz(func(t *testing.T, doc []byte) {
		checkInvariants(t, doc, validateAgentProperties(doc))
	})
}

func FuzzNormalize(f *testing.F) {
	seed(f, "card", "tools", "properties")
	f.Fuzz(func(t *testing.T, doc []byte) {
		n, err := Normalize(doc)
		if err != nil {
			if n != nil {
				t.Fatal("output with an error")
			}
			return
		}
		again, err := Normalize(n)
		if err != nil {
			t.Fatalf("normal form %q does not parse: %v", n, err)
		}
		if !bytes.Equal(again, n) {
			t.Fatalf("not idempotent: %q -> %q", n, again)
		}
		if len(n) > len(doc)+len(doc)*5 {
			t.Fatalf("normal form grew too much: %d -> %d", len(doc), len(n))
		}
	})
}
