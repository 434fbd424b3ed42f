package spec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
)

func fixture(t testing.TB, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// want is one expected problem. at, when set, is the text expected at
// line:column in the fixture (checked independently of the locator).
type want struct {
	sev        Severity
	ptr        string
	line, col  int
	at         string
	msgContain string
}

func e(ptr string, line, col int, at, msg string) want {
	return want{SeverityError, ptr, line, col, at, msg}
}

func w(ptr string, line, col int, at, msg string) want {
	return want{SeverityWarning, ptr, line, col, at, msg}
}

// textAt returns the text of doc starting at a 1-based line and column
// (columns count characters).
func textAt(doc []byte, line, col int) string {
	lines := strings.Split(string(doc), "\n")
	if line < 1 || line > len(lines) {
		return ""
	}
	l := lines[line-1]
	i := 0
	for n := 1; n < col && i < len(l); n++ {
		_, size := utf8.DecodeRuneInString(l[i:])
		i += size
	}
	return l[i:]
}

func checkResult(t *testing.T, doc []byte, r *Result, wantVersion string, wants []want) {
	t.Helper()
	if r.A2AVersion != wantVersion {
		t.Errorf("A2AVersion = %q, want %q", r.A2AVersion, wantVersion)
	}
	if len(r.Problems) != len(wants) {
		for _, p := range r.Problems {
			t.Logf("got %s %s", p.Severity, p)
		}
		t.Fatalf("got %d problems, want %d", len(r.Problems), len(wants))
	}
	for i, wt := range wants {
		p := r.Problems[i]
		if p.Severity != wt.sev || p.Pointer != wt.ptr || !strings.Contains(p.Message, wt.msgContain) {
			t.Errorf("problem %d = %s %s\nwant %s at %q containing %q", i, p.Severity, p, wt.sev, wt.ptr, wt.msgContain)
		}
		if p.Line != wt.line || p.Column != wt.col { // 0:0: a one-line document, no position
			t.Errorf("problem %d (%s) at line %d column %d, want %d:%d", i, p.Pointer, p.Line, p.Column, wt.line, wt.col)
		}
		if wt.at != "" && !strings.HasPrefix(textAt(doc, p.Line, p.Column), wt.at) {
			t.Errorf("problem %d (%s): text at %d:%d is %.30q, want it to start with %q", i, p.Pointer, p.Line, p.Column, textAt(doc, p.Line, p.Column), wt.at)
		}
	}
	if r.Valid() != (len(r.Errors()) == 0) || len(r.Errors())+len(r.Warnings()) != len(r.Problems) {
		t.Errorf("Valid/Errors/Warnings inconsistent")
	}
}

func TestValidateAgentCardFixtures(t *testing.T) {
	cases := []struct {
		file    string
		version string
		wants   []want
	}{
		{"card/valid-0.3.json", "0.3", nil},
		{"card/valid-1.0.json", "1.0", nil},
		// ProtoJSON accepts a field's proto name as well as its JSON name: the
		// 1.0 schema lists the snake_case names as aliases, required ones included.
		{"card/valid-1.0-snake.json", "1.0", nil},
		{"card/alias-missing-1.0.json", "1.0", []want{
			e("/supported_interfaces/0", 6, 5, `{"url"`, `missing required property "protocolBinding" (also accepted as "protocol_binding")`),
		}},
		{"card/protocol-0.2.json", "0.3", []want{
			w("/protocolVersion", 2, 22, `"0.2.5"`, `protocolVersion "0.2.5" is A2A 0.2; the card is checked against the A2A 0.3 schema, but the registry supports A2A 0.3 and 1.0`),
		}},
		// A 0.3-shaped card that declares 1.0 is told so, in 1.0's terms.
		{"card/unsupported-version.json", "", []want{
			e("/protocolVersion", 2, 22, `"1.0"`, `protocolVersion "1.0" declares A2A 1.0, but the card has no supportedInterfaces: an A2A 1.0 card lists each endpoint there`),
		}},
		// After a version problem, validation goes on with what both
		// versions require: the description's type and the skill's tags,
		// not the 0.3-only securitySchemes enum nor the 1.0-only oneof.
		{"card/unsupported-version-0.4.json", "", []want{
			e("/protocolVersion", 2, 22, `"0.4.0"`, `unsupported protocolVersion "0.4.0": a card with a top-level url is A2A 0.3 and needs protocolVersion 0.3.x`),
			e("/description", 4, 18, "5,", "expected string, found number"),
			e("/skills/0", 8, 14, `{"id": "s"`, `missing required property "tags"`),
		}},
		{"card/neither-with-errors.json", "", []want{
			e("", 1, 1, "{", "cannot detect the A2A version: expected supportedInterfaces (A2A 1.0) or top-level url and protocolVersion (A2A 0.3), found none of them; missing for A2A 0.3: version, url, protocolVersion; missing for A2A 1.0: version, supportedInterfaces"),
			e("/name", 2, 11, `["Nameless"]`, "expected string, found array"),
			e("/skills/0/id", 4, 21, "1,", "expected string, found number"),
		}},
		// A card that lists its interfaces is A2A 1.0; a 0.3 url beside them
		// makes it hybrid: accepted, with one warning that names the 0.3
		// fields, and one saying that 0.3 clients also need protocolVersion.
		{"card/hybrid-url-only-1.0.json", "1.0", []want{
			w("", 1, 1, "{", "the A2A 0.3 fields lack protocolVersion, which A2A 0.3 requires: 0.3 clients cannot use the card"),
			w("", 1, 1, "{", "the card is A2A 1.0 (it lists supportedInterfaces) and keeps A2A 0.3 fields for 0.3 clients, as SDKs with A2A 0.3 compatibility serve it: url; accepted as A2A 1.0, whose clients read supportedInterfaces and ignore these fields; how the registry treats such a hybrid card is not documented"),
		}},
		// The 0.3 fields of a hybrid card are typed as in 0.3 (errors) and
		// checked against the 1.0 interfaces (warnings).
		{"card/hybrid-inconsistent-1.0.json", "1.0", []want{
			w("", 1, 1, "{", "keeps A2A 0.3 fields for 0.3 clients, as SDKs with A2A 0.3 compatibility serve it: url, protocolVersion, preferredTransport, additionalInterfaces, supportsAuthenticatedExtendedCard, /capabilities/stateTransitionHistory, /skills/0/security; accepted as A2A 1.0"),
			w("/url", 5, 10, `"https://old.example.test/a2a"`, `"https://old.example.test/a2a" is not the url of any supportedInterfaces entry ("https://split.example.test/a2a", "https://split.example.test/grpc"): A2A 0.3 clients, which read this field, would call an endpoint that A2A 1.0 clients are not told about`),
			w("/protocolVersion", 6, 22, `"0.2.9"`, `"0.2.9", kept for A2A 0.3 clients, is not an A2A 0.3 version: those clients expect 0.3.x`),
			w("/additionalInterfaces/0/transport", 9, 61, `"HTTP+JSON"`, `"HTTP+JSON" is not the protocolBinding of the supportedInterfaces entries at "https://split.example.test/grpc" ("GRPC")`),
			e("/additionalInterfaces/1", 10, 5, `{"url"`, `missing required property "transport"`),
			w("/additionalInterfaces/1/url", 10, 13, `"https://split.example.test/rest"`, `"https://split.example.test/rest" is not the url of any supportedInterfaces entry`),
			e("/supportsAuthenticatedExtendedCard", 16, 40, `"no"`, "expected boolean, found string"),
		}},
		// An empty list of interfaces does not make a card with a url 1.0.
		{"card/empty-interfaces-0.3.json", "0.3", []want{
			w("/supportedInterfaces", 7, 26, "[]", "supportedInterfaces is an empty list, so the card is read as A2A 0.3 (it has url and protocolVersion)"),
		}},
		// Security written in 0.3 forms in a 1.0 card: each oneof message
		// names the 1.0 form, counts only real alternatives and holds the
		// other members (no separate unknown-field warning for them).
		{"card/security-forms-1.0.json", "1.0", []want{
			e("/securitySchemes/freiaBearer", 7, 20, `{"type": "http"`, `expected exactly one of apiKeySecurityScheme, httpAuthSecurityScheme, mtlsSecurityScheme, oauth2SecurityScheme, openIdConnectSecurityScheme, found none; this is the A2A 0.3 form ("type": "http"), and A2A 1.0 writes it as {"httpAuthSecurityScheme": {...}} holding "bearerFormat", "description", "scheme"`),
			e("/securitySchemes/key", 8, 12, `{"type": "apiKey"`, `A2A 1.0 writes it as {"apiKeySecurityScheme": {...}} holding "location" (0.3's "in"), "name"`),
			e("/securitySchemes/odd", 9, 12, `{"kind"`, `found none; "kind" is not one of them; A2A 1.0 writes a security scheme as one member named for its kind, such as {"httpAuthSecurityScheme": {...}}`),
			e("/securitySchemes/token/oauth2SecurityScheme/flows", 10, 49, `{"clientCredentials"`, `expected exactly one of authorizationCode, clientCredentials, deviceCode, implicit, password, found 2 ("clientCredentials", "password"); A2A 1.0 allows one flow per OAuth 2.0 scheme (A2A 0.3 allowed several): declare a scheme for each flow`),
			e("/securityRequirements/0/schemes/freiaBearer", 12, 56, `["read"]`, `expected object, found array; A2A 1.0 writes the scopes of a security requirement as {"list": [...]}, here {"list": ["read"]}`),
			w("/securityRequirements/1/key", 12, 69, `"key"`, `unknown field "key": it is not part of the A2A 1.0 agent card schema; the registry may ignore or reject it; {"key": [...]} is the A2A 0.3 form of a security requirement: A2A 1.0 writes {"schemes": {"key": {"list": [...]}}}`),
			w("/security", 13, 3, `"security"`, `unknown field "security": it is not part of the A2A 1.0 agent card schema; the registry may ignore or reject it; it is the A2A 0.3 name of securityRequirements`),
		}},
		{"card/neither.json", "", []want{
			e("", 1, 1, "{", "cannot detect the A2A version: expected supportedInterfaces (A2A 1.0) or top-level url and protocolVersion (A2A 0.3), found none"),
		}},
		{"card/unknown-field-1.0.json", "1.0", []want{
			w("/iconURL", 6, 3, `"iconURL"`, `unknown field "iconURL": it is not part of the A2A 1.0 agent card schema; the registry may ignore or reject it; did you mean "iconUrl"?`),
			w("/skills/0/color", 8, 65, `"color"`, `unknown field "color"`),
		}},
		{"card/wrong-types-0.3.json", "0.3", []want{
			e("/name", 3, 11, "42", "expected string, found number"),
			e("/capabilities/streaming", 7, 33, `"yes"`, "expected boolean, found string"),
			e("/defaultInputModes", 8, 24, `"text/plain"`, "expected array, found string"),
			e("/skills", 9, 13, "{}", "expected array, found object"),
		}},
		{"card/skill-fields-0.3.json", "0.3", []want{
			e("/skills/1", 9, 5, `{"id": "no-tags"`, `missing required property "tags"`),
			e("/skills/2/tags", 14, 15, `"a,b"`, "expected array, found string"),
			e("/skills/2/examples/1", 15, 28, "7]", "expected string, found number"),
		}},
		{"card/skill-fields-1.0.json", "1.0", []want{
			e("/skills/0", 7, 5, `{"name": "No id"`, `missing required property "id"`),
			e("/skills/0/examples", 7, 80, `"one"`, "expected array, found string"),
		}},
		// Every error of the document, sorted by line and column.
		{"card/multiple-errors-1.0.json", "1.0", []want{
			e("", 1, 1, "{", `missing required property "description"`),
			e("/version", 3, 14, "3,", "expected string, found number"),
			e("/supportedInterfaces/0", 5, 5, `{"url"`, `missing required property "protocolVersion"`),
			e("/supportedInterfaces/1/url", 6, 13, "5,", "expected string, found number"),
			e("/provider", 8, 15, `{"organization"`, `missing required property "url"`),
			e("/skills/0/tags/0", 10, 60, "1]", "expected string, found number"),
		}},
		// A deep error located exactly: the value true of scopes.read.
		{"card/nested-error-0.3.json", "0.3", []want{
			e("/securitySchemes/oauth/flows/clientCredentials/scopes/read", 13, 30, "true}", "expected string, found boolean"),
		}},
		// Skill ids are unique within a card: both positions are named.
		{"card/duplicate-skill-ids-1.0.json", "1.0", []want{
			e("/skills/2/id", 9, 12, "7,", "expected string, found number"),
			e("/skills/3/id", 10, 12, `"lookup", "name": "Look up again"`, `duplicate skill id "lookup": /skills/0/id has it already; skill ids must be unique within an agent card`),
		}},
		// 0.3 allows unknown fields, but one close to a defined name is
		// likely a typo: a warning besides the missing field, at the card's
		// top level and in a skill. x-team and x-owner are extensions: silent.
		{"card/skill-typo-0.3.json", "0.3", []want{
			e("", 1, 1, "{", `missing required property "description"`),
			w("/desription", 4, 3, `"desription"`, `unknown field "desription": the A2A 0.3 agent card schema does not define it, so the registry ignores it; did you mean "description"?`),
			e("/skills/0", 9, 5, `{"id": "lookup"`, `missing required property "description"`),
			w("/skills/0/desription", 9, 41, `"desription"`, `did you mean "description"?`),
		}},
		// RFC 6901: "/" in a name is "~1", "~" is "~0", escaped in that
		// order ("team/oauth" is not "team~01oauth") and unescaped in the
		// reverse one (the value found under "~1" is the number 5).
		{"card/pointer-escaping-1.0.json", "1.0", []want{
			e("/securitySchemes/team~1oauth/oauth2SecurityScheme", 7, 44, `"no"`, "expected object, found string"),
			e("/securitySchemes/~01/apiKeySecurityScheme", 8, 36, "5}", "expected object, found number"),
			// One alternative and an unknown member: the oneof holds, the
			// member is an unknown field like any other.
			w("/securitySchemes/key~00/color", 9, 76, `"color"`, `unknown field "color"`),
		}},
		{"card/invalid-json.json", "", []want{
			e("", 4, 3, `"version"`, "invalid JSON: invalid character '\"' after object key:value pair"),
		}},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			doc := fixture(t, tc.file)
			checkResult(t, doc, ValidateAgentCard(doc), tc.version, tc.wants)
		})
	}
}

