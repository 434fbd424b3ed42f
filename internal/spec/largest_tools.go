package spec

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
)

// ToolSize is a tool's name and its size as compact JSON.
type ToolSize struct {
	Name  string
	Bytes int
}

// LargestToolsShown is how many tools LargestTools names.
const LargestToolsShown = 5

// LargestTools names the LargestToolsShown largest tools, largest first
// (equal sizes in document order), each with its size: "search (4210
// bytes), fetch (3980 bytes)". A tool spec over the registry's limit is
// reported with them wherever it is found (a resource's tool_spec, a live
// server's tools), so that the error says which tools to leave out or trim.
func LargestTools(tools []ToolSize) string {
	bySize := slices.Clone(tools)
	slices.SortStableFunc(bySize, func(a, b ToolSize) int { return cmp.Compare(b.Bytes, a.Bytes) })
	out := make([]string, 0, LargestToolsShown)
	for _, t := range bySize[:min(LargestToolsShown, len(bySize))] {
		out = append(out, fmt.Sprintf("%s (%d bytes)", t.Name, t.Bytes))
	}
	return strings.Join(out, ", ")
}

// toolSizes are the sizes of a decoded tool spec's tools as compact JSON;
// a tool without a string name is named by its pointer (/tools/2).
func toolSizes(spec any) []ToolSize {
	root, _ := spec.(map[string]any)
	tools, _ := root["tools"].([]any)
	sizes := make([]ToolSize, 0, len(tools))
	for i, t := range tools {
		m, _ := t.(map[string]any)
		name, ok := m["name"].(string)
		if !ok {
			name = fmt.Sprintf("/tools/%d", i)
		}
		sizes = append(sizes, ToolSize{Name: name, Bytes: len(jsoncanon.AppendCompact(nil, t))})
	}
	return sizes
}
