package spec

import (
	"os"
	"path/filepath"
	"testing"
)

// The benchmarks call the uncached validators (the cold path: parse,
// validate, normalise); the Cached variants measure a re-validation of an
// unchanged document.

func benchValidate(b *testing.B, doc []byte, fn func([]byte) *Result) {
	b.Helper()
	if r := fn(doc); !r.Valid() {
		b.Fatalf("benchmark document invalid: %v", r.Problems)
	}
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	b.ResetTimer()
	for b.Loop() {
		fn(doc)
	}
}

func BenchmarkValidateAgentCard2KB(b *testing.B) {
	benchValidate(b, bigCard(2*1024), validateAgentCard)
}

func BenchmarkValidateAgentCard10KB(b *testing.B) {
	benchValidate(b, bigCard(MaxDocumentBytes), validateAgentCard)
}

func BenchmarkValidateAgentCard10KBCached(b *testing.B) {
	benchValidate(b, bigCard(MaxDocumentBytes), ValidateAgentCard)
}

// The fixtures of scripts/bench (the provider benchmark's cards, as a user
// writes them: indented, 0.3) are the figures the validation budgets refer to.

func benchFixture(b *testing.B, name string) []byte {
	b.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "scripts", "bench", name))
	if err != nil {
		b.Fatal(err)
	}
	return doc
}

func BenchmarkBenchCard2KB(b *testing.B) {
	benchValidate(b, benchFixture(b, "card-2k.json"), validateAgentCard)
}

func BenchmarkBenchCard10KB(b *testing.B) {
	benchValidate(b, benchFixture(b, "card-10k.json"), validateAgentCard)
}

func BenchmarkBenchCard10KBCached(b *testing.B) {
	benchValidate(b, benchFixture(b, "card-10k.json"), ValidateAgentCard)
}

func BenchmarkValidateToolSpec10KB(b *testing.B) {
	benchValidate(b, bigToolSpec(MaxDocumentBytes), validateToolSpec)
}

func BenchmarkValidateToolSpec10KBCached(b *testing.B) {
	benchValidate(b, bigToolSpec(MaxDocumentBytes), ValidateToolSpec)
}

func BenchmarkValidateAgentCardInvalid(b *testing.B) {
	doc := fixture(b, "card/multiple-errors-1.0.json")
	b.ReportAllocs()
	for b.Loop() {
		validateAgentCard(doc)
	}
}

func BenchmarkNormalize10KB(b *testing.B) {
	doc := bigCard(MaxDocumentBytes)
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Normalize(doc); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCompileSchemas measures compiling all embedded schemas, which
// happens once per process.
func BenchmarkCompileSchemas(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		if _, err := compileEmbedded(); err != nil {
			b.Fatal(err)
		}
	}
}
