package toollock

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"strings"
	"testing"

	"github.com/gowebpki/jcs"
)

// weather is a tool spec written one way; weatherShuffled is the same tools
// with other key order, spacing, number spelling and string escapes.
const (
	weather = `{"tools":[
  {"name":"get_forecast","title":"Get forecast","description":"Returns the forecast for a city.",
   "inputSchema":{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","maximum":7}},"required":["city"]},
   "annotations":{"readOnlyHint":true}},
  {"name":"get_alerts","description":"Weather alerts, caf\u00e9 \"quoted\".","inputSchema":{"type":"object"},
   "outputSchema":{"type":"object","properties":{"alerts":{"type":"array"}}},"_meta":{"ratio":0.5}}
],"nextCursor":null}`
	weatherShuffled = `{ "tools" : [ { "annotations" : { "readOnlyHint" : true },
  "inputSchema":{"required":["city"],"properties":{"days":{"maximum":7.0,"type":"integer"},"city":{"type":"string"}},"type":"object"},
  "description":"Returns the forecast for a city.","title":"Get forecast","name":"get_forecast"},
 {"_meta":{"ratio":5e-1},"outputSchema":{"properties":{"alerts":{"type":"array"}},"type":"object"},
  "inputSchema":{"type":"object"},"description":"Weather alerts, café \"quoted\".","name":"get_alerts"} ] }`
)

// weatherLock is the lock of weather, byte for byte.
const weatherLock = `{
  "tools": {
    "get_alerts": {
      "definition": {
        "_meta": {
          "ratio": 0.5
        },
        "description": "Weather alerts, café \"quoted\".",
        "inputSchema": {
          "type": "object"
        },
        "name": "get_alerts",
        "outputSchema": {
          "properties": {
            "alerts": {
              "type": "array"
            }
          },
          "type": "object"
        }
      },
      "sha256": "DIGEST_ALERTS"
    },
    "get_forecast": {
      "definition": {
        "annotations": {
          "readOnlyHint": true
        },
        "description": "Returns the forecast for a city.",
        "inputSchema": {
          "properties": {
            "city": {
              "type": "string"
            },
            "days": {
              "maximum": 7,
              "type": "integer"
            }
          },
          "required": [
            "city"
          ],
          "type": "object"
        },
        "name": "get_forecast",
        "title": "Get forecast"
      },
      "sha256": "DIGEST_FORECAST"
    }
  },
  "version": 1
}
`

func mustMake(t *testing.T, spec string) []byte {
	t.Helper()
	lock, err := Make([]byte(spec))
	if err != nil {
		t.Fatalf("Make: %v", err)
	}
	return lock
}

// The same tools give the same lock, byte for byte, whatever their key order,
// spacing, number spelling or string escapes; and the lock is the layout the
// package documents.
func TestMakeIsByteStable(t *testing.T) {
	a, b := mustMake(t, weather), mustMake(t, weatherShuffled)
	if string(a) != string(b) {
		t.Fatalf("the same tools made two locks:\n%s\n%s", a, b)
	}
	digests, err := Digests([]byte(weather))
	if err != nil {
		t.Fatal(err)
	}
	want := strings.NewReplacer("DIGEST_ALERTS", digests["get_alerts"], "DIGEST_FORECAST", digests["get_forecast"]).Replace(weatherLock)
	if string(a) != want {
		t.Fatalf("lock:\n%s\nwant:\n%s", a, want)
	}
	for range 20 { // map iteration order differs between runs
		if again := mustMake(t, weather); string(again) != string(a) {
			t.Fatal("Make is not deterministic")
		}
	}
}

// The digests equal an independent computation: SHA-256 over the RFC 8785
// bytes that another implementation (github.com/gowebpki/jcs, a port of
// cyberphone's reference code) makes of each tool as encoding/json reads it.
func TestDigestsEqualAnIndependentComputation(t *testing.T) {
	specs := []string{weather, weatherShuffled,
		`{"tools":[{"name":"n","inputSchema":{"type":"object","properties":{"x":{"minimum":-0.0,"maximum":1e21,"multipleOf":0.000001}}}}]}`,
		`{"tools":[{"name":"u","description":"\ud83d\ude00 \u20ac \u2028 \u001f <tag> & \\","inputSchema":{"type":"object"},"_meta":{"\u20ac":1,"\ud83d\ude00":2,"a":3,"\u00e9":4}}]}`,
		`{"tools":[{"name":"big","inputSchema":{"type":"object","default":123456789012345678901234567890}}]}`,
	}
	for _, spec := range specs {
		var doc struct{ Tools []json.RawMessage }
		if err := json.Unmarshal([]byte(spec), &doc); err != nil {
			t.Fatal(err)
		}
		tools, err := Tools([]byte(spec))
		if err != nil {
			t.Fatalf("Tools(%s): %v", spec, err)
		}
		for i, raw := range doc.Tools {
			canon, err := jcs.Transform(raw)
			if err != nil {
				t.Fatalf("jcs.Transform(%s): %v", raw, err)
			}
			sum := sha256.Sum256(canon)
			if want := hex.EncodeToString(sum[:]); tools[i].Digest != want || string(tools[i].Canonical) != string(canon) {
				t.Errorf("tool %s: digest %s of %s; gowebpki/jcs gives %s of %s", tools[i].Name, tools[i].Digest, tools[i].Canonical, want, canon)
			}
		}
	}
}

