package spec

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
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

func shapeOf(card map[string]any) cardShape {
	var s cardShape
	s.has10 = has(card, "supportedInterfaces") || has(card, "supported_interfaces") // ProtoJSON accepts the proto name too
	for _, f := range []string{"url", "protocolVersion"} {
		if has(card, f) {
			s.fields03 = append(s.fields03, f)
		}
	}
	return s
}

func has(obj map[string]any, key string) bool {
	_, ok := obj[key]
	return ok
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

func validateAgentCard(doc []byte) *Result {
	c, done := begin(KindAgentCard, doc)
	if done != nil {
		return done
	}
	card, ok := c.value.(map[string]any)
	if !ok {
		c.add(SeverityError, "", false, "expected an A2A agent card (a JSON object), found %s", describe(c.value))
		return c.finish("")
	}
	shape := shapeOf(card)
	switch {
	case shape.has10 && len(shape.fields03) > 0:
		c.add(SeverityError, "", false,
			"ambiguous A2A version: found supportedInterfaces (A2A 1.0) and %s (A2A 0.3); expected either supportedInterfaces (1.0) or top-level url and protocolVersion (0.3), not both",
			strings.Join(shape.fields03, " and "))
		return c.finish("")
	case !shape.has10 && len(shape.fields03) == 0:
		c.add(SeverityError, "", false,
			"cannot detect the A2A version: expected supportedInterfaces (A2A 1.0) or top-level url and protocolVersion (A2A 0.3), found none of them; missing for A2A 0.3: %s; missing for A2A 1.0: %s",
			strings.Join(missingMembers(schemaCard03, card), ", "), strings.Join(missingMembers(schemaCard10, card), ", "))
		return c.finish("")
	case shape.has10:
		c.validateSchema(schemaCard10, schemaPolicy{
			unknownSeverity: SeverityWarning,
			unknownWhat:     "unknown field %q: it is not part of the A2A 1.0 agent card schema; the registry may ignore or reject it",
		})
		c.unique("/skills", "id", "skill id", "an agent card")
		return c.finish(A2AVersion10)
	}
	version := c.protocolVersion03(card)
	// A missing or non-string protocolVersion is reported by the schema.
	c.validateSchema(schemaCard03, schemaPolicy{unknownSeverity: SeverityWarning})
	c.typos03(card)
	c.unique("/skills", "id", "skill id", "an agent card")
	return c.finish(version)
}

// protocolVersion03 applies the policy on a 0.3-shaped card's
// protocolVersion and returns the detected version ("" if unsupported).
func (c *check) protocolVersion03(card map[string]any) string {
	pv, ok := card["protocolVersion"].(string)
	switch {
	case !ok, isProtocolVersion(pv, "0.3"):
	case isProtocolVersion(pv, "0.2"):
		c.add(SeverityWarning, "/protocolVersion", false,
			"protocolVersion %q is A2A 0.2; the card is checked against the A2A 0.3 schema, but the registry supports A2A 0.3 and 1.0: declare protocolVersion \"0.3.0\" (or use the 1.0 form with supportedInterfaces)", pv)
	default:
		c.add(SeverityError, "/protocolVersion", false,
			"unsupported protocolVersion %q: a card with a top-level url is A2A 0.3 and needs protocolVersion 0.3.x (0.2.x is accepted with a warning); an A2A 1.0 card declares supportedInterfaces instead of url and protocolVersion", pv)
		return ""
	}
	return A2AVersion03
}

// missingMembers lists the required members of the AgentCard definition of
// an embedded card schema that card lacks, in the schema's order; a field
// required under either of two names counts as present with either.
func missingMembers(schemaFile string, card map[string]any) []string {
	def, _ := lookup(schemas().raw[schemaBase+schemaFile], "/definitions/AgentCard")
	m, _ := def.(map[string]any)
	var required [][]string
	for _, r := range asList(m["required"]) {
		if name, ok := r.(string); ok {
			required = append(required, []string{name})
		}
	}
	for _, sub := range asList(m["allOf"]) {
		sm, _ := sub.(map[string]any)
		if names := rawRequiredAliases(sm["anyOf"]); names != nil {
			required = append(required, names)
		}
	}
	var missing []string
	for _, names := range required {
		if !slices.ContainsFunc(names, func(n string) bool { return has(card, n) }) {
			missing = append(missing, names[0])
		}
	}
	return missing
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// typos03 warns about a member of a 0.3 card, or of one of its skills, that
// the 0.3 schema does not define but that is close to a name it does: the
// schema allows unknown fields, so a misspelt "desription" would otherwise
// show only as a missing "description", and the registry would drop it.
func (c *check) typos03(card map[string]any) {
	defs, _ := lookup(schemas().raw[schemaBase+schemaCard03], "/definitions")
	defMap, _ := defs.(map[string]any)
	cardDef, _ := defMap["AgentCard"].(map[string]any)
	skillDef, _ := defMap["AgentSkill"].(map[string]any)
	c.typos(card, "", cardDef)
	for i, s := range asList(card["skills"]) {
		if skill, ok := s.(map[string]any); ok {
			c.typos(skill, fmt.Sprintf("/skills/%d", i), skillDef)
		}
	}
}

func (c *check) typos(obj map[string]any, ptr string, def map[string]any) {
	var unknown []string
	for k := range obj {
		if !propertyAllowed(def, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) == 0 {
		return
	}
	slices.Sort(unknown)
	allowed := allowedProperties(def)
	for _, k := range unknown {
		if s := suggest(k, allowed); s != "" {
			c.add(SeverityWarning, ptr+"/"+jsoncanon.EscapeToken(k), true,
				"unknown field %q: the A2A 0.3 agent card schema does not define it, so the registry ignores it; did you mean %q?", k, s)
		}
	}
}

// ParseAgentCard extracts the exposed fields of a card. It does not validate;
// call ValidateAgentCard first. Fields of the wrong type are left empty. The
// A2AVersion is "" when the card has both or neither of the 1.0 and 0.3
// shapes, or an unsupported protocolVersion.
func ParseAgentCard(doc []byte) (*AgentCard, error) {
	v, err := jsoncanon.Decode(doc)
	if err != nil {
		return nil, err
	}
	card, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("agent card: expected a JSON object, found " + jsonType(v))
	}
	shape := shapeOf(card)
	out := &AgentCard{
		Name:        str(card["name"]),
		Description: str(card["description"]),
		Version:     str(card["version"]),
		URLs:        cardURLs(card, shape.has10),
		Skills:      []Skill{},
	}
	switch {
	case shape.has10 && len(shape.fields03) == 0:
		out.A2AVersion = A2AVersion10
	case !shape.has10 && len(shape.fields03) > 0:
		pv, isStr := card["protocolVersion"].(string)
		if !isStr || isProtocolVersion(pv, "0.3") || isProtocolVersion(pv, "0.2") {
			out.A2AVersion = A2AVersion03
		}
	}
	for _, it := range asList(card["skills"]) {
		if m, ok := it.(map[string]any); ok {
			out.Skills = append(out.Skills, Skill{
				ID:          str(m["id"]),
				Name:        str(m["name"]),
				Description: str(m["description"]),
				Tags:        strs(m["tags"], true),
				Examples:    strs(m["examples"], false),
			})
		}
	}
	return out, nil
}

// cardURLs lists the agent's endpoint URLs in document order, each once: a
// 1.0 card's supportedInterfaces[].url (or supported_interfaces, the ProtoJSON
// proto name), otherwise the 0.3 url and additionalInterfaces[].url.
func cardURLs(card map[string]any, is10 bool) []string {
	var urls []string
	add := func(u string) {
		if u != "" && !slices.Contains(urls, u) {
			urls = append(urls, u)
		}
	}
	lists := []string{"supportedInterfaces", "supported_interfaces"}
	if !is10 {
		add(str(card["url"]))
		lists = []string{"additionalInterfaces"}
	}
	for _, field := range lists {
		for _, it := range asList(card[field]) {
			m, _ := it.(map[string]any)
			add(str(m["url"]))
		}
	}
	return urls
}

func str(v any) string {
	s, _ := v.(string)
	return s
}

// strs returns the string elements of a JSON array. With nonNil, a missing
// array gives an empty, non-nil slice.
func strs(v any, nonNil bool) []string {
	list := asList(v)
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
