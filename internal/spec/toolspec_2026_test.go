package spec

import (
	"strings"
	"testing"
)

// A tools/list result of MCP 2026-07-28 exactly as a server sends it: the
// result's resultType, ttlMs, cacheScope and _meta, icons with a theme, and
// input and output schemas with JSON Schema 2020-12 keywords.
const toolsList20260728 = `{
  "resultType": "complete",
  "ttlMs": 300000,
  "cacheScope": "public",
  "_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/serverInfo": {"name": "ts2", "version": "2.4.0"}},
  "tools": [{
    "name": "get_weather",
    "icons": [{"src": "https://example.com/sun-light.png", "mimeType": "image/png", "theme": "light"},
              {"src": "https://example.com/sun-dark.png", "sizes": ["48x48"], "theme": "dark"}],
    "inputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "object",
      "$defs": {"city": {"type": "string", "minLength": 1}},
      "properties": {
        "city": {"$ref": "#/$defs/city"},
        "point": {"type": "array", "prefixItems": [{"type": "number"}, {"type": "number"}], "items": false},
        "units": {"enum": ["c", "f"]}
      },
      "dependentRequired": {"point": ["city"]},
      "unevaluatedProperties": false,
      "required": ["city"]
    },
    "outputSchema": {
      "$schema": "https://json-schema.org/draft/2020-12/schema",
      "type": "array",
      "items": {"type": "object", "properties": {"celsius": {"type": "number"}}, "additionalProperties": false}
    }
  }]
}`

func TestToolSpec20260728AsSent(t *testing.T) {
	r := ValidateToolSpec([]byte(toolsList20260728))
	logProblems(t, r)
	if len(r.Problems) != 0 {
		t.Fatal("want valid without warnings")
	}
	bad := strings.Replace(toolsList20260728, `"theme": "dark"`, `"theme": "dusk"`, 1)
	if r := ValidateToolSpec([]byte(bad)); !hasProblem(r, SeverityError, "/tools/0/icons/1/theme", "dusk") {
		logProblems(t, r)
		t.Error("an icon theme other than dark or light passes")
	}
	bad = strings.Replace(toolsList20260728, `"cacheScope": "public"`, `"cacheScope": "everyone"`, 1)
	if r := ValidateToolSpec([]byte(bad)); !hasProblem(r, SeverityError, "/cacheScope", "everyone") {
		logProblems(t, r)
		t.Error("a cacheScope other than private or public passes")
	}
}

// execution (tasks, MCP 2025-11-25) is judged by the version the document
// declares, and accepted as sent when it declares none.
func TestToolSpecExecutionByDeclaredVersion(t *testing.T) {
	doc := func(top, execution string) []byte {
		return []byte(`{` + top + `"tools":[{"name":"a","inputSchema":{"type":"object"},"execution":` + execution + `}]}`)
	}
	const v1125 = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-11-25"},`
	for _, tc := range []struct {
		name, top, execution string
		sev                  Severity
		ptr, words           string
	}{
		{"no version, any value", ``, `{"taskSupport":"someday"}`, "", "", ""},
		{"2025-11-25, valid", v1125, `{"taskSupport":"optional"}`, "", "", ""},
		{"2025-11-25, bad value", v1125, `{"taskSupport":"someday"}`, SeverityError, "/tools/0/execution/taskSupport", `["forbidden" "optional" "required"]`},
		{"2025-11-25, not an object", v1125, `true`, SeverityError, "/tools/0/execution", "expected an object"},
		{"2026-07-28 by resultType", `"resultType":"complete",`, `{"taskSupport":"optional"}`, SeverityWarning, "/tools/0/execution", "not a member of an MCP 2026-07-28 Tool"},
		{"2025-06-18 by _meta", `"_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18"},`, `{}`, SeverityWarning, "/tools/0/execution", "2025-06-18"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ValidateToolSpec(doc(tc.top, tc.execution))
			if tc.words == "" {
				if len(r.Problems) != 0 {
					logProblems(t, r)
					t.Error("want no problem")
				}
				return
			}
			if len(r.Problems) != 1 || !hasProblem(r, tc.sev, tc.ptr, tc.words) {
				logProblems(t, r)
				t.Errorf("want one problem at %s saying %q", tc.ptr, tc.words)
			}
		})
	}
}
