package toollock

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit/speccorpus"
)

// BenchmarkPlanCheck is what approved_tools costs one plan: read the lock,
// read the tool spec's tools, compare. On GitHub's MCP server's 117 tools
// (the spec corpus; skipped without it).
func BenchmarkPlanCheck(b *testing.B) {
	raw, err := os.ReadFile(filepath.Join(speccorpus.Require(b), "examples", "mcp", "github-mcp-server_tools-list_assembled.json"))
	if err != nil {
		b.Fatal(err)
	}
	lock, err := Make(raw)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(raw) + len(lock)))
	b.ReportAllocs()
	for b.Loop() {
		l, err := Parse(lock)
		if err != nil {
			b.Fatal(err)
		}
		tools, err := Tools(raw)
		if err != nil || len(Compare(l, tools)) != 0 {
			b.Fatal(err)
		}
	}
}
