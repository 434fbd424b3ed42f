package spec

import (
	"reflect"
	"strings"
	"testing"
)

func TestParseAgentCard(t *testing.T) {
	c, err := ParseAgentCard(fixture(t, "card/valid-0.3.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := &AgentCard{
		A2AVersion:  "0.3",
		Name:        "Invoice Helper",
		Description: "Answers questions about invoices.",
		Version:     "2.1.0",
		URLs:        []string{"https://invoices.example.test/a2a", "https://invoices.example.test/grpc"},
		Skills: []Skill{
			{ID: "lookup-invoice", Name: "Look up an invoice", Description: "Finds an invoice by number or customer.", Tags: []string{"billing", "invoices"}, Examples: []string{"Where is invoice 2024-117?"}},
			{ID: "explain-charge", Name: "Explain a charge", Description: "Explains a line item.", Tags: []string{}},
		},
	}
	if !reflect.DeepEqual(c, want) {
		t.Errorf("got  %#v\nwant %#v", c, want)
	}

	c, err = ParseAgentCard(fixture(t, "card/valid-1.0.json"))
	if err != nil {
		t.Fatal(err)
	}
	if c.A2AVersion != "1.0" || c.Version != "2.1.0" || !reflect.DeepEqual(c.URLs, []string{"https://invoices.example.test/a2a"}) || len(c.Skills) != 1 || c.Skills[0].Tags[0] != "billing" {
		t.Errorf("1.0 card: %#v", c)
	}

	// URLs follow the detected shape: a 1.0 card's supportedInterfaces (or
	// the ProtoJSON proto name), never 0.3's additionalInterfaces or url.
	for _, tc := range []struct {
		doc     string
		version string
		urls    []string
	}{
		{`{"supported_interfaces":[{"url":"https://a.test/1"},{"url":"https://a.test/2"}],"additionalInterfaces":[{"url":"https://a.test/3"}],"version":"7"}`, "7", []string{"https://a.test/1", "https://a.test/2"}},
		{`{"supportedInterfaces":[{"url":"https://a.test/1"},{"url":"https://a.test/1"},{"url":5},"x"],"supported_interfaces":[{"url":"https://a.test/2"}]}`, "", []string{"https://a.test/1", "https://a.test/2"}},
		{`{"url":"https://a.test/0","protocolVersion":"0.3.0","version":"1.0.0","additionalInterfaces":[{"url":"https://a.test/0"},{"url":"https://a.test/9"}]}`, "1.0.0", []string{"https://a.test/0", "https://a.test/9"}},
		{`{"protocolVersion":"0.3.0","version":5}`, "", nil},
	} {
		c, err := ParseAgentCard([]byte(tc.doc))
		if err != nil || c.Version != tc.version || !reflect.DeepEqual(c.URLs, tc.urls) {
			t.Errorf("ParseAgentCard(%s): version %q, URLs %q, %v; want %q, %q", tc.doc, c.Version, c.URLs, err, tc.version, tc.urls)
		}
	}

	for file, version := range map[string]string{
		"card/protocol-0.2.json": "0.3", "card/unsupported-version.json": "", "card/unsupported-version-0.4.json": "", "card/neither.json": "",
		"card/hybrid-url-only-1.0.json": "1.0", "card/empty-interfaces-0.3.json": "0.3",
	} {
		c, err := ParseAgentCard(fixture(t, file))
		if err != nil || c.A2AVersion != version {
			t.Errorf("%s: version %q, %v; want %q", file, c.A2AVersion, err, version)
		}
	}
	// Wrong types are left empty, not an error.
	c, err = ParseAgentCard([]byte(`{"name":1,"supportedInterfaces":"x","skills":[{"id":"a","tags":"t"},3]}`))
	if err != nil || c.Name != "" || len(c.Skills) != 1 || c.Skills[0].Tags == nil || len(c.Skills[0].Tags) != 0 {
		t.Errorf("lenient parse: %#v %v", c, err)
	}
	if _, err := ParseAgentCard([]byte(`[1]`)); err == nil {
		t.Error("array accepted")
	}
	if _, err := ParseAgentCard([]byte(`{`)); err == nil {
		t.Error("invalid JSON accepted")
	}
}

func TestParseToolSpec(t *testing.T) {
	tools, err := ParseToolSpec(fixture(t, "tools/valid.json"))
	if err != nil {
		t.Fatal(err)
	}
	want := []Tool{
		{Name: "get_invoice", Title: "Get invoice", Description: "Fetches an invoice.", ReadOnlyHint: true, DestructiveHint: true, IdempotentHint: false, OpenWorldHint: false},
		// Defaults: readOnly false, destructive true, idempotent false, openWorld true; title from annotations.
		{Name: "delete_invoice", Title: "Delete invoice", ReadOnlyHint: false, DestructiveHint: true, IdempotentHint: false, OpenWorldHint: true},
	}
	if !reflect.DeepEqual(tools, want) {
		t.Errorf("got  %#v\nwant %#v", tools, want)
	}
	tools, err = ParseToolSpec([]byte(`{"tools":[{"name":"x","annotations":{"readOnlyHint":"yes","destructiveHint":false,"idempotentHint":true}}]}`))
	if err != nil || len(tools) != 1 || tools[0].ReadOnlyHint || tools[0].DestructiveHint || !tools[0].IdempotentHint || !tools[0].OpenWorldHint {
		t.Errorf("hints: %#v %v", tools, err)
	}
	for _, doc := range []string{`{}`, `{"tools":{}}`, `[]`, `{"tools":[}`} {
		if _, err := ParseToolSpec([]byte(doc)); err == nil {
			t.Errorf("%s accepted", doc)
		}
	}
}

func TestAgentPropertiesFromCard(t *testing.T) {
	for _, file := range []string{"card/valid-0.3.json", "card/valid-1.0.json", "card/protocol-0.2.json", "card/unknown-field-1.0.json"} {
		t.Run(file, func(t *testing.T) {
			props, err := AgentPropertiesFromCard(fixture(t, file), "google-adk", "https://example.test/card.json")
			if err != nil {
				t.Fatal(err)
			}
			r := ValidateAgentProperties(props)
			if len(r.Problems) != 0 {
				t.Fatalf("derived properties are not valid: %v\n%s", r.Problems, props)
			}
			if n, _ := Normalize(props); string(n) != string(props) {
				t.Error("result not in normal form")
			}
		})
	}
	props, err := AgentPropertiesFromCard(fixture(t, "card/valid-0.3.json"), "", "")
	if err != nil {
		t.Fatal(err)
	}
	want := `{"description":"Answers questions about invoices.","displayName":"Invoice Helper","skills":[{"description":"Finds an invoice by number or customer.","examples":["Where is invoice 2024-117?"],"id":"lookup-invoice","name":"Look up an invoice","tags":["billing","invoices"]},{"description":"Explains a line item.","id":"explain-charge","name":"Explain a charge","tags":[]}],"version":"2.1.0"}`
	if string(props) != want {
		t.Errorf("got  %s\nwant %s", props, want)
	}
	props, _ = AgentPropertiesFromCard(fixture(t, "card/valid-1.0.json"), "langgraph", "gs://bucket/card.json")
	if !strings.Contains(string(props), `"framework":"langgraph"`) || !strings.Contains(string(props), `"agentCardUri":"gs://bucket/card.json"`) {
		t.Errorf("framework/agentCardUri missing: %s", props)
	}
	if _, err := AgentPropertiesFromCard(fixture(t, "card/skill-fields-0.3.json"), "", ""); err == nil || !strings.Contains(err.Error(), `missing required property "tags"`) {
		t.Errorf("invalid card: %v", err)
	}
}