// TestAgentCardRequiredFields removes each required field of a valid card of
// each version and expects exactly one error naming it.
func TestAgentCardRequiredFields(t *testing.T) {
	for _, tc := range []struct {
		file     string
		version  string
		required []string
	}{
		{"card/valid-0.3.json", "0.3", []string{"name", "description", "version", "skills", "protocolVersion"}},
		{"card/valid-1.0.json", "1.0", []string{"name", "description", "version", "skills"}},
	} {
		for _, field := range tc.required {
			t.Run(tc.version+"/"+field, func(t *testing.T) {
				var card map[string]any
				if err := json.Unmarshal(fixture(t, tc.file), &card); err != nil {
					t.Fatal(err)
				}
				delete(card, field)
				doc, _ := json.MarshalIndent(card, "", "  ")
				checkResult(t, doc, ValidateAgentCard(doc), tc.version, []want{
					e("", 1, 1, "{", fmt.Sprintf("missing required property %q", field)),
				})
			})
		}
		// Optional by the registry's rules, required by the official
		// schemas: valid, with a warning (under either name in 1.0).
		for _, f := range officialRequired {
			t.Run(tc.version+"/optional/"+f.name, func(t *testing.T) {
				var card map[string]any
				_ = json.Unmarshal(fixture(t, tc.file), &card)
				delete(card, f.name)
				delete(card, f.alias)
				doc, _ := json.Marshal(card)
				checkResult(t, doc, ValidateAgentCard(doc), tc.version, []want{
					w("", 0, 0, "", fmt.Sprintf("the card has no %s, which ", f.name)),
				})
			})
		}
	}
	// Removing url from a 0.3 card leaves protocolVersion: still 0.3, url missing.
	var card map[string]any
	_ = json.Unmarshal(fixture(t, "card/valid-0.3.json"), &card)
	delete(card, "url")
	doc, _ := json.Marshal(card)
	// A one-line document (as jsonencode writes it): no line and column.
	checkResult(t, doc, ValidateAgentCard(doc), "0.3", []want{e("", 0, 0, "", `missing required property "url"`)})
}

