package jsoncanon

import (
	"os"
	"path/filepath"
	"testing"
)

func benchDoc(b *testing.B) []byte {
	b.Helper()
	doc, err := os.ReadFile(filepath.Join("..", "..", "scripts", "bench", "card-10k.json"))
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(doc)))
	b.ReportAllocs()
	return doc
}

func BenchmarkDecode10KB(b *testing.B) {
	doc := benchDoc(b)
	for b.Loop() {
		if _, err := Decode(doc); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkCompact10KB(b *testing.B) {
	doc := benchDoc(b)
	v, _ := Decode(doc)
	for b.Loop() {
		AppendCompact(nil, v)
	}
}

func BenchmarkEqual10KB(b *testing.B) {
	doc := benchDoc(b)
	compact, _ := Compact(doc)
	for b.Loop() {
		if eq, err := Equal(doc, compact); !eq || err != nil {
			b.Fatal(eq, err)
		}
	}
}
