package spec

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestSchema10IsTheOfficial101 checks that the project's A2A 1.0 schema is
// the A2A 1.0.1 one: each of its definitions has the members of the
// official 1.0.1 definition of the same message, each of the same JSON type
// (or reference to the same message), and the official bundle has no member
// of a card message that the project's schema leaves out.
func TestSchema10IsTheOfficial101(t *testing.T) {
	_, raw := officialSchema10(t)
	offDefs := as[map[string]any](t, as[map[string]any](t, raw)["definitions"])
	ours := as[map[string]any](t, as[map[string]any](t, schemas().raw[schemaBase+schemaCard10])["definitions"])
	byName := map[string]map[string]any{}
	for title, d := range offDefs {
		byName[strings.ReplaceAll(title, " ", "")] = as[map[string]any](t, d)
	}
	for name, d := range ours {
		off, ok := byName[name]
		if !ok {
			t.Errorf("%s: no such message in the official 1.0.1 schema", name)
			continue
		}
		ourProps, _ := as[map[string]any](t, d)["properties"].(map[string]any)
		offProps, _ := off["properties"].(map[string]any)
		if got, want := sortedKeys(ourProps), sortedKeys(offProps); !slices.Equal(got, want) {
			t.Errorf("%s: members %q, official 1.0.1 %q", name, got, want)
			continue
		}
		for p := range ourProps {
			if got, want := memberShape(ourProps[p]), memberShape(offProps[p]); got != want {
				t.Errorf("%s.%s: %s, official 1.0.1 %s", name, p, got, want)
			}
		}
	}
}

// memberShape is a property's JSON type, or the message it refers to, for its
// items too; descriptions, formats and the like are left out.
func memberShape(v any) string {
	m, _ := v.(map[string]any)
	if ref, ok := m["$ref"].(string); ok {
		ref = ref[strings.LastIndexByte(ref, '/')+1:]
		ref = strings.ReplaceAll(strings.ReplaceAll(ref, "%20", ""), " ", "")
		if ref == "Struct" {
			return "object" // google.protobuf.Struct, written as a plain object
		}
		return "ref " + ref
	}
	out := fmt.Sprint(m["type"])
	if items, ok := m["items"]; ok {
		out += " of " + memberShape(items)
	}
	if ap, ok := m["additionalProperties"].(map[string]any); ok {
		out += " to " + memberShape(ap)
	}
	b, _ := json.Marshal(m["enum"])
	if m["enum"] != nil {
		out += " enum " + string(b)
	}
	return out
}