func TestValidateAgentCardNotObject(t *testing.T) {
	for _, doc := range []string{`[]`, `"card"`, `null`, `12`} {
		r := ValidateAgentCard([]byte(doc))
		if r.Valid() || len(r.Problems) != 1 || !strings.Contains(r.Problems[0].Message, "expected an A2A agent card (a JSON object)") {
			t.Errorf("%s: %v", doc, r.Problems)
		}
	}
}

func TestValidateToolSpecFixtures(t *testing.T) {
	cases := []struct {
		file  string
		wants []want
	}{
		{"tools/valid.json", nil},
		{"tools/no-input-schema.json", []want{
			e("/tools/1", 4, 5, `{"name": "broken"`, `missing required property "inputSchema"`),
		}},
		{"tools/input-schema-not-object.json", []want{
			e("/tools/0/inputSchema/type", 3, 45, `"array"`, `expected "object", found string "array"`),
			e("/tools/1/inputSchema", 4, 39, `{"properties"`, `missing required property "type"`),
			e("/tools/2/inputSchema", 5, 36, `"object"`, "expected object, found string"),
		}},
		{"tools/annotations-wrong-type.json", []want{
			e("/tools/0/annotations/readOnlyHint", 6, 39, `"true"`, "expected boolean, found string"),
			e("/tools/0/annotations/destructiveHint", 6, 66, "0}", "expected boolean, found number"),
			e("/tools/1/annotations", 8, 69, "[]", "expected object, found array"),
		}},
		{"tools/misc-wrong.json", []want{
			e("/tools/0/name", 3, 14, "1,", "expected string, found number"),
			e("/tools/0/outputSchema", 3, 68, "[]", "expected object, found array"),
			e("/tools/0/icons/0", 3, 82, `{"mimeType"`, `missing required property "src"`),
			e("/tools/0/title", 3, 119, "false", "expected string, found boolean"),
			e("/nextCursor", 5, 17, "3", "expected string, found number"),
		}},
		// Tool names are unique within a tool spec: each repeat names the first.
		{"tools/duplicate-names.json", []want{
			e("/tools/1/name", 4, 14, `"get_invoice"`, `duplicate tool name "get_invoice": /tools/0/name has it already; tool names must be unique within a tool spec`),
			e("/tools/3/name", 6, 14, `"get_invoice"`, `duplicate tool name "get_invoice": /tools/0/name has it already`),
		}},
		{"tools/no-tools.json", []want{
			e("", 0, 0, "", `missing required property "tools"`), // a one-line file
		}},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			doc := fixture(t, tc.file)
			checkResult(t, doc, ValidateToolSpec(doc), "", tc.wants)
		})
	}
}

