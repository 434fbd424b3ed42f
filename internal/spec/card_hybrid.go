package spec

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// This file checks the hybrid card: an A2A 1.0 card (it lists its
// interfaces) that keeps the A2A 0.3 fields for 0.3 clients, as the
// official SDKs serve it with 0.3 compatibility on: @a2a-js/sdk's
// agentCardHandler with legacyCompat to a client that sends no A2A-Version
// header, a2a-go's a2av0 card producer to every client. Their clients read
// it as A2A 1.0. The 0.3 fields are accepted with one warning that names
// them, typed against their 0.3 definitions
// (schemas/a2a-agent-card-0.3-fields.schema.json), and checked against the
// interfaces: a 0.3 client must reach an endpoint that the 1.0 interfaces
// list.

// cardFields03 are the members that A2A 0.3 defines and A2A 1.0 dropped: the
// properties of the official 0.3.0 schema's AgentCard that the 1.0.1 schema's
// lacks. The first endpointFields03 tell a 0.3 client how to reach the agent:
// a card with one of them is hybrid.
var cardFields03 = []string{"url", "protocolVersion", "preferredTransport", "additionalInterfaces", "security", "supportsAuthenticatedExtendedCard"}

const endpointFields03 = 4

// maxListedURLs bounds the interface URLs a message lists.
const maxListedURLs = 5

// hybrid is what hybrid03 found in a 1.0 card.
type hybrid struct {
	hybrid bool // the card keeps a 0.3 endpoint
	// accepted holds the pointers of the 0.3 fields reported by hybrid03,
	// which the 1.0 schema's validation does not report again as unknown.
	accepted map[string]bool
}

// hybrid03 finds the A2A 0.3 fields of a 1.0 card. A card that keeps a 0.3
// endpoint gets one warning naming them all and the consistency checks of
// endpoints03; a card that does not (such as one that only kept the 0.3
// "security") gets them reported as unknown fields of 1.0, as any other.
// A top-level protocolVersion that declares 1.x is no 0.3 field: it gets a
// warning of its own.
func (c *check) hybrid03(card map[string]any) hybrid {
	h := hybrid{accepted: map[string]bool{}}
	var names []string
	pv, pvIsString := card["protocolVersion"].(string)
	for i, f := range cardFields03 {
		switch {
		case !has(card, f):
		case f == "protocolVersion" && pvIsString && declares1x(pv):
			h.accepted["/protocolVersion"] = true
			c.add(SeverityWarning, "/protocolVersion", false,
				"top-level protocolVersion %q: an A2A 1.0 card declares the protocol version of each interface (supportedInterfaces[].protocolVersion); at the top level protocolVersion is the A2A 0.3 field that 0.3 clients read as their own version, and the registry may ignore or reject it: remove it", pv)
		default:
			h.hybrid = h.hybrid || i < endpointFields03
			names = append(names, f)
		}
	}
	if !h.hybrid {
		return h
	}
	if caps, ok := card["capabilities"].(map[string]any); ok && has(caps, "stateTransitionHistory") {
		names = append(names, "/capabilities/stateTransitionHistory")
	}
	for i, s := range asList(card["skills"]) {
		if skill, ok := s.(map[string]any); ok && has(skill, "security") {
			names = append(names, fmt.Sprintf("/skills/%d/security", i))
		}
	}
	for _, n := range names {
		h.accepted["/"+strings.TrimPrefix(n, "/")] = true
	}
	c.add(SeverityWarning, "", false,
		"the card is A2A 1.0 (it lists supportedInterfaces) and keeps A2A 0.3 fields for 0.3 clients, as SDKs with A2A 0.3 compatibility serve it: %s; accepted as A2A 1.0, whose clients read supportedInterfaces and ignore these fields; how the registry treats such a hybrid card is not documented",
		strings.Join(names, ", "))
	c.endpoints03(card)
	return h
}

// declares1x reports whether a protocolVersion names A2A 1.x.
func declares1x(v string) bool {
	major, _, _ := strings.Cut(v, ".")
	return major == "1"
}

