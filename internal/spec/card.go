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
	// is10: supportedInterfaces (or supported_interfaces) is present, and is
	// not an empty list beside the 0.3 fields. A card that lists its
	// interfaces is A2A 1.0, whatever 0.3 fields it keeps beside them.
	is10 bool
	// emptyInterfaces names the empty supportedInterfaces list of a card read
	// as 0.3 because of it.
	emptyInterfaces string
	fields03        []string // url / protocolVersion present, in that order
}

// interfaceFields are the names of a 1.0 card's interfaces: ProtoJSON
// accepts the proto name as well as the JSON name.
var interfaceFields = []string{"supportedInterfaces", "supported_interfaces"}

func shapeOf(card map[string]any) cardShape {
	var s cardShape
	for _, f := range []string{"url", "protocolVersion"} {
		if has(card, f) {
			s.fields03 = append(s.fields03, f)
		}
	}
	for _, name := range interfaceFields {
		v, ok := card[name]
		if list, isList := v.([]any); ok && isList && len(list) == 0 && len(s.fields03) > 0 {
			s.emptyInterfaces = name
		} else if ok {
			s.is10 = true
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
	case shape.is10:
		c.validateCard10(card)
		return c.finish(A2AVersion10)
	case len(shape.fields03) == 0:
		missing03, missing10 := missingMembers(schemaCard03, card), missingMembers(schemaCard10, card)
		c.add(SeverityError, "", false,
			"cannot detect the A2A version: expected supportedInterfaces (A2A 1.0) or top-level url and protocolVersion (A2A 0.3), found none of them; missing for A2A 0.3: %s; missing for A2A 1.0: %s%s",
			strings.Join(missing03, ", "), strings.Join(missing10, ", "),
			misspeltHint(card, cardDefinition(schemaCard10), slices.Concat(missing03, missing10)...))
		c.validateEitherVersion(false)
		return c.finish("")
	}
	return c.finish(c.validateCard03(card, shape))
}

// validateCard03 checks a card with a top-level url or protocolVersion and no
// interfaces, and returns its version: "0.3", or "" when its protocolVersion
// is unsupported (it is then checked as validateEitherVersion checks).
func (c *check) validateCard03(card map[string]any, shape cardShape) string {
	if shape.emptyInterfaces != "" {
		c.add(SeverityWarning, "/"+shape.emptyInterfaces, false,
			"%s is an empty list, so the card is read as A2A 0.3 (it has %s); list the agent's interfaces there to make it an A2A 1.0 card, or remove it",
			shape.emptyInterfaces, strings.Join(shape.fields03, " and "))
	}
	version := c.protocolVersion03(card)
	if version == "" {
		c.validateEitherVersion(true)
		return ""
	}
	c.validateSchema(schemaCard03, schemaPolicy{unknownSeverity: SeverityWarning})
	c.typos03(card)
	c.unique("/skills", "id", "skill id", "an agent card")
	c.officiallyRequired(card, A2AVersion03)
	c.bindingNames(card, false, true)
	return version
}

// unknown10 words an unknown member of a 1.0 card.
const unknown10 = "unknown field %q: it is not part of the A2A 1.0 agent card schema; the registry may ignore or reject it"

// validateCard10 checks a card that lists its interfaces: against the 1.0
// schema, and the A2A 0.3 fields that a hybrid card keeps beside them against
// theirs (see hybrid03).
func (c *check) validateCard10(card map[string]any) {
	h := c.hybrid03(card)
	c.validateSchema(schemaCard10, schemaPolicy{unknownSeverity: SeverityWarning, unknownWhat: unknown10, accepted: h.accepted})
	if h.hybrid {
		c.validateSchema(schemaCard03Fields, schemaPolicy{unknownSeverity: SeverityError})
	}
	c.unique("/skills", "id", "skill id", "an agent card")
	c.officiallyRequired(card, A2AVersion10)
	c.bindingNames(card, true, h.hybrid)
}

// validateEitherVersion checks a card whose A2A version is unknown or
// unsupported for the errors it would have as either version: those both
// schemas report, such as a missing name or a skill without tags. A
// message that named one version would guess which one the card meant.
// Without rootRequired, the members missing at the top are left out: the
// version error has listed them.
func (c *check) validateEitherVersion(rootRequired bool) {
	as03 := &check{kind: c.kind, doc: c.doc, value: c.value}
	as10 := &check{kind: c.kind, doc: c.doc, value: c.value}
	as03.validateSchema(schemaCard03, schemaPolicy{unknownSeverity: SeverityWarning})
	as10.validateSchema(schemaCard10, schemaPolicy{unknownSeverity: SeverityWarning, unknownWhat: unknown10})
	in10 := map[finding]bool{}
	for _, f := range as10.findings {
		in10[f] = true
	}
	for _, f := range as03.findings {
		listed := f.ptr == "" && strings.HasPrefix(f.msg, "missing required property")
		if f.sev == SeverityError && in10[f] && (rootRequired || !listed) {
			c.findings = append(c.findings, f)
		}
	}
	c.unique("/skills", "id", "skill id", "an agent card")
}

// protocolVersion03 applies the policy on a 0.3-shaped card's
// protocolVersion and returns the detected version ("" if unsupported).
// A missing or non-string protocolVersion is reported by the 0.3 schema.
func (c *check) protocolVersion03(card map[string]any) string {
	pv, ok := card["protocolVersion"].(string)
	switch {
	case !ok, isProtocolVersion(pv, "0.3"):
	case isProtocolVersion(pv, "0.2"):
		c.add(SeverityWarning, "/protocolVersion", false,
			"protocolVersion %q is A2A 0.2; the card is checked against the A2A 0.3 schema, but the registry supports A2A 0.3 and 1.0: declare protocolVersion \"0.3.0\" (or use the 1.0 form with supportedInterfaces)", pv)
	case declares1x(pv):
		c.add(SeverityError, "/protocolVersion", false,
			"protocolVersion %q declares A2A 1.0, but the card has no supportedInterfaces: an A2A 1.0 card lists each endpoint there with its url, protocolBinding and protocolVersion (top-level url and protocolVersion are A2A 0.3 fields); or declare protocolVersion \"0.3.0\" for an A2A 0.3 card", pv)
		return ""
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
	m := cardDefinition(schemaFile)
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

// cardDefinition is the AgentCard definition of an embedded card schema.
func cardDefinition(schemaFile string) map[string]any {
	def, _ := lookup(schemas().raw[schemaBase+schemaFile], "/definitions/AgentCard")
	m, _ := def.(map[string]any)
	return m
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
// A2AVersion is detected as ValidateAgentCard detects it: "1.0" for a card
// that lists its interfaces (with or without the 0.3 fields of a hybrid
// card), "0.3" for one with a top-level url or protocolVersion 0.2.x or 0.3.x,
// and "" for neither shape or an unsupported protocolVersion.
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
		URLs:        cardURLs(card, shape.is10),
		Skills:      []Skill{},
	}
	switch {
	case shape.is10:
		out.A2AVersion = A2AVersion10
	case len(shape.fields03) > 0:
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
	lists := interfaceFields
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
