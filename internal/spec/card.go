package spec

import (
	"errors"
	"strings"
)

// A2A versions detected by ValidateAgentCard.
const (
	A2AVersion03 = "0.3"
	A2AVersion10 = "1.0"
)

// ValidateAgentCard checks an A2A Agent Card (0.3 or 1.0, detected from the document).
func ValidateAgentCard(doc []byte) *Result {
	return cached(KindAgentCard, doc, validateAgentCard)
}

// cardShape says which version-defining fields a decoded card has.
type cardShape struct {
	has10    bool     // supportedInterfaces (or supported_interfaces) present
	fields03 []string // url / protocolVersion present, in that order
}

// shapeOf reports which version-defining members a card has; has reports
// whether the card has a member.
func shapeOf(has func(string) bool) cardShape {
	var s cardShape
	s.has10 = has("supportedInterfaces") || has("supported_interfaces") // ProtoJSON accepts the proto name too
	for _, f := range []string{"url", "protocolVersion"} {
		if has(f) {
			s.fields03 = append(s.fields03, f)
		}
	}
	return s
}

// isProtocolVersion reports whether v is major.minor or major.minor.patch
// (with an optional pre-release or build suffix) for the given major.minor.
func isProtocolVersion(v, majorMinor string) bool {
	rest, ok := strings.CutPrefix(v, majorMinor)
	if !ok {
		return false
	}
	if rest == "" {
		return true
	}
	if rest[0] != '.' {
		return false
	}
	rest = rest[1:]
	n := 0
	for n < len(rest) && rest[n] >= '0' && rest[n] <= '9' {
		n++
	}
	if n == 0 {
		return false
	}
	return n == len(rest) || rest[n] == '-' || rest[n] == '+'
}

func validateAgentCard(doc []byte) *Result { return agentCard(doc, false) }

func agentCard(doc []byte, library bool) *Result {
	c, done := begin(KindAgentCard, doc, library)
	if done != nil {
		return done
	}
	card, ok := c.value.(*object)
	if !ok {
		c.add(SeverityError, "", false, "expected an A2A agent card (a JSON object), found %s", describe(c.value))
		return c.finish("")
	}
	shape := shapeOf(card.has)
	switch {
	case shape.has10 && len(shape.fields03) > 0:
		c.add(SeverityError, "", false,
			"ambiguous A2A version: found supportedInterfaces (A2A 1.0) and %s (A2A 0.3); expected either supportedInterfaces (1.0) or top-level url and protocolVersion (0.3), not both",
			strings.Join(shape.fields03, " and "))
		return c.finish("")
	case !shape.has10 && len(shape.fields03) == 0:
		c.add(SeverityError, "", false,
			"cannot detect the A2A version: expected supportedInterfaces (A2A 1.0) or top-level url and protocolVersion (A2A 0.3), found none of them")
		return c.finish("")
	case shape.has10:
		c.validateSchema(schemaCard10, schemaPolicy{
			unknownSeverity: SeverityWarning,
			unknownWhat:     "unknown field %q: it is not part of the A2A 1.0 agent card schema; the registry may ignore or reject it",
		})
		return c.finish(A2AVersion10)
	}

	version := A2AVersion03
	pvv, _ := card.get("protocolVersion")
	if pv, ok := pvv.(string); ok {
		switch {
		case isProtocolVersion(pv, "0.3"):
		case isProtocolVersion(pv, "0.2"):
			c.add(SeverityWarning, "/protocolVersion", false,
				"protocolVersion %q is A2A 0.2; the card is checked against the A2A 0.3 schema, but the registry supports A2A 0.3 and 1.0: declare protocolVersion \"0.3.0\" (or use the 1.0 form with supportedInterfaces)", pv)
		default:
			c.add(SeverityError, "/protocolVersion", false,
				"unsupported protocolVersion %q: a card with a top-level url is A2A 0.3 and needs protocolVersion 0.3.x (0.2.x is accepted with a warning); an A2A 1.0 card declares supportedInterfaces instead of url and protocolVersion", pv)
			version = ""
		}
	}
	// A missing or non-string protocolVersion is reported by the schema.
	c.validateSchema(schemaCard03, schemaPolicy{unknownSeverity: SeverityWarning})
	return c.finish(version)
}

// ParseAgentCard extracts the exposed fields of a card. It does not validate;
// call ValidateAgentCard first. Fields of the wrong type are left empty. The
// A2AVersion is "" when the card has both or neither of the 1.0 and 0.3
// shapes, or an unsupported protocolVersion.
func ParseAgentCard(doc []byte) (*AgentCard, error) {
	v, err := decode(doc)
	if err != nil {
		return nil, err
	}
	card, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("agent card: expected a JSON object, found " + jsonType(v))
	}
	out := &AgentCard{
		Name:        str(card["name"]),
		Description: str(card["description"]),
		Version:     str(card["version"]),
		Skills:      []Skill{},
	}
	shape := shapeOf(func(k string) bool { _, ok := card[k]; return ok })
	switch {
	case shape.has10 && len(shape.fields03) == 0:
		out.A2AVersion = A2AVersion10
	case !shape.has10 && len(shape.fields03) > 0:
		pv, isStr := card["protocolVersion"].(string)
		if !isStr || isProtocolVersion(pv, "0.3") || isProtocolVersion(pv, "0.2") {
			out.A2AVersion = A2AVersion03
		}
	}
	seen := map[string]bool{}
	addURL := func(u string) {
		if u != "" && !seen[u] {
			seen[u] = true
			out.URLs = append(out.URLs, u)
		}
	}
	addURL(str(card["url"]))
	for _, field := range []string{"additionalInterfaces", "supportedInterfaces", "supported_interfaces"} {
		list, _ := card[field].([]any)
		for _, it := range list {
			if m, ok := it.(map[string]any); ok {
				addURL(str(m["url"]))
			}
		}
	}
	skills, _ := card["skills"].([]any)
	for _, it := range skills {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		out.Skills = append(out.Skills, Skill{
			ID:          str(m["id"]),
			Name:        str(m["name"]),
			Description: str(m["description"]),
			Tags:        strs(m["tags"], true),
			Examples:    strs(m["examples"], false),
		})
	}
	return out, nil
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// strs returns the string elements of a JSON array. With nonNil, a missing
// array gives an empty, non-nil slice.
func strs(v any, nonNil bool) []string {
	list, _ := v.([]any)
	var out []string
	if nonNil {
		out = make([]string, 0, len(list))
	}
	for _, x := range list {
		if s, ok := x.(string); ok {
			out = append(out, s)
		}
	}
	return out
}
