package tooltext

import (
	"encoding/json"
	"fmt"
	"sort"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/toollock"
)

// tenKilobyteSpec is a real tool spec cut to the registry's limit: the tools
// of the corpus's benign lists, taken in order while the compact document
// stays under 10,240 bytes.
func tenKilobyteSpec(tb testing.TB) []byte {
	var tools []json.RawMessage
	size := len(`{"tools":[]}`)
	files := corpusFilesTB(tb, "benign/dev")
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		var doc struct{ Tools []json.RawMessage }
		if err := json.Unmarshal(files[n], &doc); err != nil {
			tb.Fatal(err)
		}
		for _, t := range doc.Tools {
			c, err := jsoncanon.Compact(t)
			if err != nil {
				tb.Fatal(err)
			}
			if size+len(c)+1 > 10240 {
				continue
			}
			tools = append(tools, c)
			size += len(c) + 1
		}
	}
	out, _ := json.Marshal(map[string]any{"tools": tools})
	return out
}

func corpusFilesTB(tb testing.TB, part string) map[string][]byte {
	t, ok := tb.(*testing.T)
	if ok {
		return corpusFiles(t, part)
	}
	var out map[string][]byte
	tt := &testing.T{}
	out = corpusFiles(tt, part)
	return out
}

// BenchmarkAnalyze: one 10 KB spec (the goal is under 2 ms), with what every
// plan of agentregistry_mcp_server already computes of the same document
// (toollock.Digests: decode, canonicalise, hash) in the same run as the
// baseline it adds to.
func BenchmarkAnalyze(b *testing.B) {
	doc := tenKilobyteSpec(b)
	b.Run("tool_findings", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		b.ReportAllocs()
		for b.Loop() {
			if _, err := Analyze(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("baseline_tool_digests", func(b *testing.B) {
		b.SetBytes(int64(len(doc)))
		for b.Loop() {
			if _, err := toollock.Digests(doc); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkAnalyzeFleet: fleet_tool_findings over 200 servers of 10 KB.
func BenchmarkAnalyzeFleet(b *testing.B) {
	doc := tenKilobyteSpec(b)
	specs := map[string][]byte{}
	for i := range 200 {
		specs[fmt.Sprintf("server-%03d", i)] = doc
	}
	b.SetBytes(int64(len(doc) * len(specs)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := AnalyzeFleet(specs); err != nil {
			b.Fatal(err)
		}
	}
}

// TestAnalyze_cost prints the cost of one 10 KB spec next to the plan's
// validation of it, medians of 15 runs in the same process; it asserts
// nothing about time (the benchmarks are the figures).
func TestAnalyze_cost(t *testing.T) {
	if testing.Short() {
		t.Skip("timing report")
	}
	doc := tenKilobyteSpec(t)
	median := func(f func()) time.Duration {
		var ds []time.Duration
		for range 15 {
			start := time.Now()
			for range 20 {
				f()
			}
			ds = append(ds, time.Since(start)/20)
		}
		sort.Slice(ds, func(i, j int) bool { return ds[i] < ds[j] })
		return ds[len(ds)/2]
	}
	analyze := median(func() { _, _ = Analyze(doc) })
	digests := median(func() { _, _ = toollock.Digests(doc) })
	t.Logf("%d-byte spec: tool_findings %v, tool_digests (what every plan of the resource computes) %v; ratio %.2f",
		len(doc), analyze, digests, float64(analyze)/float64(digests))
}
