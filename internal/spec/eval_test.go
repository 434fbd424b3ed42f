package spec

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

func TestEmbeddedSchemasUseFastEvaluation(t *testing.T) {
	for _, name := range schemaFiles {
		if !schemas().fast[name] {
			t.Errorf("%s uses a keyword the fast evaluator does not implement", name)
		}
	}
}

var validators = map[string]func([]byte, bool) *Result{
	"card":       agentCard,
	"tools":      toolSpec,
	"properties": agentProperties,
}

// sameResult reports whether the fast evaluation and the library's Validate
// give the same problems for doc.
func sameResult(t *testing.T, name string, doc []byte) {
	t.Helper()
	fn := validators[name]
	fast, lib := fn(doc, false), fn(doc, true)
	if !reflect.DeepEqual(fast.Problems, lib.Problems) || fast.A2AVersion != lib.A2AVersion {
		for _, p := range fast.Problems {
			t.Logf("fast:    %s %s", p.Severity, p)
		}
		for _, p := range lib.Problems {
			t.Logf("library: %s %s", p.Severity, p)
		}
		t.Fatalf("%s: fast evaluation and library validation disagree on %.200q", name, doc)
	}
}

// TestFastEvaluationMatchesLibrary runs every fixture and corpus document of
// each kind through both evaluations.
func TestFastEvaluationMatchesLibrary(t *testing.T) {
	docs := map[string][][]byte{}
	for name := range validators {
		files, _ := filepath.Glob(filepath.Join("testdata", "*", "*.json"))
		for _, f := range files {
			b, _ := os.ReadFile(f)
			docs[name] = append(docs[name], b)
		}
	}
	// The published examples too, when the spec folder is present.
	base := os.Getenv("AGENTREGISTRY_SPEC_DIR")
	if base == "" {
		base = filepath.Join("..", "..", "..", "shared", "spec")
	}
	files, _ := filepath.Glob(filepath.Join(base, "examples", "*", "*.json"))
	more, _ := filepath.Glob(filepath.Join(base, "examples", "*", "*", "*.json"))
	for _, f := range append(files, more...) {
		b, _ := os.ReadFile(f)
		for name := range validators {
			docs[name] = append(docs[name], b)
		}
	}
	docs["card"] = append(docs["card"],
		[]byte(`{"url":"u","protocolVersion":"0.3.0","name":"n","description":"d","version":"1","skills":[],"securitySchemes":{"a":{"type":"apiKey"},"b":{"type":"nope"},"c":{"type":"http","scheme":1},"d":{}}}`),
		[]byte(`{"supportedInterfaces":[{}],"name":"n","description":"d","version":"1","skills":[],"securitySchemes":{"a":{},"b":{"apiKeySecurityScheme":{"location":"header","name":"k"},"mtlsSecurityScheme":{}}},"capabilities":{"extensions":[{"params":[]}]}}`),
	)
	docs["tools"] = append(docs["tools"],
		[]byte(`{"tools":[{"name":"a","inputSchema":{"type":"object"},"icons":[{"src":"not a uri","theme":"dim"}]}],"ttlMs":-1,"cacheScope":"x"}`),
		[]byte(`{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"ttlMs":1.5}`),
		[]byte(`{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"ttlMs":2.0}`),
	)
	for name, list := range docs {
		for _, doc := range list {
			sameResult(t, name, doc)
		}
	}
}

func FuzzFastEvaluationMatchesLibrary(f *testing.F) {
	seed(f, "card", "tools", "properties")
	f.Fuzz(func(t *testing.T, doc []byte) {
		for name := range validators {
			sameResult(t, name, doc)
		}
	})
}
