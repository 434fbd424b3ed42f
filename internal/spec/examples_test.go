package spec

import (
	"os"
	"path/filepath"
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