// endpoints03 checks that the 0.3 fields of a hybrid card describe an agent
// that its 1.0 interfaces describe too: the 0.3 url and each of the
// additionalInterfaces is the url of an interface, with a transport that is
// the interface's protocolBinding; and that they are complete for 0.3
// clients. It only warns: 1.0 clients never read these fields.
func (c *check) endpoints03(card map[string]any) {
	ifaces := interfacesByURL(card)
	ifaces.match(c, "/url", card["url"], "/preferredTransport", card["preferredTransport"])
	for i, it := range asList(card["additionalInterfaces"]) {
		m, _ := it.(map[string]any)
		ptr := fmt.Sprintf("/additionalInterfaces/%d", i)
		ifaces.match(c, ptr+"/url", m["url"], ptr+"/transport", m["transport"])
	}
	c.complete03(card)
}

// urlBindings are the 1.0 interfaces of a card by url: the protocolBindings
// of the interfaces at each url, and the urls in document order.
type urlBindings struct {
	bindings map[string][]string
	urls     []string
}

func interfacesByURL(card map[string]any) urlBindings {
	ib := urlBindings{bindings: map[string][]string{}}
	for _, name := range interfaceFields {
		for _, it := range asList(card[name]) {
			m, _ := it.(map[string]any)
			u, ok := m["url"].(string)
			if !ok {
				continue
			}
			if _, seen := ib.bindings[u]; !seen {
				ib.urls = append(ib.urls, u)
			}
			binding := str(m["protocolBinding"]) + str(m["protocol_binding"])
			ib.bindings[u] = append(ib.bindings[u], binding)
		}
	}
	return ib
}

// match warns when a 0.3 url (u, at urlPtr) is no interface's url, or its
// transport (at transportPtr) no protocolBinding of the interfaces there.
func (ib urlBindings) match(c *check, urlPtr string, u any, transportPtr string, transport any) {
	us, ok := u.(string)
	if !ok {
		return // absent, or mistyped: the 0.3 fields' schema says so
	}
	found, known := ib.bindings[us]
	if !known {
		c.add(SeverityWarning, urlPtr, false,
			"%q is not the url of any supportedInterfaces entry (%s): A2A 0.3 clients, which read this field, would call an endpoint that A2A 1.0 clients are not told about",
			us, listSome(ib.urls))
		return
	}
	if ts, ok := transport.(string); ok && !slices.Contains(found, ts) {
		c.add(SeverityWarning, transportPtr, false,
			"%q is not the protocolBinding of the supportedInterfaces entries at %q (%s): A2A 0.3 clients, which read this field, would use another transport there than A2A 1.0 clients",
			ts, us, listSome(found))
	}
}

// complete03 warns when the 0.3 fields lack what A2A 0.3 requires, or
// declare a protocolVersion 0.3 clients do not expect.
func (c *check) complete03(card map[string]any) {
	var missing []string
	for _, f := range []string{"url", "protocolVersion"} {
		if !has(card, f) {
			missing = append(missing, f)
		}
	}
	if len(missing) > 0 {
		c.add(SeverityWarning, "", false,
			"the A2A 0.3 fields lack %s, which A2A 0.3 requires: 0.3 clients cannot use the card", strings.Join(missing, " and "))
	}
	if pv, ok := card["protocolVersion"].(string); ok && !declares1x(pv) && !isProtocolVersion(pv, "0.3") {
		c.add(SeverityWarning, "/protocolVersion", false,
			"%q, kept for A2A 0.3 clients, is not an A2A 0.3 version: those clients expect 0.3.x", pv)
	}
}

// listSome quotes at most maxListedURLs of values, saying how many more
// there are.
func listSome(values []string) string {
	if len(values) == 0 {
		return "none"
	}
	var parts []string
	for i, v := range values {
		if i == maxListedURLs {
			parts = append(parts, fmt.Sprintf("and %d more", len(values)-i))
			break
		}
		parts = append(parts, strconv.Quote(v))
	}
	return strings.Join(parts, ", ")
}
