package spec

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// officialFields are the members that the official A2A schemas require and
// the registry's rules do not, as a card that has them all writes them.
const officialFields = `"capabilities":{},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"]`

const (
	card03Start = `{"protocolVersion":"0.3.0","url":"https://a.example.test/a2a","name":"n","description":"d","version":"1","skills":[]`
	card10Start = `{"supportedInterfaces":[{"url":"https://a.example.test/a2a","protocolBinding":"JSONRPC","protocolVersion":"1.0"}],"name":"n","description":"d","version":"1","skills":[]`
)

// TestOfficiallyRequiredWarning: a card without a member that the official
// A2A schemas require, and the registry's rules do not, is valid with one
// warning that names what is missing, the official rule and what to add.
func TestOfficiallyRequiredWarning(t *testing.T) {
	const all03 = `the card has no capabilities, defaultInputModes and defaultOutputModes, which the official A2A 0.3 schema requires: the registry's documented rules leave them optional, so the card is accepted, but a client that checks cards against the official schema may refuse it; add "capabilities": {}, "defaultInputModes": ["text/plain"], "defaultOutputModes": ["text/plain"]`
	for _, tc := range []struct {
		name, doc, version string
		wants              []want
	}{
		{"0.3 without all three", card03Start + `}`, "0.3", []want{w("", 0, 0, "", all03)}},
		{"0.3 without one", card03Start + `,"capabilities":{},"defaultOutputModes":[]}`, "0.3", []want{
			w("", 0, 0, "", `the card has no defaultInputModes, which the official A2A 0.3 schema requires: the registry's documented rules leave it optional, so the card is accepted, but a client that checks cards against the official schema may refuse it; add "defaultInputModes": ["text/plain"]`),
		}},
		{"0.3 complete", card03Start + `,` + officialFields + `}`, "0.3", nil},
		// 0.3 has no snake_case names: default_input_modes is no alias there.
		{"0.3 with a proto name", card03Start + `,"capabilities":{},"default_input_modes":[],"defaultOutputModes":[]}`, "0.3", []want{
			w("", 0, 0, "", "the card has no defaultInputModes, which the official A2A 0.3 schema requires"),
			w("/default_input_modes", 0, 0, "", `unknown field "default_input_modes": the A2A 0.3 agent card schema does not define it, so the registry ignores it; did you mean "defaultInputModes"?`),
		}},
		// A 0.2 card is checked as 0.3: the same rule.
		{"0.2", strings.Replace(card03Start, `"0.3.0"`, `"0.2.9"`, 1) + `,"capabilities":{}}`, "0.3", []want{
			w("", 0, 0, "", "the card has no defaultInputModes and defaultOutputModes, which the official A2A 0.3 schema requires"),
			w("/protocolVersion", 0, 0, "", `protocolVersion "0.2.9" is A2A 0.2`),
		}},
		{"1.0 without all three", card10Start + `}`, "1.0", []want{
			w("", 0, 0, "", `the card has no capabilities, defaultInputModes and defaultOutputModes, which A2A 1.0 requires (REQUIRED in its a2a.proto): the registry's documented rules leave them optional`),
		}},
		{"1.0 complete", card10Start + `,` + officialFields + `}`, "1.0", nil},
		{"1.0 with the proto names", card10Start + `,"capabilities":{},"default_input_modes":[],"default_output_modes":[]}`, "1.0", nil},
		{"hybrid 1.0", strings.Replace(card10Start, `"name"`, `"url":"https://a.example.test/a2a","protocolVersion":"0.3.0","name"`, 1) + `,"capabilities":{}}`, "1.0", []want{
			w("", 0, 0, "", "the card has no defaultInputModes and defaultOutputModes, which A2A 1.0 requires"),
			w("", 0, 0, "", "keeps A2A 0.3 fields for 0.3 clients"),
		}},
		// A card whose version is unknown has errors enough.
		{"no version", `{"name":"n","description":"d","version":"1","skills":[]}`, "", []want{
			e("", 0, 0, "", "cannot detect the A2A version"),
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkResult(t, []byte(tc.doc), ValidateAgentCard([]byte(tc.doc)), tc.version, tc.wants)
		})
	}
}

