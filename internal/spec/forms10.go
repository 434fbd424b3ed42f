package spec

import (
	"fmt"
	"strconv"
	"strings"
)

// This file words the messages about A2A 1.0 objects whose JSON form is not
// obvious from their name: the protobuf oneofs (SecurityScheme, OAuthFlows),
// written as one member named for the alternative, and StringList, a list
// wrapped in an object. Cards written for A2A 0.3, or by an SDK's own JSON
// encoder rather than ProtoJSON, use other forms there; a message that only
// said "expected object, found array" would not tell how to write it.

// form10 is the A2A 1.0 JSON form of one schema definition.
type form10 struct {
	what    string // what the object is, in a sentence
	example string // its form, such as {"list": [...]}
}

// forms10 is keyed by the definition's name in the embedded 1.0 schema.
var forms10 = map[string]form10{
	"SecurityScheme": {"a security scheme as one member named for its kind", `{"httpAuthSecurityScheme": {...}}`},
	"OAuthFlows":     {"the flow of an OAuth 2.0 scheme as one member named for it", `{"authorizationCode": {...}}`},
	"StringList":     {"the scopes of a security requirement as", `{"list": [...]}`},
}

// schemeTypes03 maps an A2A 0.3 security scheme's "type" to the member that
// holds it in A2A 1.0, the definition of that member, and the members 1.0
// renamed.
var schemeTypes03 = map[string]struct {
	member, def string
	renamed     map[string]string // 0.3 name -> 1.0 name
}{
	"apiKey":        {"apiKeySecurityScheme", "APIKeySecurityScheme", map[string]string{"in": "location"}},
	"http":          {"httpAuthSecurityScheme", "HTTPAuthSecurityScheme", nil},
	"oauth2":        {"oauth2SecurityScheme", "OAuth2SecurityScheme", nil},
	"openIdConnect": {"openIdConnectSecurityScheme", "OpenIdConnectSecurityScheme", nil},
	"mutualTLS":     {"mtlsSecurityScheme", "MutualTlsSecurityScheme", nil},
}

// definitionName returns the name of the definition a keyword location in
// an embedded schema belongs to ("/definitions/StringList/type" gives
// "StringList"), or "" for a keyword nested deeper or outside definitions.
func definitionName(frag string) string {
	tokens := strings.Split(strings.TrimPrefix(frag, "/"), "/")
	if len(tokens) == 3 && tokens[0] == "definitions" {
		return tokens[1]
	}
	return ""
}

// typeHint completes "expected object, found array" on an object of
// forms10 with its form, and for a StringList written as a bare list
// (as A2A 0.3 and some SDKs write scopes) with the list rewritten.
func typeHint(def string, inst any) string {
	f, ok := forms10[def]
	if !ok {
		return ""
	}
	hint := fmt.Sprintf("; A2A 1.0 writes %s %s", f.what, f.example)
	if list, isList := inst.([]any); isList && def == "StringList" {
		if p := preview(list); len(p) <= 60 {
			hint += fmt.Sprintf(", here {\"list\": %s}", p)
		}
	}
	return hint
}

// oneOfMessage explains an object of a protobuf oneof (a definition with
// exactly one allowed member) that has none or several of its alternatives.
// Only the members the definition allows count as alternatives; the others
// are named here, and not reported again as unknown fields. def names the
// definition in the 1.0 card schema ("" elsewhere), whose definitions are defs.
func oneOfMessage(def string, schema, defs, obj map[string]any) string {
	var known, unknown []string
	for _, k := range sortedKeys(obj) {
		if propertyAllowed(schema, k) {
			known = append(known, strconv.Quote(k))
		} else {
			unknown = append(unknown, strconv.Quote(k))
		}
	}
	msg := "expected exactly one of " + strings.Join(allowedProperties(schema), ", ") + ", found none"
	if len(known) > 0 {
		msg = fmt.Sprintf("expected exactly one of %s, found %d (%s)", strings.Join(allowedProperties(schema), ", "), len(known), strings.Join(known, ", "))
	}
	if form := securityScheme03(def, defs, obj); form != "" {
		return msg + "; " + form
	}
	if len(unknown) > 0 {
		msg += "; " + strings.Join(unknown, ", ") + " " + plural(len(unknown), "is not one of them", "are not among them")
	}
	f, ok := forms10[def]
	switch {
	case ok && len(known) == 0:
		msg += fmt.Sprintf("; A2A 1.0 writes %s, such as %s", f.what, f.example)
	case def == "OAuthFlows":
		msg += "; A2A 1.0 allows one flow per OAuth 2.0 scheme (A2A 0.3 allowed several): declare a scheme for each flow"
	}
	return msg
}

// securityScheme03 recognises a security scheme written in the A2A 0.3 form,
// {"type": "http", "scheme": "bearer"}, and says how A2A 1.0 writes it;
// "" for any other object.
func securityScheme03(def string, defs, obj map[string]any) string {
	typ, _ := obj["type"].(string)
	t, ok := schemeTypes03[typ]
	if def != "SecurityScheme" || !ok {
		return ""
	}
	target, _ := defs[t.def].(map[string]any)
	var inside []string
	for _, k := range sortedKeys(obj) {
		name, renamed := t.renamed[k]
		if !renamed {
			name = k
		}
		if k == "type" || !propertyAllowed(target, name) {
			continue
		}
		if renamed {
			inside = append(inside, fmt.Sprintf("%q (0.3's %q)", name, k))
		} else {
			inside = append(inside, strconv.Quote(name))
		}
	}
	msg := fmt.Sprintf(`this is the A2A 0.3 form ("type": %q), and A2A 1.0 writes it as {%q: {...}}`, typ, t.member)
	if len(inside) > 0 {
		msg += " holding " + strings.Join(inside, ", ")
	}
	return msg
}

// unknownHints10 names the A2A 1.0 replacement of an A2A 0.3 field found in a
// 1.0 card that is not hybrid (see hybrid03), by definition and member.
var unknownHints10 = map[string]string{
	"AgentCard.security":                          `it is the A2A 0.3 name of securityRequirements, which A2A 1.0 writes as [{"schemes": {"<scheme>": {"list": [...]}}}]`,
	"AgentSkill.security":                         `it is the A2A 0.3 name of securityRequirements, which A2A 1.0 writes as [{"schemes": {"<scheme>": {"list": [...]}}}]`,
	"AgentCard.supportsAuthenticatedExtendedCard": "it is an A2A 0.3 field: A2A 1.0 writes capabilities.extendedAgentCard",
	"AgentCapabilities.stateTransitionHistory":    "it is an A2A 0.3 field that A2A 1.0 dropped",
}

// unknownHint10 explains an unknown member of a definition of the 1.0 schema
// when it is a known A2A 0.3 field or form; "" otherwise.
func unknownHint10(def, key string, value any) string {
	if hint, ok := unknownHints10[def+"."+key]; ok {
		return "; " + hint
	}
	if _, isList := value.([]any); def == "SecurityRequirement" && isList {
		return fmt.Sprintf(`; {%q: [...]} is the A2A 0.3 form of a security requirement: A2A 1.0 writes {"schemes": {%q: {"list": [...]}}}`, key, key)
	}
	return ""
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
