package state

// Ids in Google's form. The Agent Registry gives every agent, MCP server,
// endpoint and skill a stable, globally unique id, a URN; a binding names
// its source and target by those URNs. The discovery document's examples:
//
//	urn:agent:projects-123:projects:123:locations:us-central1:aiplatform:reasoningEngines:1234
//	urn:mcp:projects-123:projects:123:locations:us-central1:agentregistry:services:service-id
//	urn:skill:projects-1234:locations:global:private-important-skill
//
// The records the bundled server derives from a service follow the form of
// the MCP example, the one the document gives for a registered service:
// urn:{agent|mcp|endpoint}:projects-{P}:projects:{P}:locations:{L}:agentregistry:services:{service}.
// Skills follow the skill example: urn:skill:projects-{P}:locations:{L}:{skill}.
//
// The stand-in for the project number: Google writes the project number
// there. The bundled server has no project numbers; it keys everything by
// the project segment of the request path as sent, id or number, and that
// segment stands in for the number. So project "p1" gives
// urn:agent:projects-p1:projects:p1:locations:global:agentregistry:services:planner,
// and a path that names the project by its number gives exactly Google's
// id. The URN is a pure function of the record's name: it is stable across
// restarts and updates, and the same after a delete and re-create.
//
// Every part is made of characters the path rules allow (lower-case
// letters, digits, hyphens), so a URN always matches the provider's binding
// validators (agentURNRE and targetURNRE in internal/provider) and the
// server's own (urnRE below).

import (
	"regexp"
	"strings"
)

// maxURNLength bounds an identifier a client sends (binding source and
// target, fetchAvailable's parameters); the ids this server builds are far
// shorter.
const maxURNLength = 512

// urnRE is the shape of the identifier of a binding's source or target:
// urn:{kind}:{publisher}:{namespace}:{name}, where the namespace may itself
// hold colons (Google's ids look like urn:agent:projects-123:projects:123:...).
var urnRE = regexp.MustCompile(`^urn:(agent|mcp|endpoint):[A-Za-z0-9._~-]+(:[A-Za-z0-9._~-]+){2,}$`)

// urnKindOf is the URN kind of each kind of derived record.
func (k DerivedKind) urnKind() string {
	switch k {
	case KindAgent:
		return "agent"
	case KindEndpoint:
		return "endpoint"
	}
	return "mcp"
}

// projectAndLocation splits projects/{p}/locations/{l}.
func projectAndLocation(parent string) (project, location string) {
	segs := strings.Split(parent, "/")
	if len(segs) < 4 {
		return "", ""
	}
	return segs[1], segs[3]
}

// recordURN is the id (agentId, mcpServerId, endpointId) of the record of
// kind k derived from service serviceID under parent.
func recordURN(k DerivedKind, parent, serviceID string) string {
	p, l := projectAndLocation(parent)
	return "urn:" + k.urnKind() + ":projects-" + p + ":projects:" + p + ":locations:" + l + ":agentregistry:services:" + serviceID
}

// skillURN is the skillId of skill id under parent. Google builds it from
// the publisher's namespace; the bundled server has no publishers, so every
// skill is in its project's private namespace, as in the document's example.
func skillURN(parent, id string) string {
	p, l := projectAndLocation(parent)
	return "urn:skill:projects-" + p + ":locations:" + l + ":" + id
}

// urnKind is the kind of a binding identifier ("agent", "mcp",
// "endpoint"), "" when it is malformed.
func urnKind(urn string) string {
	if len(urn) > maxURNLength || !urnRE.MatchString(urn) {
		return ""
	}
	return strings.SplitN(urn, ":", 3)[1]
}