func TestValidateAgentPropertiesFixtures(t *testing.T) {
	cases := []struct {
		file  string
		wants []want
	}{
		{"properties/valid.json", nil},
		{"properties/misspelt-key.json", []want{
			e("/dispalyName", 2, 3, `"dispalyName"`, `unknown property "dispalyName": the AgentProperties schema does not allow it (misspelt keys are rejected, not dropped); did you mean "displayName"?`),
			e("/skills/0/tag", 5, 74, `"tag"`, `did you mean "tags"?`),
		}},
		{"properties/pointer-escaping.json", []want{
			e("/x~1y", 3, 3, `"x/y"`, `unknown property "x/y"`),
			e("/a~0b", 4, 3, `"a~b"`, `unknown property "a~b"`),
			e("/~01", 5, 3, `"~1"`, `unknown property "~1"`),
			e("/skills/0/c~1d~0e", 7, 78, `"c/d~e"`, `unknown property "c/d~e"`),
		}},
		{"properties/wrong-types.json", []want{
			e("/displayName", 2, 18, `["Invoice Helper"]`, "expected string, found array"),
			e("/version", 3, 14, "2,", "expected string, found number"),
			e("/skills/0/tags", 5, 38, `"billing"`, "expected array, found string"),
		}},
	}
	for _, tc := range cases {
		t.Run(tc.file, func(t *testing.T) {
			doc := fixture(t, tc.file)
			checkResult(t, doc, ValidateAgentProperties(doc), "", tc.wants)
		})
	}
	// An unknown key without a close match lists the allowed ones.
	r := ValidateAgentProperties([]byte(`{"owner":"me"}`))
	if r.Valid() || !strings.Contains(r.Problems[0].Message, "expected one of: agentCardUri, description, displayName, framework, skills, version") {
		t.Errorf("got %v", r.Problems)
	}
}

