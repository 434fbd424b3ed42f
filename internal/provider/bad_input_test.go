package provider

// Bad input, end to end: each malformed configuration below goes through
// OpenTofu (plan only) against one bundled registry server and must be
// rejected at plan with an error in the provider's own words that names the
// offending field (the attribute path, or the JSON pointer and line:column
// inside a document). None of them may cause a write: the server's recorded
// requests are checked once every case has run.

import (
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
)

type badInputCase struct {
	name string
	// body is the configuration below the provider block.
	body string
	// want are phrases that must appear, in this order, in the error (any
	// whitespace between words: the CLI wraps long lines).
	want []string
}

// hclString quotes s as an HCL string literal: control characters (NUL
// included) become \uNNNN escapes, and template sequences are escaped, so
// that the provider receives exactly s.
func hclString(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i, r := range s {
		switch {
		case r == '"' || r == '\\':
			b.WriteByte('\\')
			b.WriteRune(r)
		case r == '\n':
			b.WriteString(`\n`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\u%04X`, r)
		case (r == '$' || r == '%') && i+1 < len(s) && s[i+1] == '{':
			b.WriteRune(r)
			b.WriteRune(r)
		default:
			b.WriteRune(r)
		}
	}
	b.WriteByte('"')
	return b.String()
}

func badAgent(serviceID, displayName, cardExpr string) string {
	return fmt.Sprintf(`
resource "agentregistry_agent" "test" {
  service_id   = %s
  display_name = %s
  agent_card   = %s
}
`, hclString(serviceID), hclString(displayName), cardExpr)
}

// badCard is an agent with a card given as JSON text.
func badCard(doc string) string { return badAgent("bad-input-agent", "Bad Input", hclString(doc)) }

// badServiceID is a valid agent with the given service_id.
func badServiceID(id string) string {
	return badAgent(id, "Bad Input", "jsonencode("+resJSON(relCardA)+")")
}

func badMcp(interfaces, toolSpecExpr string) string {
	return fmt.Sprintf(`
resource "agentregistry_mcp_server" "test" {
  service_id = "bad-input-mcp"
  interfaces = [%s]
  tool_spec  = %s
}
`, interfaces, toolSpecExpr)
}

func badTools(doc string) string { return badMcp(resJSONRPCInterface, hclString(doc)) }

// sizedTool is a tool, as compact JSON, whose description has n bytes.
func sizedTool(name string, n int) string {
	return `{"name":"` + name + `","description":"` + strings.Repeat("d", n) + `","inputSchema":{"type":"object"}}`
}

func badInterface(url, binding string) string {
	return badMcp(fmt.Sprintf("{ url = %s, protocol_binding = %s }", hclString(url), hclString(binding)),
		"jsonencode("+resJSON(resToolSpec("Weather forecasts"))+")")
}

func badProperties(workload, propertiesExpr string) string {
	return fmt.Sprintf(`
resource "agentregistry_agent_properties" "test" {
  workload   = %s
  properties = %s
}
`, hclString(workload), propertiesExpr)
}

func badWorkload(workload string) string {
	return badProperties(workload, "jsonencode("+resJSON(resProperties("1.0.0"))+")")
}

func badPropertiesDoc(doc string) string { return badProperties(relWorkload, hclString(doc)) }

func badSkills(args string) string {
	return fmt.Sprintf(`
data "agentregistry_skills" "test" {
  %s
}
`, args)
}

func badQuery(q string) string { return badSkills("query = " + hclString(q)) }

// a valid A2A 0.3 card as a JSON object, to break one field at a time.
func badCard03(mutate func(map[string]any)) string {
	c := resCard("Converts currencies", resCardSkill("convert", "Converts an amount", "fx"))
	mutate(c)
	return resJSON(c)
}

// badCard03Indented is badCard03 as an indented, multi-line JSON text (a
// file as people write it).
func badCard03Indented(mutate func(map[string]any)) string {
	var c map[string]any
	if err := json.Unmarshal([]byte(badCard03(mutate)), &c); err != nil {
		panic(err)
	}
	b, _ := json.MarshalIndent(c, "", "  ")
	return string(b)
}

// a valid A2A 1.0 card, to break one field at a time.
func badCard10(mutate func(map[string]any)) string {
	c := map[string]any{
		"name": "Currency Agent", "description": "Converts currencies", "version": "1.0.0",
		"supportedInterfaces": []any{map[string]any{
			"url": "https://agents.example.com/a2a", "protocolBinding": "JSONRPC", "protocolVersion": "1.0",
		}},
		"capabilities": map[string]any{}, "defaultInputModes": []string{"text/plain"}, "defaultOutputModes": []string{"text/plain"},
		"skills": []any{resCardSkill("convert", "Converts an amount", "fx")},
	}
	mutate(c)
	return resJSON(c)
}

func badInputCases() []badInputCase {
	const serviceIDRule = "Attribute service_id must be 4 to 63 characters of lowercase letters, digits and hyphens, starting with a letter"
	const card = "Invalid A2A Agent Card"
	const tools = "Invalid MCP Tool Spec"
	const props = "Invalid AgentProperties Document"
	const query = "Invalid Search Query"
	long := strings.Repeat("x", spec10KB)
	return []badInputCase{
		// Agent cards: invalid JSON, located by line and column.
		{"card/invalid-json", badCard("{\n  \"name\": \"Currency Agent\",\n  \"description\": ,\n  \"version\": \"1.0.0\"\n}"),
			[]string{card, "line 3, column 18: (root): invalid JSON"}},
		{"card/trailing-comma", badCard("{\n  \"name\": \"Currency Agent\",\n}"),
			[]string{card, "line 3, column 1: (root): invalid JSON"}},
		{"card/invalid-escape", badCard(`{"name":"a\qb"}`),
			[]string{card, "line 1, column 12: (root): invalid JSON: invalid character 'q' in string escape code"}},
		{"card/invalid-unicode-escape", badCard(`{"name":"\u12G4"}`),
			[]string{card, "line 1, column 14: (root): invalid JSON", `\u hexadecimal character escape`}},
		{"card/raw-nul-in-string", badCard("{\"name\":\"a\x00b\"}"),
			[]string{card, "line 1, column 11: (root): invalid JSON", "in string literal"}},
		{"card/empty-string", badAgent("bad-input-agent", "Bad Input", `""`),
			[]string{card, "line 1, column 1: (root): invalid JSON: empty document"}},
		{"card/not-an-object", badCard(`[]`),
			[]string{card, "(root): expected an A2A agent card (a JSON object), found array"}},
		// Agent cards: wrong types; every problem of the document in one diagnostic.
		{"card/wrong-types", badCard(badCard03(func(c map[string]any) { c["name"] = 42; c["skills"] = "convert" })),
			[]string{card, "2 problems", "/name: expected string, found number", "/skills: expected array, found string"}},
		{"card/skill-tags-not-array", badCard(badCard03(func(c map[string]any) {
			c["skills"] = []any{map[string]any{"id": "convert", "name": "Convert", "description": "d", "tags": "fx"}}
		})), []string{card, "/skills/0/tags: expected array"}},
		// Agent cards: required fields, per A2A version.
		{"card/0.3-missing-url", badCard(badCard03(func(c map[string]any) { delete(c, "url") })),
			[]string{card, `(root): missing required property "url"`}},
		{"card/0.3-missing-skills", badCard(badCard03(func(c map[string]any) { delete(c, "skills") })),
			[]string{card, `(root): missing required property "skills"`}},
		{"card/0.3-missing-skill-description", badCard(badCard03(func(c map[string]any) {
			c["skills"] = []any{map[string]any{"id": "convert", "name": "Convert", "tags": []string{"fx"}}}
		})), []string{card, `/skills/0: missing required property "description"`}},
		// A misspelt key: the error about the member it lacks names it (the
		// unknown-field warning is not shown when the plan fails).
		{"card/0.3-misspelt-skill-key", badCard(badCard03(func(c map[string]any) {
			c["skills"] = []any{map[string]any{"id": "convert", "name": "Convert", "descripton": "d", "tags": []string{"fx"}}}
		})), []string{card, `/skills/0: missing required property "description"; "descripton" is not a field here: did you mean "description"?`}},
		{"card/1.0-misspelt-skill-key", badCard(badCard10(func(c map[string]any) {
			c["skills"] = []any{map[string]any{"id": "convert", "name": "Convert", "descripton": "d", "tags": []string{"fx"}}}
		})), []string{card, `/skills/0: missing required property "description"; "descripton" is not a field here: did you mean "description"?`}},
		{"card/1.0-misspelt-top-level-key", badCard(badCard10(func(c map[string]any) {
			c["descripton"] = c["description"]
			delete(c, "description")
		})), []string{card, `(root): missing required property "description"; "descripton" is not a field here: did you mean "description"?`}},
		// The recommended form, jsonencode(jsondecode(...)), leaves one line:
		// the problem quotes the value and its neighbours instead of a line.
		{"card/one-line-form-quotes-the-skill", badAgent("bad-input-agent", "Bad Input", "jsonencode(jsondecode(<<-EOT\n"+
			badCard03Indented(func(c map[string]any) {
				c["skills"] = []any{resCardSkill("convert", "Converts an amount", "fx"), map[string]any{"id": "explain", "name": "Explain", "description": "Explains a rate.", "tags": "fx"}}
			})+"\nEOT\n))"),
			[]string{card, `/skills/1/tags: expected array, found string "fx"; look for {"description": "Explains a rate.", "id": "explain", "name": "Explain", "tags": "fx"}`}},
		{"card/0.3-unsupported-protocol-version", badCard(badCard03(func(c map[string]any) { c["protocolVersion"] = "0.1.0" })),
			[]string{card, `/protocolVersion: unsupported protocolVersion "0.1.0"`}},
		{"card/1.0-missing-version-and-tags", badCard(badCard10(func(c map[string]any) {
			delete(c, "version")
			c["skills"] = []any{map[string]any{"id": "convert", "name": "Convert", "description": "d"}}
		})), []string{card, `(root): missing required property "version"`, `/skills/0: missing required property "tags"`}},
		{"card/1.0-interface-missing-url", badCard(badCard10(func(c map[string]any) {
			c["supportedInterfaces"] = []any{map[string]any{"protocolBinding": "JSONRPC", "protocolVersion": "1.0"}}
		})), []string{card, `/supportedInterfaces/0: missing required property "url"`}},
		{"card/no-version-fields", badCard(badCard10(func(c map[string]any) { delete(c, "supportedInterfaces") })),
			[]string{card, "(root): cannot detect the A2A version"}},
		// A 1.0 card may keep the 0.3 fields for 0.3 clients (a hybrid card), typed as 0.3 types them.
		{"card/hybrid-0.3-url-not-a-string", badCard(badCard10(func(c map[string]any) { c["url"] = 5 })),
			[]string{card, "/url: expected string, found number"}},
		{"card/oversize", badCard(badCard03(func(c map[string]any) { c["description"] = long })),
			[]string{card, "(root): the agent card is", "bytes as compact JSON, over the registry's limit of 10240 bytes"}},

		// MCP tool specs.
		{"tools/tools-not-an-array", badTools(`{"tools":{}}`), []string{tools, "/tools: expected array, found object"}},
		{"tools/missing-tools", badTools(`{}`), []string{tools, `(root): missing required property "tools"`}},
		{"tools/missing-input-schema", badTools(`{"tools":[{"name":"a"}]}`),
			[]string{tools, `/tools/0: missing required property "inputSchema"`}},
		{"tools/input-schema-not-object-type", badTools(`{"tools":[{"name":"a","inputSchema":{"type":"string"}}]}`),
			[]string{tools, `/tools/0/inputSchema/type: expected "object"`}},
		{"tools/annotation-wrong-type", badTools("{\n \"tools\": [{\"name\": \"a\", \"inputSchema\": {\"type\": \"object\"},\n  \"annotations\": {\"readOnlyHint\": \"yes\"}}]}"),
			[]string{tools, "line 3, column", "/tools/0/annotations/readOnlyHint: expected boolean, found string"}},
		{"tools/oversize", badTools(`{"tools":[{"name":"a","description":"` + long + `","inputSchema":{"type":"object"}}]}`),
			[]string{tools, "over the registry's limit of 10240 bytes"}},
		// A 20 KB tool spec names its largest tools, as the live data source does.
		{"tools/oversize-names-the-largest-tools", badTools(`{"tools":[` + sizedTool("ping", 10) + "," + sizedTool("search", 12000) +
			"," + sizedTool("fetch", 8000) + `]}`),
			[]string{tools, "over the registry's limit of 10240 bytes (10 KB); reduce it by", fmt.Sprintf("; largest tools: search (%d bytes), fetch (%d bytes), ping (%d bytes)",
				len(sizedTool("search", 12000)), len(sizedTool("fetch", 8000)), len(sizedTool("ping", 10)))}},

		// MCP interfaces.
		{"interfaces/url-not-absolute", badInterface("mcp.example.com/weather", "JSONRPC"),
			[]string{"Attribute interfaces[0].url must be an absolute URL"}},
		{"interfaces/url-empty", badInterface("", "JSONRPC"),
			[]string{"Attribute interfaces[0].url must be an absolute URL"}},
		{"interfaces/url-without-host", badInterface("https://", "JSONRPC"),
			[]string{"Attribute interfaces[0].url must be an absolute URL"}},
		{"interfaces/url-file-scheme", badInterface("file:///etc/passwd", "JSONRPC"),
			[]string{"Attribute interfaces[0].url must be an absolute URL with the http or https scheme"}},
		{"interfaces/url-ftp-scheme", badInterface("ftp://mcp.example.com/tools", "JSONRPC"),
			[]string{"Attribute interfaces[0].url must be an absolute URL with the http or https scheme"}},
		{"interfaces/protocol-binding-unknown", badInterface("https://mcp.example.com/mcp", "SOAP"),
			[]string{"Attribute interfaces[0].protocol_binding value must be one of", "JSONRPC"}},
		{"interfaces/protocol-binding-lowercase", badInterface("https://mcp.example.com/mcp", "jsonrpc"),
			[]string{"Attribute interfaces[0].protocol_binding value must be one of", "JSONRPC"}},

		// Service ids.
		{"service-id/too-short", badServiceID("abc"), []string{serviceIDRule, `got: abc`}},
		{"service-id/uppercase", badServiceID("Currency-agent"), []string{serviceIDRule}},
		{"service-id/leading-digit", badServiceID("1currency"), []string{serviceIDRule}},
		{"service-id/leading-hyphen", badServiceID("-currency"), []string{serviceIDRule}},
		{"service-id/underscore", badServiceID("currency_agent"), []string{serviceIDRule}},
		{"service-id/too-long", badServiceID("a" + strings.Repeat("b", 63)), []string{serviceIDRule}},
		{"service-id/empty", badServiceID(""), []string{serviceIDRule}},
		{"service-id/rtl-mark", badServiceID("currency\u200f-agent"), []string{serviceIDRule}},
		{"service-id/nul", badServiceID("currency\x00agent"), []string{serviceIDRule}},
		{"service-id/non-ascii-letter", badServiceID("währung-agent"), []string{serviceIDRule}},

		// Display name and description lengths (characters, not bytes).
		{"display-name/64-characters", badAgent("bad-input-agent", strings.Repeat("x", 64), "jsonencode("+resJSON(relCardA)+")"),
			[]string{"Attribute display_name UTF-8 character count must be at most 63, got: 64"}},
		{"display-name/64-accented-characters", badAgent("bad-input-agent", strings.Repeat("é", 64), "jsonencode("+resJSON(relCardA)+")"),
			[]string{"Attribute display_name UTF-8 character count must be at most 63, got: 64"}},
		{"description/2049-characters", fmt.Sprintf(`
resource "agentregistry_agent" "test" {
  service_id  = "bad-input-agent"
  description = %q
  agent_card  = jsonencode(%s)
}
`, strings.Repeat("d", 2049), resJSON(relCardA)), []string{"Attribute description UTF-8 character count must be at most 2048, got: 2049"}},

		// App Hub workload names.
		{"workload/not-a-full-name", badWorkload("billing/invoice-helper"), []string{"Attribute workload must be a full App Hub workload name"}},
		{"workload/empty", badWorkload(""), []string{"Attribute workload must be a full App Hub workload name"}},
		{"workload/trailing-slash", badWorkload(relWorkload + "/"), []string{"Attribute workload must be a full App Hub workload name"}},
		{"workload/uppercase-id", badWorkload(strings.Replace(relWorkload, "invoice-helper", "Invoice-Helper", 1)),
			[]string{"Attribute workload must be a full App Hub workload name"}},
		{"workload/id-ends-with-hyphen", badWorkload(strings.Replace(relWorkload, "invoice-helper", "invoice-", 1)),
			[]string{"Attribute workload must be a full App Hub workload name"}},
		{"workload/rtl-mark-in-id", badWorkload(strings.Replace(relWorkload, "invoice-helper", "invoice\u200f-helper", 1)),
			[]string{"Attribute workload must be a full App Hub workload name"}},

		// AgentProperties documents.
		{"properties/misspelt-key", badPropertiesDoc("{\n  \"displayName\": \"Invoice Helper\",\n  \"sklls\": []\n}"),
			[]string{props, `line 3, column 3: /sklls: unknown property "sklls"`, `did you mean "skills"`}},
		{"properties/unknown-skill-key", badPropertiesDoc(`{"skills":[{"id":"a","tag":["x"]}]}`),
			[]string{props, `/skills/0/tag: unknown property "tag"`}},
		{"properties/wrong-type", badPropertiesDoc(`{"version":1}`), []string{props, "/version: expected string, found number"}},
		{"properties/not-an-object", badPropertiesDoc(`"x"`), []string{props, "(root): expected object, found string"}},
		{"properties/invalid-json", badPropertiesDoc("{\"version\": \"1\"\n \"framework\": \"adk\"}"),
			[]string{props, "line 2, column 2: (root): invalid JSON"}},

		// Search queries of agentregistry_skills.
		{"query/unbalanced-open", badQuery("(travel"), []string{query, `position 1: "(" is not closed`}},
		{"query/unbalanced-close", badQuery("travel)"), []string{query, `position 7: unexpected ")" without a matching "("`}},
		{"query/dangling-and", badQuery("travel AND"), []string{query, "position 11: expected a search term, found the end of the query"}},
		{"query/leading-or", badQuery("OR travel"), []string{query, `position 1: expected a search term, found the operator "OR"`}},
		{"query/dangling-not", badQuery("NOT"), []string{query, "expected a search term"}},
		{"query/unknown-field", badQuery("colour:red"), []string{query, `position 1: unknown field "colour"`}},
		{"query/unterminated-quote", badQuery(`skills.tags:"fx`), []string{query, "the quoted value is not closed"}},
		{"query/field-without-value", badQuery("skills.tags="), []string{query, "expected a value after skills.tags="}},
		{"query/lone-star", badQuery("*"), []string{query, "a lone * is not a search term"}},
		{"query/empty", badQuery(""), []string{query, "The search query is empty and no tags are set"}},
		{"query/blank", badQuery("  \t "), []string{query, "The search query is empty and no tags are set"}},
		{"query/empty-with-empty-tags", badSkills("query = \"\"\n  tags  = []"), []string{query, "The search query is empty and no tags are set"}},
		{"tags/empty-tag", badSkills(`tags = [""]`), []string{"Attribute tags[0] string length must be at least 1"}},

		// Agents without a card, endpoints, bindings.
		{"agent/card-and-interfaces", badCardless("agent_card = jsonencode(" + resJSON(resCard("x", resCardSkill("a", "b", "c"))) + ")\n  interfaces = [" + resAgentInterface + "]"),
			[]string{"Invalid Attribute Combination", "agent_card", "interfaces"}},
		{"agent/neither-card-nor-interfaces", badCardless(""), []string{"Exactly one of these attributes must be configured", "agent_card,interfaces"}},
		{"agent/interface-bad-binding", badCardless(`interfaces = [{ url = "https://a.example.com", protocol_binding = "SOAP" }]`),
			[]string{"protocol_binding", "JSONRPC"}},
		{"mcp/neither-tool-spec-nor-interfaces", `
resource "agentregistry_mcp_server" "test" {
  service_id = "bad-input-mcp"
}
`, []string{"At least one of these attributes must be configured", "tool_spec,interfaces"}},
		{"endpoint/no-interfaces", badEndpoint(""), []string{"interfaces", "at least 1"}},
		{"endpoint/relative-url", badEndpoint(`{ url = "/v1", protocol_binding = "HTTP_JSON" }`), []string{"Invalid URL", "/v1"}},
		{"binding/id-too-short", badBinding("abc", `target = "urn:mcp:a:b:c"`), []string{"binding_id", "between 4 and 63"}},
		{"binding/id-uppercase", badBinding("Planner", `target = "urn:mcp:a:b:c"`), []string{"binding_id", "must start with a lower-case letter"}},
		{"binding/id-trailing-hyphen", badBinding("planner-", `target = "urn:mcp:a:b:c"`), []string{"binding_id", "not end with a hyphen"}},
		{"binding/target-not-urn", badBinding("planner", `target = "projects/p/locations/l/agents/a"`), []string{"target must be urn:agent"}},
		{"binding/target-two-segments", badBinding("planner", `target = "urn:mcp:acme:flights"`), []string{"target must be urn:agent"}},
		{"binding/source-not-agent", badBinding("planner", "source = \"urn:endpoint:a:b:c\"\n  target = \"urn:mcp:a:b:c\""), []string{"source must be an agent URN"}},
		{"binding/auth-provider-shape", badBinding("planner", "target = \"urn:mcp:a:b:c\"\n  auth_provider = \"projects/p/authProviders/a\""),
			[]string{"auth_provider must be", "authProviders"}},
		{"binding/scopes-without-provider", badBinding("planner", "target = \"urn:mcp:a:b:c\"\n  scopes = [\"read\"]"), []string{"auth_provider"}},
		{"binding/continue-uri-relative", badBinding("planner", "target = \"urn:mcp:a:b:c\"\n  auth_provider = \"projects/p/locations/l/authProviders/a\"\n  continue_uri = \"done\""),
			[]string{"Invalid URL", "continue_uri"}},
		{"endpoint/name-of-another-kind", `data "agentregistry_endpoint" "x" { name = "projects/p/locations/l/mcpServers/m" }`, []string{"must be a full endpoint name"}},
		{"agent-properties/bad-workload", `data "agentregistry_agent_properties" "x" { workload = "w" }`, []string{"workload must be"}},
	}
}

func badCardless(body string) string {
	return fmt.Sprintf(`
resource "agentregistry_agent" "test" {
  service_id = "bad-input-agent"
  %s
}
`, body)
}

func badEndpoint(interfaces string) string {
	return fmt.Sprintf(`
resource "agentregistry_endpoint" "test" {
  service_id = "bad-input-endpoint"
  interfaces = [%s]
}
`, interfaces)
}

func badBinding(id, body string) string {
	return fmt.Sprintf(`
resource "agentregistry_binding" "test" {
  binding_id = %q
  %s
}
`, id, body)
}

// spec10KB is just over the registry's document limit.
const spec10KB = 10300

func TestAccBadInput(t *testing.T) {
	r := startRegistry(t)
	cases := append(badInputCases(), badSkillInputCases(t)...)
	if len(cases) < 30 {
		t.Fatalf("the table must hold at least 30 inputs, has %d", len(cases))
	}
	t.Run("cases", func(t *testing.T) {
		for _, c := range cases {
			t.Run(c.name, func(t *testing.T) {
				resource.ParallelTest(t, resource.TestCase{
					ProtoV6ProviderFactories: testAccProviderFactories,
					Steps: []resource.TestStep{{
						Config:      r.config(c.body),
						PlanOnly:    true,
						ExpectError: relWords(c.want...),
					}},
				})
			})
		}
	})
	// Every case has finished: nothing may have been written, and a bad
	// search query must not have reached the registry at all.
	for _, req := range r.srv.Requests() {
		switch {
		case req.Method == http.MethodPost && strings.HasSuffix(req.Path, ":search"):
			t.Errorf("a malformed query reached the registry: %s %s", req.Method, req.Path)
		case req.Method != http.MethodGet:
			t.Errorf("a rejected configuration wrote to the registry: %s %s", req.Method, req.Path)
		}
	}
	if t.Failed() || testing.Short() {
		return
	}
	// The check above can fail: a valid configuration on the same server
	// does write.
	t.Run("control", func(t *testing.T) {
		resource.Test(t, resource.TestCase{
			ProtoV6ProviderFactories: testAccProviderFactories,
			Steps: []resource.TestStep{{
				Config: r.config(badServiceID("bad-input-control")),
				Check: func(*terraform.State) error {
					if len(r.writesOf("POST")) == 0 {
						return fmt.Errorf("expected the valid configuration to create the agent, got writes %v", r.writes())
					}
					return nil
				},
			}},
		})
	})
}

// The limits sit where the registry puts them: each of these inputs is at
// the edge of a rule above and must plan (a create, or a search), not fail.
func TestAccBadInput_boundariesAreAccepted(t *testing.T) {
	r := startRegistry(t)
	card := "jsonencode(" + resJSON(relCardA) + ")"
	for _, c := range []struct{ name, body string }{
		{"display-name-63-accented-characters", badAgent("bad-input-agent", strings.Repeat("é", 63), card)},
		{"description-2048-accented-characters", fmt.Sprintf(`
resource "agentregistry_agent" "test" {
  service_id  = "a123"
  description = %q
  agent_card  = %s
}
`, strings.Repeat("ü", 2048), card)},
		{"service-id-63-characters", badServiceID("a" + strings.Repeat("-", 61) + "z")},
		{"interface-url-with-port-and-query", badInterface("http://127.0.0.1:8080/mcp?tenant=a", "HTTP_JSON")},
		{"workload-id-63-characters", badWorkload(strings.Replace(relWorkload, "invoice-helper", "a"+strings.Repeat("1", 62), 1))},
	} {
		t.Run(c.name, func(t *testing.T) {
			resource.ParallelTest(t, resource.TestCase{
				ProtoV6ProviderFactories: testAccProviderFactories,
				Steps: []resource.TestStep{{
					Config:             r.config(c.body),
					PlanOnly:           true,
					ExpectNonEmptyPlan: true,
				}},
			})
		})
	}
	t.Run("empty-query-with-tags", func(t *testing.T) {
		resource.ParallelTest(t, resource.TestCase{
			ProtoV6ProviderFactories: testAccProviderFactories,
			Steps: []resource.TestStep{{
				Config: r.config(badSkills(`query = ""
  tags  = ["fx"]`)),
				PlanOnly: true,
			}},
		})
	})
}
