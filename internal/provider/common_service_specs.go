package provider

// The specs a registry Service carries one of (agentSpec, mcpServerSpec,
// endpointSpec), each with the resource type that manages a Service of that
// spec: the one table from which the service resources, their list resources
// and the moves from the Google provider tell a Service's kind, and name the
// right resource type when it is another one.

import "google.golang.org/api/agentregistry/v1"

// serviceSpec is one spec of a Service and the resource that manages it.
type serviceSpec struct {
	// typeSuffix is the resource type after "agentregistry_".
	typeSuffix string
	// noun names the kind in messages.
	noun string
	// in tells whether a Service carries the spec; inGoogle, whether a
	// google_agent_registry_service state does.
	in       func(*agentregistry.Service) bool
	inGoogle func(*googleService) bool
}

// serviceSpecs tell a Service's kind by the first spec it carries, in this
// order (the API allows one; a registry that sends more gets the first).
var serviceSpecs = []serviceSpec{
	{typeSuffix: "agent", noun: "an agent (agentSpec)",
		in:       func(s *agentregistry.Service) bool { return s.AgentSpec != nil },
		inGoogle: func(g *googleService) bool { return len(g.AgentSpec) > 0 }},
	{typeSuffix: "mcp_server", noun: "an MCP server (mcpServerSpec)",
		in:       func(s *agentregistry.Service) bool { return s.McpServerSpec != nil },
		inGoogle: func(g *googleService) bool { return len(g.McpServerSpec) > 0 }},
	{typeSuffix: "endpoint", noun: "an endpoint (endpointSpec)",
		in:       func(s *agentregistry.Service) bool { return s.EndpointSpec != nil },
		inGoogle: func(g *googleService) bool { return len(g.EndpointSpec) > 0 }},
}

// serviceKindOf names the kind of a Service by its spec, as the resource type
// suffix that manages it; "" when it carries no spec.
func serviceKindOf(svc *agentregistry.Service) string {
	for _, s := range serviceSpecs {
		if s.in(svc) {
			return s.typeSuffix
		}
	}
	return ""
}

// kind is serviceKindOf for a google_agent_registry_service state.
func (g *googleService) kind() string {
	for _, s := range serviceSpecs {
		if s.inGoogle(g) {
			return s.typeSuffix
		}
	}
	return ""
}

// serviceKindNoun is a resource type suffix in words, for messages.
func serviceKindNoun(kind string) string {
	for _, s := range serviceSpecs {
		if s.typeSuffix == kind {
			return s.noun
		}
	}
	return kind
}