// TestOfficialRequiredIsTheOfficialDifference: the members warned about are
// exactly those that the official A2A 0.3.0 schema requires of an AgentCard
// and the embedded one does not; and the embedded 1.0 schema requires none
// of them (the official 1.0 JSON schema requires nothing: its proto does).
func TestOfficialRequiredIsTheOfficialDifference(t *testing.T) {
	var names []string
	for _, f := range officialRequired {
		names = append(names, f.name)
	}
	for _, file := range []string{schemaCard03, schemaCard10} {
		for _, r := range asList(cardDefinition(file)["required"]) {
			if slices.Contains(names, as[string](t, r)) {
				t.Errorf("%s requires %s: no warning needed", file, r)
			}
		}
	}
	var doc struct {
		Definitions map[string]struct {
			Required []string `json:"required"`
		} `json:"definitions"`
	}
	b, err := os.ReadFile(filepath.Join(specDir(t), "a2a-v0.3.0.json"))
	if err != nil || json.Unmarshal(b, &doc) != nil {
		t.Fatalf("a2a-v0.3.0.json: %v", err)
	}
	var diff []string
	for _, r := range doc.Definitions["AgentCard"].Required {
		if !slices.Contains(asList(cardDefinition(schemaCard03)["required"]), any(r)) {
			diff = append(diff, r)
		}
	}
	if !slices.Equal(diff, names) {
		t.Errorf("official 0.3 required less the embedded schema's: %q; officialRequired: %q", diff, names)
	}
}

// TestBindingNames: a protocol binding or transport that is not one of the
// names A2A defines is a warning with those names, and a did-you-mean when
// it is close to one; the core names pass silently, in either version.
func TestBindingNames(t *testing.T) {
	iface := func(binding string) string {
		return strings.Replace(card10Start, `"protocolBinding":"JSONRPC"`, `"protocolBinding":"`+binding+`"`, 1) + `,` + officialFields + `}`
	}
	const expected = `expected one of "JSONRPC", "GRPC", "HTTP+JSON" (the same names in A2A 0.3 and 1.0); `
	const own = "A binding of your own is allowed, but clients that know only these names will not use this interface"
	for _, tc := range []struct {
		name, doc, version string
		wants              []want
	}{
		{"JSON-RPC", iface("JSON-RPC"), "1.0", []want{
			w("/supportedInterfaces/0/protocolBinding", 0, 0, "", `"JSON-RPC" is not a protocol binding that A2A defines: `+expected+`did you mean "JSONRPC"? `+own),
		}},
		// The registry API's enum name for HTTP+JSON.
		{"HTTP_JSON", iface("HTTP_JSON"), "1.0", []want{
			w("/supportedInterfaces/0/protocolBinding", 0, 0, "", `did you mean "HTTP+JSON"?`),
		}},
		{"lower case", iface("grpc"), "1.0", []want{
			w("/supportedInterfaces/0/protocolBinding", 0, 0, "", `did you mean "GRPC"?`),
		}},
		{"a binding of one's own", iface("MQTT"), "1.0", []want{
			w("/supportedInterfaces/0/protocolBinding", 0, 0, "", `"MQTT" is not a protocol binding that A2A defines: `+expected+own),
		}},
		{"JSONRPC", iface("JSONRPC"), "1.0", nil},
		{"GRPC", iface("GRPC"), "1.0", nil},
		{"HTTP+JSON", iface("HTTP+JSON"), "1.0", nil},
		{"proto names", `{"supported_interfaces":[{"url":"u","protocol_binding":"JSON-RPC","protocol_version":"1.0"}],"name":"n","description":"d","version":"1","skills":[],` + officialFields + `}`, "1.0", []want{
			w("/supported_interfaces/0/protocol_binding", 0, 0, "", `"JSON-RPC" is not a protocol binding that A2A defines`),
		}},
		// A mistyped binding is the schema's error, not a name to check.
		{"not a string", strings.Replace(iface("JSONRPC"), `"JSONRPC"`, "7", 1), "1.0", []want{
			e("/supportedInterfaces/0/protocolBinding", 0, 0, "", "expected string, found number"),
		}},
		{"0.3 transports", card03Start + `,` + officialFields + `,"preferredTransport":"JSON-RPC","additionalInterfaces":[{"url":"https://a.example.test/a2a","transport":"JSONRPC"},{"url":"https://a.example.test/rest","transport":"REST"}]}`, "0.3", []want{
			w("/additionalInterfaces/1/transport", 0, 0, "", `"REST" is not a transport that A2A defines: `+expected+own),
			w("/preferredTransport", 0, 0, "", `"JSON-RPC" is not a transport that A2A defines: `+expected+`did you mean "JSONRPC"?`),
		}},
		// A hybrid card's 0.3 fields are checked too.
		{"hybrid", strings.Replace(card10Start, `"name"`, `"url":"https://a.example.test/a2a","protocolVersion":"0.3.0","preferredTransport":"jsonrpc","name"`, 1) + `,` + officialFields + `}`, "1.0", []want{
			w("", 0, 0, "", "keeps A2A 0.3 fields for 0.3 clients"),
			w("/preferredTransport", 0, 0, "", `"jsonrpc" is not a transport that A2A defines: `+expected+`did you mean "JSONRPC"?`),
			w("/preferredTransport", 0, 0, "", `"jsonrpc" is not the protocolBinding of the supportedInterfaces entries at "https://a.example.test/a2a" ("JSONRPC")`),
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkResult(t, []byte(tc.doc), ValidateAgentCard([]byte(tc.doc)), tc.version, tc.wants)
		})
	}
}

