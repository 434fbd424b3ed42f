package spec

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
)

// examples is the examples folder of the repository, whose documents the
// docs show.
const examples = "../../examples"

// TestExampleCards: every agent card of the examples is valid with no
// warning: the docs show them as cards to copy.
func TestExampleCards(t *testing.T) {
	var files []string
	for _, pattern := range []string{"*/*/cards/*.json", "*/cards/*.json", "functions/*/*agent-card.json"} {
		m, err := filepath.Glob(filepath.Join(examples, pattern))
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range m {
			if !strings.HasSuffix(f, ".agent-properties.json") {
				files = append(files, f)
			}
		}
	}
	if len(files) < 10 {
		t.Fatalf("found %d example cards, want at least 10: %v", len(files), files)
	}
	for _, f := range files {
		doc, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if r := ValidateAgentCard(doc); r.A2AVersion == "" || len(r.Problems) > 0 {
			t.Errorf("%s: A2A version %q, problems %v", f, r.A2AVersion, r.Problems)
		}
	}
}

const (
	example10Card       = examples + "/resources/agentregistry_agent/cards/invoice-helper.json"
	example10Properties = examples + "/resources/agentregistry_agent/cards/invoice-helper.agent-properties.json"
)

// TestExample10Card: the complete A2A 1.0 card of the agent page is 1.0,
// and the official A2A 1.0.1 schema refuses nothing in it either.
func TestExample10Card(t *testing.T) {
	doc, err := os.ReadFile(example10Card)
	if err != nil {
		t.Fatal(err)
	}
	if r := ValidateAgentCard(doc); r.A2AVersion != A2AVersion10 {
		t.Fatalf("A2A version %q, want 1.0", r.A2AVersion)
	}
	// What the page says is planned from it.
	c, err := ParseAgentCard(doc)
	if err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range c.Skills {
		ids = append(ids, s.ID)
	}
	if c.Version != "2.1.0" || len(c.URLs) != 3 || !slices.Equal(ids, []string{"lookup-invoice", "explain-charge"}) {
		t.Errorf("version %q, URLs %q, skill ids %q: the agent page says 2.1.0, three URLs, lookup-invoice and explain-charge", c.Version, c.URLs, ids)
	}
	official, _ := officialSchema10(t)
	v, _ := jsoncanon.Decode(doc)
	if err := official.Validate(v); err != nil {
		t.Errorf("the official A2A 1.0.1 schema refuses the card: %#v", err)
	}
}

// TestExample10AgentProperties: the AgentProperties the agent page shows
// for the 1.0 card are what agent_properties_from_card derives from it, with
// the framework and URI of the example, and valid.
func TestExample10AgentProperties(t *testing.T) {
	card, err := os.ReadFile(example10Card)
	if err != nil {
		t.Fatal(err)
	}
	shown, err := os.ReadFile(example10Properties)
	if err != nil {
		t.Fatal(err)
	}
	tf, err := os.ReadFile(examples + "/resources/agentregistry_agent/resource-a2a-1.0.tf")
	if err != nil {
		t.Fatal(err)
	}
	const framework, uri = "google-adk", "https://agents.example.com/invoices/.well-known/agent-card.json"
	if !strings.Contains(string(tf), `"`+framework+`"`) || !strings.Contains(string(tf), `"`+uri+`"`) {
		t.Fatalf("resource-a2a-1.0.tf no longer passes framework %q and URI %q", framework, uri)
	}
	derived, err := AgentPropertiesFromCard(card, framework, uri)
	if err != nil {
		t.Fatal(err)
	}
	if eq, err := jsoncanon.Equal(derived, shown); err != nil || !eq {
		t.Errorf("%s differs from what the card gives (%v):\n%s", example10Properties, err, derived)
	}
	if r := ValidateAgentProperties(shown); len(r.Problems) > 0 {
		t.Errorf("%s: %v", example10Properties, r.Problems)
	}
}

// TestAgentPageMessages: the messages that the agent page quotes, word for
// word, are what the validator says of the page's 1.0 card with the
// page's mistakes: a skill's tags written as a string, its description's
// key misspelt, a binding misnamed.
func TestAgentPageMessages(t *testing.T) {
	page, err := os.ReadFile("../../templates/resources/agent.md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	broken := func(mutate func(card map[string]any, skill map[string]any)) map[string]any {
		var card map[string]any
		doc, err := os.ReadFile(example10Card)
		if err != nil || json.Unmarshal(doc, &card) != nil {
			t.Fatalf("%s: %v", example10Card, err)
		}
		mutate(card, as[map[string]any](t, as[[]any](t, card["skills"])[1]))
		return card
	}
	oneLine := func(v any) []byte { b, _ := json.Marshal(v); return b }
	raw, err := os.ReadFile(example10Card)
	if err != nil {
		t.Fatal(err)
	}
	// The file as shown, with the misspelling: its own lines.
	misspeltFile := strings.Replace(string(raw), `"description": "Explains one line`, `"descripton": "Explains one line`, 1)
	misspelt := broken(func(_, skill map[string]any) {
		skill["descripton"] = skill["description"]
		delete(skill, "description")
	})
	binding := func(name string) map[string]any {
		return broken(func(card, _ map[string]any) {
			as[map[string]any](t, as[[]any](t, card["supportedInterfaces"])[0])["protocolBinding"] = name
		})
	}
	pageText := strings.Join(strings.Fields(string(page)), " ") // the page wraps its lines
	for _, tc := range []struct {
		doc    []byte
		said   string // in what the validator says of the first problem
		quoted string // on the page; said when empty
	}{
		{oneLine(broken(func(_, skill map[string]any) { skill["tags"] = "billing" })),
			`/skills/1/tags: expected array, found string "billing"; look for {"description": "Explains one line of an…", "examples": […], "id": "explain-charge", "name": "Explain a charge", "tags": "billing"}`, ""},
		{[]byte(misspeltFile), "line 29, column 5: /skills/1: ", "(`line 29, column 5: /skills/1: ...`)"},
		{oneLine(misspelt), `/skills/1: missing required property "description"; "descripton" is not a field here: did you mean "description"?`, ""},
		{oneLine(binding("JSON-RPC")), `did you mean "JSONRPC"?`, "`JSON-RPC` gives *did you mean \"JSONRPC\"?*"},
		{oneLine(binding("HTTP_JSON")), `did you mean "HTTP+JSON"?`, "`HTTP_JSON` (the registry API's name, which `interfaces[].protocol_binding` uses) gives `HTTP+JSON`"},
	} {
		r := ValidateAgentCard(tc.doc)
		if len(r.Problems) == 0 || !strings.Contains(r.Problems[0].String(), tc.said) {
			t.Errorf("want the validator to say %q, got %v", tc.said, r.Problems)
		}
		quoted := tc.quoted
		if quoted == "" {
			quoted = tc.said
		}
		if !strings.Contains(pageText, quoted) {
			t.Errorf("the page does not quote %q", quoted)
		}
	}
}
