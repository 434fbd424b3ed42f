package registryserver_test

import (
	"regexp"
	"testing"

	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
)

// Agents, MCP servers, endpoints and skills have ids in Google's form
// (URNs), and the server takes them wherever an identifier is taken: as a
// binding's source and target, in fetchAvailable, and in the searches of
// each kind (skills:search with a returned skillId finds its skill).
func TestIDsAreURNs(t *testing.T) {
	e := start(t, registryserver.Options{})
	e.create(t, "planner", agentService("Planner", "Plans trips."))
	e.create(t, "flights", &agentregistry.Service{McpServerSpec: &agentregistry.McpServerSpec{Type: "NO_SPEC"},
		Interfaces: []*agentregistry.Interface{{Url: "https://mcp.example.test", ProtocolBinding: "HTTP_JSON"}}})
	e.create(t, "billing", &agentregistry.Service{EndpointSpec: &agentregistry.EndpointSpec{Type: "NO_SPEC"},
		Interfaces: []*agentregistry.Interface{{Url: "https://billing.example.test", ProtocolBinding: "HTTP_JSON"}}})
	sk := e.createSkill(t, "pdf-tools", "PDF tools", upload(t, "pdf-tools", "Fill PDF forms."))
	loc := e.ar.Projects.Locations
	agent, err := loc.Agents.Get(parent + "/agents/planner").Do()
	if err != nil {
		t.Fatal(err)
	}
	mcp, err := loc.McpServers.Get(parent + "/mcpServers/flights").Do()
	if err != nil {
		t.Fatal(err)
	}
	endpoint, err := loc.Endpoints.Get(parent + "/endpoints/billing").Do()
	if err != nil {
		t.Fatal(err)
	}
	// The document's forms, with the project id standing in for its number.
	for got, want := range map[string]string{
		agent.AgentId:       "urn:agent:projects-p1:projects:p1:locations:global:agentregistry:services:planner",
		mcp.McpServerId:     "urn:mcp:projects-p1:projects:p1:locations:global:agentregistry:services:flights",
		endpoint.EndpointId: "urn:endpoint:projects-p1:projects:p1:locations:global:agentregistry:services:billing",
		sk.SkillId:          "urn:skill:projects-p1:locations:global:pdf-tools",
	} {
		if got != want {
			t.Errorf("id %q, want %q", got, want)
		}
	}
	// The provider's validators of a binding's source and target
	// (internal/provider/resource_binding.go), copied: the ids pass them.
	agentURNRE := regexp.MustCompile(`^urn:agent:[A-Za-z0-9._~-]+(:[A-Za-z0-9._~-]+){2,}$`)
	targetURNRE := regexp.MustCompile(`^urn:(agent|mcp|endpoint):[A-Za-z0-9._~-]+(:[A-Za-z0-9._~-]+){2,}$`)
	if !agentURNRE.MatchString(agent.AgentId) {
		t.Errorf("agentId %q fails the provider's source validator", agent.AgentId)
	}
	for _, id := range []string{agent.AgentId, mcp.McpServerId, endpoint.EndpointId} {
		if !targetURNRE.MatchString(id) {
			t.Errorf("%q fails the provider's target validator", id)
		}
	}
	for id, target := range map[string]string{"to-mcp": mcp.McpServerId, "to-endpoint": endpoint.EndpointId, "to-agent": agent.AgentId} {
		b := &agentregistry.Binding{Source: &agentregistry.Source{Identifier: agent.AgentId}, Target: &agentregistry.Target{Identifier: target}}
		if _, err := loc.Bindings.Create(parent, b).BindingId(id).Do(); err != nil {
			t.Errorf("a binding from the agent's own id to %s: %v", target, err)
		}
	}
	avail, err := loc.Bindings.FetchAvailable(parent).SourceIdentifier(agent.AgentId).TargetIdentifier(mcp.McpServerId).Do()
	if err != nil || len(avail.Bindings) != 1 || idOf(avail.Bindings[0].Name) != "to-mcp" {
		t.Errorf("fetchAvailable by the returned ids: %+v %v", avail, err)
	}
	found, err := loc.Agents.Search(parent, &agentregistry.SearchAgentsRequest{SearchString: `agentId="` + agent.AgentId + `"`}).Do()
	if err != nil || len(found.Agents) != 1 {
		t.Errorf("agents:search by the returned agentId: %+v %v", found, err)
	}
	foundMCP, err := loc.McpServers.Search(parent, &agentregistry.SearchMcpServersRequest{SearchString: "mcpServerId=" + mcp.McpServerId}).Do()
	if err != nil || len(foundMCP.McpServers) != 1 {
		t.Errorf("mcpServers:search by the returned mcpServerId: %+v %v", foundMCP, err)
	}
	eps, err := loc.Endpoints.List(parent).Filter(`endpointId="` + endpoint.EndpointId + `"`).Do()
	if err != nil || len(eps.Endpoints) != 1 {
		t.Errorf("endpoints.list filtered by the returned endpointId: %+v %v", eps, err)
	}
	skills, err := loc.Skills.Search(parent).SearchString(`skillId="` + sk.SkillId + `"`).Do()
	if err != nil || len(skills.Skills) != 1 {
		t.Errorf("skills:search by the returned skillId: %+v %v", skills, err)
	}
}
