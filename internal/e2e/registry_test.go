package e2e

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// testParent is the project and location of testkit.ProviderConfig.
const testParent = "projects/test-project/locations/global"

// exampleRequiredProviders completes an example, which has no terraform
// block: provider functions need the provider among the required_providers.
const exampleRequiredProviders = `terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry" }
  }
}

`

// seedAgent registers an A2A agent from a card in testParent, as another
// client of the registry would.
func seedAgent(t *testing.T, r *testkit.Registry, id string, card map[string]any) {
	t.Helper()
	raw, err := json.Marshal(card)
	must(t, err)
	_, err = r.Client.CreateService(context.Background(), testParent, id,
		&agentregistry.Service{AgentSpec: &agentregistry.AgentSpec{Type: "A2A_AGENT_CARD", Content: raw}})
	must(t, err)
}

// editCard changes the card of the agent service name behind Terraform's
// back, as a REST call would.
func editCard(t *testing.T, r *testkit.Registry, name string, edit func(card map[string]any)) {
	t.Helper()
	svc, err := r.Client.GetService(context.Background(), name)
	must(t, err)
	var card map[string]any
	must(t, json.Unmarshal(svc.AgentSpec.Content, &card))
	edit(card)
	raw, err := json.Marshal(card)
	must(t, err)
	_, err = r.Client.UpdateService(context.Background(),
		&agentregistry.Service{Name: name, AgentSpec: &agentregistry.AgentSpec{Type: "A2A_AGENT_CARD", Content: raw}}, []string{"agentSpec"})
	must(t, err)
}

// editCardFile changes a card file the same way.
func editCardFile(t *testing.T, path string, edit func(card map[string]any)) {
	t.Helper()
	raw, err := os.ReadFile(path)
	must(t, err)
	var card map[string]any
	must(t, json.Unmarshal(raw, &card))
	edit(card)
	raw, err = json.MarshalIndent(card, "", "  ")
	must(t, err)
	writeFile(t, path, string(raw))
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	must(t, os.MkdirAll(filepath.Dir(path), 0o755))
	must(t, os.WriteFile(path, []byte(content), 0o600))
}