// TestMisspeltRequiredMember: the error about a missing member names a
// misspelt key beside it, in a skill as at the top level and in every
// version: a plan that fails on the error does not show the warning about
// the unknown key.
func TestMisspeltRequiredMember(t *testing.T) {
	const hint = `; "descripton" is not a field here: did you mean "description"?`
	skill := `[{"id":"a","name":"b","descripton":"c","tags":[]}]`
	for _, tc := range []struct {
		name, doc, version string
		validate           func([]byte) *Result
		wants              []want
	}{
		{"0.3 skill", strings.Replace(card03Start, `"skills":[]`, `"skills":`+skill, 1) + `,` + officialFields + `}`, "0.3", ValidateAgentCard, []want{
			e("/skills/0", 0, 0, "", `missing required property "description"`+hint),
			w("/skills/0/descripton", 0, 0, "", `unknown field "descripton": the A2A 0.3 agent card schema does not define it, so the registry ignores it; did you mean "description"?`),
		}},
		{"1.0 skill", strings.Replace(card10Start, `"skills":[]`, `"skills":`+skill, 1) + `,` + officialFields + `}`, "1.0", ValidateAgentCard, []want{
			e("/skills/0", 0, 0, "", `missing required property "description"`+hint),
			w("/skills/0/descripton", 0, 0, "", `unknown field "descripton": it is not part of the A2A 1.0 agent card schema`),
		}},
		{"1.0 top level", strings.Replace(card10Start, `"description"`, `"descripton"`, 1) + `,` + officialFields + `}`, "1.0", ValidateAgentCard, []want{
			e("", 0, 0, "", `missing required property "description"`+hint),
			w("/descripton", 0, 0, "", `did you mean "description"?`),
		}},
		// A required member with two spellings (the anyOf of the 1.0 schema).
		{"1.0 interface", strings.Replace(card10Start, `"protocolBinding"`, `"protocolBindng"`, 1) + `,` + officialFields + `}`, "1.0", ValidateAgentCard, []want{
			e("/supportedInterfaces/0", 0, 0, "", `missing required property "protocolBinding" (also accepted as "protocol_binding"); "protocolBindng" is not a field here: did you mean "protocolBinding"?`),
			w("/supportedInterfaces/0/protocolBindng", 0, 0, "", `unknown field "protocolBindng"`),
		}},
		// Unsupported version: the problems of either version, hint included.
		{"unsupported version", `{"protocolVersion":"0.4.0","url":"u","name":"n","description":"d","version":"1","skills":` + skill + `}`, "", ValidateAgentCard, []want{
			e("/protocolVersion", 0, 0, "", `unsupported protocolVersion "0.4.0"`),
			e("/skills/0", 0, 0, "", `missing required property "description"`+hint),
		}},
		// No version: the members missing at the top, misspellings named.
		{"no version", `{"supportedInterface":[],"name":"n","descripton":"d","version":"1","skills":[]}`, "", ValidateAgentCard, []want{
			e("", 0, 0, "", `missing for A2A 1.0: description, supportedInterfaces; "descripton" is not a field here: did you mean "description"?; "supportedInterface" is not a field here: did you mean "supportedInterfaces"?`),
		}},
		// MCP allows unknown members in a tool: the error is the only word.
		{"tool", `{"tools":[{"name":"a","inputShema":{"type":"object"}}]}`, "", ValidateToolSpec, []want{
			e("/tools/0", 0, 0, "", `missing required property "inputSchema"; "inputShema" is not a field here: did you mean "inputSchema"?`),
		}},
		// A key that is no misspelling is not named.
		{"far from any name", strings.Replace(card10Start, `"skills":[]`, `"skills":[{"id":"a","name":"b","tags":[],"x":"c"}]`, 1) + `,` + officialFields + `}`, "1.0", ValidateAgentCard, []want{
			e("/skills/0", 0, 0, "", `missing required property "description"`),
			w("/skills/0/x", 0, 0, "", `unknown field "x"`),
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := tc.validate([]byte(tc.doc))
			checkResult(t, []byte(tc.doc), r, tc.version, tc.wants)
			if tc.name == "far from any name" && r.Problems[0].Message != `missing required property "description"` {
				t.Errorf("a key far from any name was taken for a misspelling: %s", r.Problems[0])
			}
		})
	}
}
