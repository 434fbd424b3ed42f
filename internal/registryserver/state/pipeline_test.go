package state

import (
	"slices"
	"testing"
)

// An update mask arrives in camelCase (the REST mapping) or snake_case; both
// become snake_case paths, every capital letter A to Z included, and empty
// parts are dropped; a backquoted map key (AIP-161) is kept as sent.
func TestMaskPaths(t *testing.T) {
	for mask, want := range map[string][]string{
		"displayName,agentSpec.content": {"display_name", "agent_spec.content"},
		" description , ,":              {"description"},
		"display_name,mcp_server_spec":  {"display_name", "mcp_server_spec"},
		"Alpha,zuluZ,AZ":                {"_alpha", "zulu_z", "_a_z"},
		"":                              nil,
		"a.`Key,With.Caps`,bB":          {"a.`Key,With.Caps`", "b_b"},
		"workloadProperties.extendedMetadata.`apphub.googleapis.com/AgentProperties`": {
			"workload_properties.extended_metadata.`apphub.googleapis.com/AgentProperties`"},
	} {
		if got := maskPaths(mask); !slices.Equal(got, want) {
			t.Errorf("maskPaths(%q) = %q, want %q", mask, got, want)
		}
	}
}
