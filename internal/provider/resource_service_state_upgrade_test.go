package provider

import (
	"context"
	"encoding/json"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
	"google.golang.org/api/agentregistry/v1"
)

// The state in testdata/upgrade-v0/state-v0.json (a terraform.tfstate) was written by the first release (schema
// version 0, with the skills and tools copied beside the documents) applying
// testdata/upgrade-v0/main.tf. With those services in the registry, this
// provider must upgrade it with no write to the registry, and plan nothing.
func TestAccServiceStateUpgrade_fromVersion0(t *testing.T) {
	reg := startRegistry(t)
	h := newCLIHarness(t)
	stateV0, err := os.ReadFile("testdata/upgrade-v0/state-v0.json")
	if err != nil {
		t.Fatal(err)
	}
	config, err := os.ReadFile("testdata/upgrade-v0/main.tf")
	if err != nil {
		t.Fatal(err)
	}
	registerServicesOfState(t, reg, stateV0)
	reg.srv.ResetRequests()

	h.write(t, "main.tf", exampleProviders+testkit.ProviderConfig(reg.ts.URL)+string(config))
	h.write(t, "terraform.tfstate", string(stateV0))
	h.mustRun(t, "init", "-input=false")
	out := h.mustRun(t, "apply", "-auto-approve", "-input=false")
	if !strings.Contains(out, "0 added, 0 changed, 0 destroyed") {
		t.Errorf("apply after the upgrade changed something:\n%s", out)
	}
	reg.expectNoWrites(t)
	h.mustRun(t, "plan", "-detailed-exitcode", "-input=false")

	state := h.state(t)
	card, version := state.instance(t, "agentregistry_agent", "card03")
	expectUpgraded(t, card, version, "skills", map[string]any{
		"skill_ids": []any{"convert", "rates"}, "version": "1.2.0", "a2a_version": "0.3",
		"urls":     []any{"https://agents.example.com/currency", "https://agents.example.com/currency/grpc"},
		"agent_id": "upgrade-agent-03", "display_name": "Currency",
	})
	if to, _ := card["timeouts"].(map[string]any); to == nil || to["create"] != "5m" {
		t.Errorf("timeouts = %v, want create = 5m kept", card["timeouts"])
	}
	card10, version := state.instance(t, "agentregistry_agent", "card10")
	expectUpgraded(t, card10, version, "skills", map[string]any{
		"skill_ids": []any{"plan"}, "version": "2.0.0", "a2a_version": "1.0", "urls": []any{"https://agents.example.com/travel"},
	})
	tools, version := state.instance(t, "agentregistry_mcp_server", "tools")
	expectUpgraded(t, tools, version, "tools", map[string]any{"tool_names": []any{"get_forecast", "get_alerts"}})
	bare, version := state.instance(t, "agentregistry_mcp_server", "bare")
	expectUpgraded(t, bare, version, "tools", map[string]any{"tool_names": []any{}, "tool_spec": nil})
}

// expectUpgraded checks one upgraded instance: schema version 1, the removed
// list gone, and the given attributes.
func expectUpgraded(t *testing.T, attrs map[string]any, version int, removed string, want map[string]any) {
	t.Helper()
	if version != 1 {
		t.Errorf("schema_version = %d, want 1", version)
	}
	if _, ok := attrs[removed]; ok {
		t.Errorf("%s is still in the upgraded state", removed)
	}
	for k, v := range want {
		if !reflect.DeepEqual(attrs[k], v) {
			t.Errorf("%s = %#v, want %#v", k, attrs[k], v)
		}
	}
}

// registerServicesOfState creates in the registry the services that a state
// file's resources manage, from their attributes, as the provider that wrote
// the state had created them.
func registerServicesOfState(t *testing.T, reg *testRegistry, raw []byte) {
	t.Helper()
	var st cliState
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	for _, r := range st.Resources {
		a := r.Instances[0].Attributes
		svc := &agentregistry.Service{DisplayName: str(a["display_name"]), Description: str(a["description"])}
		switch r.Type {
		case "agentregistry_agent":
			svc.AgentSpec = &agentregistry.AgentSpec{Type: agentSpecTypeCard, Content: []byte(str(a["agent_card"]))}
		case "agentregistry_mcp_server":
			svc.McpServerSpec = &agentregistry.McpServerSpec{Type: mcpSpecTypeNoSpec}
			if doc := str(a["tool_spec"]); doc != "" {
				svc.McpServerSpec = &agentregistry.McpServerSpec{Type: mcpSpecTypeToolSpec, Content: []byte(doc)}
			}
			for _, in := range as[[]any](t, a["interfaces"]) {
				m := as[map[string]any](t, in)
				svc.Interfaces = append(svc.Interfaces, &agentregistry.Interface{Url: str(m["url"]), ProtocolBinding: str(m["protocol_binding"])})
			}
		}
		if _, err := reg.client.CreateService(context.Background(), testParent, str(a["service_id"]), svc); err != nil {
			t.Fatalf("registering %s.%s: %v", r.Type, r.Name, err)
		}
	}
}

func str(v any) string {
	s, _ := v.(string)
	return s
}