// bigCard returns a valid 0.3 card of roughly n bytes (compact).
func bigCard(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"protocolVersion":"0.3.0","name":"Big","description":"A big card.","url":"https://big.example.test/","version":"1","capabilities":{"streaming":true},"defaultInputModes":["text/plain"],"defaultOutputModes":["text/plain"],"skills":[`)
	for i := 0; b.Len() < n-200; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"id":"skill-%d","name":"Skill number %d","description":"Does thing %d for the user, carefully.","tags":["tag-%d","common"],"examples":["Please do thing %d"]}`, i, i, i, i, i)
	}
	b.WriteString(`]}`)
	return b.Bytes()
}

// bigToolSpec returns a valid tool spec of roughly n bytes (compact).
func bigToolSpec(n int) []byte {
	var b bytes.Buffer
	b.WriteString(`{"tools":[`)
	for i := 0; b.Len() < n-300; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		fmt.Fprintf(&b, `{"name":"tool_%d","title":"Tool %d","description":"Does %d.","inputSchema":{"type":"object","properties":{"q":{"type":"string"}},"required":["q"]},"annotations":{"readOnlyHint":true}}`, i, i, i)
	}
	b.WriteString(`],"nextCursor":"x"}`)
	return b.Bytes()
}

func TestOversize(t *testing.T) {
	doc := bigCard(12000)
	// Pretty-printed, the text is larger still; the limit is on the compact form.
	var pretty bytes.Buffer
	_ = json.Indent(&pretty, doc, "", "    ")
	r := ValidateAgentCard(pretty.Bytes())
	size := len(r.Compact)
	checkResult(t, pretty.Bytes(), r, "0.3", []want{
		e("", 1, 1, "{", fmt.Sprintf("the agent card is %d bytes as compact JSON, over the registry's limit of 10240 bytes", size)),
	})
	// Just under the limit once compact: valid, even though the indented text is over it.
	small := bigCard(9000)
	pretty.Reset()
	_ = json.Indent(&pretty, small, "", "        ")
	if pretty.Len() <= MaxDocumentBytes {
		t.Fatalf("fixture too small: %d", pretty.Len())
	}
	if r := ValidateAgentCard(pretty.Bytes()); !r.Valid() {
		t.Errorf("compact form under the limit was rejected: %v", r.Problems)
	}
	// The same limit applies to tool specs and AgentProperties.
	if r := ValidateToolSpec(bigToolSpec(11000)); r.Valid() || !strings.Contains(r.Problems[0].Message, "tool spec is") {
		t.Errorf("tool spec over the limit: %v", r.Problems)
	}
	props := `{"description":"` + strings.Repeat("x", MaxDocumentBytes) + `"}`
	if r := ValidateAgentProperties([]byte(props)); r.Valid() || !strings.Contains(r.Problems[0].Message, "AgentProperties is") {
		t.Errorf("properties over the limit: %v", r.Problems)
	}
}

