package spec

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// This file holds the checks where the validation follows the registry's
// documented rules rather than the official A2A schemas, and says so with a
// warning: what the official schemas require and the registry does not, and
// the names A2A gives to protocol bindings, which its schemas leave open.

// officialRequired are the members of an agent card that the official A2A
// schemas require and the registry's documented rules leave optional: the
// official 0.3.0 schema's AgentCard.required, and the fields of A2A 1.0's
// AgentCard marked REQUIRED in its a2a.proto, less what the embedded schemas
// require. A 1.0 card may spell them as their proto name (alias).
var officialRequired = []struct{ name, alias, example string }{
	{"capabilities", "", `"capabilities": {}`},
	{"defaultInputModes", "default_input_modes", `"defaultInputModes": ["text/plain"]`},
	{"defaultOutputModes", "default_output_modes", `"defaultOutputModes": ["text/plain"]`},
}

// officiallyRequired warns about the members of officialRequired that a
// card of the given version lacks, in one warning.
func (c *check) officiallyRequired(card map[string]any, version string) {
	var missing, examples []string
	for _, f := range officialRequired {
		if !has(card, f.name) && (version == A2AVersion03 || f.alias == "" || !has(card, f.alias)) {
			missing = append(missing, f.name)
			examples = append(examples, f.example)
		}
	}
	if len(missing) == 0 {
		return
	}
	official := "the official A2A 0.3 schema requires"
	if version == A2AVersion10 {
		official = "A2A 1.0 requires (REQUIRED in its a2a.proto)"
	}
	c.add(SeverityWarning, "", false,
		"the card has no %s, which %s: the registry's documented rules leave %s optional, so the card is accepted, but a client that checks cards against the official schema may refuse it; add %s",
		joinAnd(missing), official, plural(len(missing), "it", "them"), strings.Join(examples, ", "))
}

// joinAnd joins names as "a, b and c".
func joinAnd(names []string) string {
	if len(names) < 2 {
		return strings.Join(names, "")
	}
	return strings.Join(names[:len(names)-1], ", ") + " and " + names[len(names)-1]
}

// coreBindings are the protocol bindings A2A defines: the 1.0 core
// bindings of AgentInterface.protocolBinding, which are also the A2A 0.3
// TransportProtocol names of preferredTransport and
// additionalInterfaces[].transport.
var coreBindings = []string{"JSONRPC", "GRPC", "HTTP+JSON"}

// bindingNames warns about each protocol binding or transport of a card that
// is not a name of coreBindings: both versions type these fields as open
// strings (a binding of one's own is allowed), so "JSON-RPC" or
// "HTTP_JSON" (the registry API's name for HTTP+JSON) would otherwise pass
// unnoticed, and clients that know only the core names would not use the
// interface. withInterfaces checks the 1.0 supportedInterfaces, with03 the
// 0.3 fields (of a 0.3 card, or those a hybrid card keeps).
func (c *check) bindingNames(card map[string]any, withInterfaces, with03 bool) {
	if withInterfaces {
		for _, list := range interfaceFields {
			for i, it := range asList(card[list]) {
				m, _ := it.(map[string]any)
				for _, key := range []string{"protocolBinding", "protocol_binding"} {
					c.bindingName(fmt.Sprintf("/%s/%d/%s", list, i, key), m[key], "protocol binding")
				}
			}
		}
	}
	if with03 {
		c.bindingName("/preferredTransport", card["preferredTransport"], "transport")
		for i, it := range asList(card["additionalInterfaces"]) {
			m, _ := it.(map[string]any)
			c.bindingName(fmt.Sprintf("/additionalInterfaces/%d/transport", i), m["transport"], "transport")
		}
	}
}

func (c *check) bindingName(ptr string, v any, what string) {
	name, ok := v.(string)
	if !ok || slices.Contains(coreBindings, name) {
		return // absent, a core name, or mistyped (the schema says so)
	}
	quoted := make([]string, len(coreBindings))
	for i, b := range coreBindings {
		quoted[i] = strconv.Quote(b)
	}
	hint := ""
	if s := suggest(name, coreBindings); s != "" {
		hint = fmt.Sprintf("did you mean %q? ", s)
	}
	c.add(SeverityWarning, ptr, false,
		"%q is not a %s that A2A defines: expected one of %s (the same names in A2A 0.3 and 1.0); %sA binding of your own is allowed, but clients that know only these names will not use this interface",
		name, what, strings.Join(quoted, ", "), hint)
}
