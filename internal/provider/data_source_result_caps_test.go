package provider

import (
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types/basetypes"
	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/googleapi"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

// terraformSize counts what a converted result is: each object, attribute,
// list or map element one value, the text of its strings and map keys.
func terraformSize(v attr.Value) (values, text int64) {
	values = 1
	add := func(e attr.Value) {
		n, t := terraformSize(e)
		values, text = values+n, text+t
	}
	switch v := v.(type) {
	case basetypes.StringValue:
		text = int64(len(v.ValueString()))
	case basetypes.ListValue:
		for _, e := range v.Elements() {
			add(e)
		}
	case basetypes.MapValue:
		for k, e := range v.Elements() {
			text += int64(len(k))
			add(e)
		}
	case basetypes.ObjectValue:
		for _, e := range v.Attributes() {
			add(e)
		}
	}
	return values, text
}

// resultSize counts, on the flattened models, exactly the values and text
// they become: the cap is checked on what the state will hold.
func TestResultSizeCountsWhatTheResultBecomes(t *testing.T) {
	agent := &agentregistry.Agent{Name: hostileParent + "/agents/a", AgentId: "urn:agent:a", Description: "Answers.",
		Skills:     []*agentregistry.A2ASkill{{Id: "s", Name: "S", Tags: []string{"a", "bb"}, Examples: []string{"ex"}}, {Id: "t"}},
		Protocols:  []*agentregistry.Protocol{{Type: "A2A_AGENT", Interfaces: []*agentregistry.Interface{{Url: "https://a.example"}}}},
		Attributes: map[string]googleapi.RawMessage{"k": googleapi.RawMessage(`{"framework":"adk"}`)}}
	agents := []agentsResultModel{{flattenAgent(agent), serviceIDsOf(agent.Name, "")}}
	skills := []skillsResultModel{flattenAgentSkill(agent, spec.Skill{ID: "s", Tags: []string{"x"}}, []string{"https://a.example", "https://b.example"})}
	bindings := []bindingResultModel{flattenBinding(&agentregistry.Binding{Name: hostileParent + "/bindings/b",
		AuthProviderBinding: &agentregistry.AuthProviderBinding{Scopes: []string{"read", "write"}}})}
	servers := []mcpServersResultModel{{flattenMcpServer(&agentregistry.McpServer{Name: hostileParent + "/mcpServers/m",
		Tools: []*agentregistry.Tool{{Name: "get", Description: strings.Repeat("d", 100)}}}), serviceIDsOf("", "")}}
	for name, tc := range map[string]struct {
		models    any
		converted attr.Value
	}{
		"agents":      {agents, agentsResults.List(agents)},
		"skills":      {skills, skillsResults.List(skills)},
		"bindings":    {bindings, bindingResults.List(bindings)},
		"MCP servers": {servers, mcpServersResults.List(servers)},
		"one agent":   {agents[0].agentResultModel, agentResults.Object(agents[0].agentResultModel)},
	} {
		var got resultSize
		got.add(reflect.ValueOf(tc.models))
		values, text := terraformSize(tc.converted)
		if got.values != values || got.text != text {
			t.Errorf("%s: counted %d values and %d bytes of text, the result has %d and %d", name, got.values, got.text, values, text)
		}
	}
}