func TestInvalidJSON(t *testing.T) {
	for _, tc := range []struct {
		doc       string
		line, col int
		msg       string
	}{
		{"", 1, 1, "empty document"},
		{"   \n ", 2, 2, "empty document"},
		{`{"a": 1,`, 1, 9, "unexpected end of input"},
		{"{\n  \"a\": tru\n}", 2, 11, "invalid character '\\n' in literal true"},
		{"{\n\t\"é\": [1 2]\n}", 2, 10, "invalid character '2' after array element"},
		{`{} {}`, 1, 4, "unexpected data after the JSON value"},
		{`{"a":1}]`, 1, 8, "unexpected data after the JSON value"},
		{"{\n \"a\": \"\xff\"}", 2, 8, "invalid UTF-8 byte 0xff"},
		{`{"a": "\udc00"}`, 1, 8, `unpaired surrogate \udc00`},
	} {
		for name, fn := range map[string]func([]byte) *Result{"card": ValidateAgentCard, "tools": ValidateToolSpec, "properties": ValidateAgentProperties} {
			r := fn([]byte(tc.doc))
			if r.Valid() || len(r.Problems) != 1 || r.Compact != nil {
				t.Fatalf("%s %q: want one error and no compact form, got %v", name, tc.doc, r.Problems)
			}
			p := r.Problems[0]
			if p.Line != tc.line || p.Column != tc.col || !strings.Contains(p.Message, tc.msg) || !strings.HasPrefix(p.Message, "invalid JSON: ") {
				t.Errorf("%s %q: got %s, want line %d column %d containing %q", name, tc.doc, p, tc.line, tc.col, tc.msg)
			}
		}
		_, err := Normalize([]byte(tc.doc))
		var je *jsoncanon.Error
		if !errors.As(err, &je) {
			t.Fatalf("Normalize(%q) = %v, want a *jsoncanon.Error", tc.doc, err)
		}
		if line, col := lineCol([]byte(tc.doc), lineStarts([]byte(tc.doc)), je.Offset); line != tc.line || col != tc.col {
			t.Errorf("Normalize(%q) = %v, want an error at %d:%d", tc.doc, err, tc.line, tc.col)
		}
	}
}

// TestDuplicateKey: a repeated key is an error at the repeat, with its
// pointer; the registry and encoding/json would silently keep one value.
func TestDuplicateKey(t *testing.T) {
	doc := []byte("{\n  \"skills\": [{\"id\": \"a\",\n    \"id\": \"b\"}]\n}")
	checkResult(t, doc, ValidateAgentCard(doc), "", []want{
		e("/skills/0/id", 3, 5, `"id": "b"`, `duplicate key "id": an object may name a key once`),
	})
	r := ValidateToolSpec([]byte(`{"tools":[],"tools":[]}`))
	if r.Valid() || len(r.Problems) != 1 || r.Problems[0].String() != `/tools: duplicate key "tools": an object may name a key once` {
		t.Errorf("one-line document: %v", r.Problems)
	}
}

// TestNumberBeyondDoubleRange: a number no IEEE 754 double holds (1e400) has
// no RFC 8785 form, so the tool lock could not digest it nor the registry
// keep it: every validator refuses it, at its pointer and line, instead of
// letting a document through that a later gate cannot evaluate.
func TestNumberBeyondDoubleRange(t *testing.T) {
	for name, tc := range map[string]struct {
		validate func([]byte) *Result
		doc, ptr string
	}{
		"tool spec": {ValidateToolSpec, "{\"tools\": [{\"name\": \"a\", \"inputSchema\": {\"type\": \"object\",\n" +
			"  \"properties\": {\"q\": {\"type\": \"string\", \"maxLength\": 1e400}}}}]}", "/tools/0/inputSchema/properties/q/maxLength"},
		"agent card": {ValidateAgentCard, "{\"name\": \"a\",\n  \"capabilities\": {\"extensions\": [{\"uri\": \"u\", \"params\": {\"n\": 1e400}}]}}",
			"/capabilities/extensions/0/params/n"},
		"AgentProperties": {ValidateAgentProperties, "{\"description\": \"a\",\n  \"skills\": [-1E+999]}", "/skills/0"},
	} {
		r := tc.validate([]byte(tc.doc))
		if r.Valid() || len(r.Problems) != 1 || r.Compact != nil {
			t.Fatalf("%s: want one error and no compact form, got %v", name, r.Problems)
		}
		p := r.Problems[0]
		if p.Pointer != tc.ptr || p.Line != 2 || !strings.Contains(p.Message, "is beyond the range of an IEEE 754 double") ||
			strings.HasPrefix(p.Message, "invalid JSON") {
			t.Errorf("%s: got %s, want line 2 at %s, the number beyond the double range", name, p, tc.ptr)
		}
	}
}