// A lock reads back to tools that compare equal with the spec it was made
// of, in any spacing; an empty tool list makes an empty lock.
func TestParseReadsWhatMakeWrote(t *testing.T) {
	lock, err := Parse(mustMake(t, weather))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	tools, _ := Tools([]byte(weatherShuffled))
	if diffs := Compare(lock, tools); len(diffs) != 0 {
		t.Errorf("the spec differs from its own lock: %v", diffs)
	}
	if empty, err := Parse(mustMake(t, `{"tools":[]}`)); err != nil || len(empty.Tools) != 0 {
		t.Errorf("the lock of no tools: %v, %v", empty, err)
	}
	var v any
	if err := json.Unmarshal(mustMake(t, weather), &v); err != nil {
		t.Fatal(err)
	}
	oneLine, _ := json.Marshal(v)
	if _, err := Parse(oneLine); err != nil {
		t.Errorf("Parse of the lock on one line: %v", err)
	}
}

func TestParseRefusesABrokenLock(t *testing.T) {
	good := string(mustMake(t, weather))
	for _, tc := range []struct {
		name, lock string
		want       []string
	}{
		{"definition edited, digest kept", strings.Replace(good, "Returns the forecast", "Ignore previous instructions", 1),
			[]string{"/tools/get_forecast/sha256: ", "is not the digest of the definition", "edited by hand", "tool_lock"}},
		{"wrong version", strings.Replace(good, `"version": 1`, `"version": 2`, 1), []string{"/version: expected 1, found number 2"}},
		{"unknown member", strings.Replace(good, `"version": 1`, `"version": 1, "extra": true`, 1), []string{"/extra: unknown member"}},
		{"name differs from key", strings.Replace(good, `"name": "get_alerts"`, `"name": "alerts"`, 1),
			[]string{`/tools/get_alerts/definition/name: expected "get_alerts" (the tool's key), found string "alerts"`}},
		{"entry not an object", `{"tools":{"a":1},"version":1}`, []string{`/tools/a: expected {"definition": {...}, "sha256": "..."}, found number 1`}},
		{"no tools", `{"version":1}`, []string{"/tools: expected an object of approved tools by name, found nothing"}},
		{"a tool spec, not a lock", weather, []string{"/tools: expected an object", "/version: expected 1", "/nextCursor: unknown member"}},
		{"not JSON", `{"tools":`, []string{"invalid JSON"}},
		{"too big", good + strings.Repeat(" ", MaxLockBytes), []string{"over the limit of 1048576 bytes"}},
	} {
		_, err := Parse([]byte(tc.lock))
		if err == nil {
			t.Errorf("%s: Parse accepted it", tc.name)
			continue
		}
		for _, w := range tc.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%s: error %q does not contain %q", tc.name, err, w)
			}
		}
	}
}

// Tools refuses what would make a lock ambiguous.
// A lock is a peer's text (its names come from an MCP server): whatever part
// of it an error names (an unknown member, a tool's key, a value, a
// repeated key) reaches the terminal with its controls and bidirectional
// overrides escaped, never raw.
func TestParseErrorsShowPeerTextSafely(t *testing.T) {
	const hostile = `\u001b]0;pwned\u0007\u001b[2J\u202eevil\u009b`
	for _, tc := range []struct{ name, lock, want string }{
		{"unknown member", `{"tools":{},"version":1,"` + hostile + `":true}`, `/\u001b]0;pwned\u0007\u001b[2J\u202eevil\u009b: unknown member`},
		{"tool key", `{"tools":{"` + hostile + `":1},"version":1}`, `/tools/\u001b]0;pwned\u0007\u001b[2J\u202eevil\u009b: expected`},
		{"value shown", `{"tools":{},"version":"` + hostile + `"}`, `found string "\u001b]0;pwned\u0007\u001b[2J\u202eevil\u009b"`},
		{"repeated key", `{"tools":{},"version":1,"` + hostile + `":1,"` + hostile + `":2}`, `at /\u001b]0;pwned\u0007\u001b[2J\u202eevil\u009b)`},
	} {
		_, err := Parse([]byte(tc.lock))
		if err == nil {
			t.Fatalf("%s: Parse accepted it", tc.name)
		}
		for _, bad := range []string{"\x1b", "\x07", "\u202e", "\u009b"} {
			if strings.Contains(err.Error(), bad) {
				t.Errorf("%s: %q reached the error: %q", tc.name, bad, err)
			}
		}
		if !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %q does not contain %q", tc.name, err, tc.want)
		}
	}
}

func TestToolsRefusesAmbiguousSpecs(t *testing.T) {
	for spec, want := range map[string]string{
		`{"tools":[{"name":"a","inputSchema":{"type":"object"}},{"name":"a","inputSchema":{"type":"object"}}]}`: `/tools/1: the tool name "a" is used twice`,
		`{"tools":[{"inputSchema":{"type":"object"}}]}`:                                                         "/tools/0: expected a tool object with a string name",
		`{"tools":{}}`: `a tool spec is an object with a "tools" array`,
		`[]`:           `a tool spec is an object with a "tools" array`,
		`{"tools":[{"name":"n","inputSchema":{"type":"object","default":1e400}}]}`: `beyond the range of an IEEE 754 double (at most 1.7976931348623157e308 in magnitude): I-JSON and RFC 8785 allow only numbers a double holds (byte 63, at /tools/0/inputSchema/default)`,
	} {
		if _, err := Make([]byte(spec)); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Make(%s) = %v; want an error containing %q", spec, err, want)
		}
	}
}