func TestProblemString(t *testing.T) {
	for _, tc := range []struct {
		p    Problem
		want string
	}{
		{Problem{Pointer: "/skills/0/tags", Line: 3, Column: 5, Message: "expected array, found string"}, "line 3, column 5: /skills/0/tags: expected array, found string"},
		{Problem{Pointer: "", Line: 1, Column: 1, Message: "m"}, "line 1, column 1: (root): m"},
		{Problem{Pointer: "/x", Message: "m"}, "/x: m"},
		{Problem{Message: "m"}, "(root): m"},
	} {
		if got := tc.p.String(); got != tc.want {
			t.Errorf("got %q, want %q", got, tc.want)
		}
	}
}

func TestResultAccessors(t *testing.T) {
	r := &Result{Problems: []Problem{{Severity: SeverityWarning, Message: "w"}}}
	if !r.Valid() || len(r.Errors()) != 0 || len(r.Warnings()) != 1 {
		t.Error("warning-only result must be valid")
	}
	r.Problems = append(r.Problems, Problem{Severity: SeverityError, Message: "e"})
	if r.Valid() || len(r.Errors()) != 1 || len(r.Warnings()) != 1 {
		t.Error("result with an error must be invalid")
	}
}

// TestCache checks that results are cached by content, that callers cannot
// corrupt the cached copy, and that the cache is bounded.
func TestCache(t *testing.T) {
	doc := fixture(t, "card/skill-fields-0.3.json")
	r1 := ValidateAgentCard(doc)
	r1.Problems[0].Message = "corrupted"
	r1.Problems = r1.Problems[:1]
	r1.Compact[0] = 'X'
	r2 := ValidateAgentCard(doc)
	if len(r2.Problems) != 3 || r2.Problems[0].Message == "corrupted" || r2.Compact[0] != '{' {
		t.Fatalf("cached result was corrupted through a returned copy: %v", r2.Problems)
	}
	// The same bytes as another kind are a different entry.
	if r := ValidateToolSpec(doc); r.Kind != KindToolSpec {
		t.Fatalf("kind %q", r.Kind)
	}
	for i := 0; i < resultCacheSize+50; i++ {
		ValidateAgentProperties([]byte(fmt.Sprintf(`{"version":"%d"}`, i)))
	}
	if n := results.len(); n > resultCacheSize {
		t.Fatalf("cache holds %d entries, limit %d", n, resultCacheSize)
	}
	// Concurrent use (run with -race).
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int) {
			defer wg.Done()
			for j := 0; j < 50; j++ {
				ValidateAgentCard(doc)
				ValidateAgentProperties([]byte(fmt.Sprintf(`{"version":"c%d-%d"}`, i, j)))
			}
		}(i)
	}
	wg.Wait()
}

func TestSchemasCompileOnceAndOffline(t *testing.T) {
	s1, s2 := schemas(), schemas()
	if s1 != s2 {
		t.Fatal("schemas compiled twice")
	}
	for _, name := range schemaFiles {
		if s1.byName[name] == nil {
			t.Errorf("schema %s not compiled", name)
		}
	}
	// A $ref to anything that is not embedded is a compile error, not a fetch.
	files := map[string][]byte{
		"remote.json": []byte(`{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"a":{"$ref":"https://example.com/other.schema.json"}}}`),
		"local.json":  []byte(`{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"a":{"$ref":"missing.json"}}}`),
	}
	for _, name := range []string{"remote.json", "local.json"} {
		_, err := compileForTest(files, name)
		if err == nil || !strings.Contains(err.Error(), "only the embedded schemas are available") {
			t.Errorf("%s: want a refusal to load, got %v", name, err)
		}
	}
	// A $ref between embedded documents resolves.
	files["b.json"] = []byte(`{"type":"string"}`)
	files["a.json"] = []byte(`{"$schema":"http://json-schema.org/draft-07/schema#","properties":{"a":{"$ref":"b.json"}}}`)
	s, err := compileForTest(files, "a.json")
	if err != nil {
		t.Fatal(err)
	}
	if s.Validate(map[string]any{"a": 1.0}) == nil {
		t.Error("ref to an embedded document not applied")
	}
}

func TestAgentPropertiesSchema(t *testing.T) {
	b := AgentPropertiesSchema()
	var s map[string]any
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	if s["$schema"] != "http://json-schema.org/draft-07/schema#" || s["additionalProperties"] != false {
		t.Errorf("unexpected schema header: %v %v", s["$schema"], s["additionalProperties"])
	}
	skills := as[map[string]any](t, as[map[string]any](t, s["properties"])["skills"])
	items := as[map[string]any](t, skills["items"])
	if items["additionalProperties"] != false {
		t.Error("skills items must forbid additional properties")
	}
	b[0] = 'X'
	if AgentPropertiesSchema()[0] != '{' {
		t.Error("caller modified the embedded schema")
	}
}

// TestSchemaKeywords covers each kind of schema failure the embedded schemas
// can raise, with the wording the translation gives it (one-line documents:
// no positions).
func TestSchemaKeywords(t *testing.T) {
	for _, tc := range []struct {
		name     string
		validate func([]byte) *Result
		version  string
		doc      string
		wants    []want
	}{
		{"0.3 security schemes: required, enum, type, if/then", ValidateAgentCard, "0.3",
			`{"url":"u","protocolVersion":"0.3.0","name":"n","description":"d","version":"1","skills":[],` + officialFields + `,"securitySchemes":{"a":{"type":"apiKey"},"b":{"type":"nope"},"c":{"type":"http","scheme":1},"d":{}}}`,
			[]want{
				e("/securitySchemes/a", 0, 0, "", `missing required property "in"`),
				e("/securitySchemes/a", 0, 0, "", `missing required property "name"`),
				e("/securitySchemes/b/type", 0, 0, "", `expected one of "apiKey", "http", "oauth2", "openIdConnect", "mutualTLS", found string "nope"`),
				e("/securitySchemes/c/scheme", 0, 0, "", "expected string, found number"),
				e("/securitySchemes/d", 0, 0, "", `missing required property "type"`),
			}},
		{"1.0 oneofs, aliases, nested types", ValidateAgentCard, "1.0",
			`{"supportedInterfaces":[{}],"name":"n","description":"d","version":"1","skills":[],"defaultInputModes":[],"defaultOutputModes":[],"securitySchemes":{"a":{},"b":{"apiKeySecurityScheme":{"location":"header","name":"k"},"mtlsSecurityScheme":{}}},"capabilities":{"extensions":[{"params":[]}]}}`,
			[]want{
				e("/capabilities/extensions/0/params", 0, 0, "", "expected object, found array"),
				e("/securitySchemes/a", 0, 0, "", "expected exactly one of apiKeySecurityScheme, httpAuthSecurityScheme, mtlsSecurityScheme, oauth2SecurityScheme, openIdConnectSecurityScheme, found none"),
				e("/securitySchemes/b", 0, 0, "", `found 2 ("apiKeySecurityScheme", "mtlsSecurityScheme")`),
				e("/supportedInterfaces/0", 0, 0, "", `missing required property "protocolBinding" (also accepted as "protocol_binding")`),
				e("/supportedInterfaces/0", 0, 0, "", `missing required property "protocolVersion" (also accepted as "protocol_version")`),
				e("/supportedInterfaces/0", 0, 0, "", `missing required property "url"`),
			}},
		// The library URL-escapes the tokens of its locations; pointers here
		// are plain RFC 6901, and a snake_case alias is typed too.
		{"1.0 keys that need escaping, proto names", ValidateAgentCard, "1.0",
			`{"supported_interfaces":[{"url":"u","protocol_binding":"JSONRPC","protocol_version":"1.0"}],"name":"n","description":"d","version":"1","skills":[],"capabilities":{},"default_output_modes":[],"default_input_modes":"x","securitySchemes":{"my scheme":{"apiKeySecurityScheme":5},"~1/x":{"apiKeySecurityScheme":5}}}`,
			[]want{
				e("/default_input_modes", 0, 0, "", "expected array, found string"),
				e("/securitySchemes/my scheme/apiKeySecurityScheme", 0, 0, "", "expected object, found number"),
				e("/securitySchemes/~01~1x/apiKeySecurityScheme", 0, 0, "", "expected object, found number"),
			}},
		{"tool spec: enum, format, minimum", ValidateToolSpec, "",
			`{"tools":[{"name":"a","inputSchema":{"type":"object"},"icons":[{"src":"not a uri","theme":"dim"}]}],"ttlMs":-1,"cacheScope":"x"}`,
			[]want{
				e("/cacheScope", 0, 0, "", `expected one of "private", "public", found string "x"`),
				e("/tools/0/icons/0/src", 0, 0, "", `expected a valid uri, found string "not a uri"`),
				e("/tools/0/icons/0/theme", 0, 0, "", `expected one of "dark", "light", found string "dim"`),
				e("/ttlMs", 0, 0, "", "expected a number >= 0, found -1"),
			}},
		{"tool spec: integer", ValidateToolSpec, "", `{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"ttlMs":1.5}`,
			[]want{e("/ttlMs", 0, 0, "", "expected integer, found number")}},
		{"tool spec: an integer written 2.0", ValidateToolSpec, "", `{"tools":[{"name":"a","inputSchema":{"type":"object"}}],"ttlMs":2.0}`, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			checkResult(t, []byte(tc.doc), tc.validate([]byte(tc.doc)), tc.version, tc.wants)
		})
	}
}
