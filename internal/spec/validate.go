package spec

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"slices"
	"strconv"
	"strings"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// schemaPolicy says how schema failures are reported for one schema.
type schemaPolicy struct {
	// unknownSeverity is the severity of an additionalProperties failure.
	unknownSeverity Severity
	// unknownWhat is the message format (with one %q for the name) of an
	// unknown property.
	unknownWhat string
	// accepted holds the pointers of members that are not reported as
	// unknown although the schema does not define them (the A2A 0.3 fields
	// of a hybrid card, reported together instead).
	accepted map[string]bool
}

// validateSchema validates the document with the library's Validate against
// one embedded schema and adds a finding for each leaf cause of its error.
func (c *check) validateSchema(name string, pol schemaPolicy) {
	s := schemas()
	err := s.byName[name].Validate(c.value)
	if err == nil {
		return
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		c.add(SeverityError, "", false, "cannot validate the %s: %v", c.kind, err)
		return
	}
	t := translator{c: c, raw: s.raw, pol: pol, oneOfDone: map[string]bool{}}
	t.walk(ve)
}

// translator turns the library's ValidationError tree into findings worded
// for the user: the pointer, what the schema expects and what was found.
type translator struct {
	c   *check
	raw map[string]any // schema URL -> the schema document, to explain a failure
	pol schemaPolicy
	// oneOfDone holds the pointers of the oneof objects already reported:
	// both their additionalProperties and their maxProperties can fail.
	oneOfDone map[string]bool
}

// walk descends to the leaf causes of a validation error. A failed anyOf or
// oneOf is reported once, at its own location, because its branches' errors
// would contradict each other.
func (t *translator) walk(ve *jsonschema.ValidationError) {
	ptr := pointerOf(ve.InstanceLocation)
	schemaURL, frag := splitURL(ve.AbsoluteKeywordLocation)
	kw := lastToken(frag)
	if kw == "anyOf" || kw == "oneOf" {
		v, _ := lookup(t.c.value, ptr)
		node, _ := lookup(t.raw[schemaURL], frag)
		if names := rawRequiredAliases(node); kw == "anyOf" && names != nil {
			obj, _ := v.(map[string]any)
			def, _ := lookup(t.raw[schemaURL], definitionPointer(frag))
			defMap, _ := def.(map[string]any)
			t.c.add(SeverityError, ptr, false, "missing required property %q (also accepted as %q)%s", names[0], names[1], misspeltHint(obj, defMap, names...))
		} else {
			t.c.add(SeverityError, ptr, false, "expected a value matching one of the allowed forms (%s), found %s", kw, describe(v))
		}
		return
	}
	if len(ve.Causes) > 0 {
		for _, cause := range ve.Causes {
			t.walk(cause)
		}
		return
	}
	t.leaf(ve, ptr, schemaURL, frag)
}

// leaf translates one failed keyword: the last token of frag, the keyword's
// pointer in the schema document at schemaURL; ptr is the value's.
func (t *translator) leaf(ve *jsonschema.ValidationError, ptr, schemaURL, frag string) {
	kw := lastToken(frag)
	inst, _ := lookup(t.c.value, ptr)
	node, _ := lookup(t.raw[schemaURL], frag)
	parent, _ := lookup(t.raw[schemaURL], parentPointer(frag))
	parentMap, _ := parent.(map[string]any)
	def := t.definition10(schemaURL, frag)

	switch kw {
	case "type":
		t.c.add(SeverityError, ptr, false, "expected %s, found %s%s", typeList(node), describe(inst), typeHint(def, inst))
	case "required":
		obj, _ := inst.(map[string]any)
		req, _ := node.([]any)
		for _, r := range req {
			name, _ := r.(string)
			if _, ok := obj[name]; !ok {
				t.c.add(SeverityError, ptr, false, "missing required property %q%s", name, misspeltHint(obj, parentMap, name))
			}
		}
	case "additionalProperties":
		obj, _ := inst.(map[string]any)
		if isOneOf(parentMap) && t.oneOf(ptr, schemaURL, def, parentMap, obj) {
			return
		}
		t.unknown(ptr, def, parentMap, obj)
	case "const":
		t.c.add(SeverityError, ptr, false, "expected %s, found %s", preview(node), describe(inst))
	case "enum":
		vals, _ := node.([]any)
		parts := make([]string, 0, len(vals))
		for _, v := range vals {
			parts = append(parts, preview(v))
		}
		t.c.add(SeverityError, ptr, false, "expected one of %s, found %s", strings.Join(parts, ", "), describe(inst))
	case "format":
		t.c.add(SeverityError, ptr, false, "expected a valid %v, found %s", node, describe(inst))
	case "minimum":
		t.c.add(SeverityError, ptr, false, "expected a number >= %v, found %s", node, preview(inst))
	case "minProperties", "maxProperties":
		// The embedded schemas use them only for protobuf oneofs (both 1).
		obj, _ := inst.(map[string]any)
		t.oneOf(ptr, schemaURL, def, parentMap, obj)
	case "":
		t.c.add(SeverityError, ptr, false, "value not allowed here, found %s", describe(inst))
	default:
		t.c.add(SeverityError, ptr, false, "%s (found %s)", ve.Message, describe(inst))
	}
}

// definition10 is the name of the definition of the embedded A2A 1.0 card
// schema that a failed keyword belongs to, for the messages of forms10.go;
// "" in any other schema.
func (t *translator) definition10(schemaURL, frag string) string {
	if schemaURL != schemaBase+schemaCard10 {
		return ""
	}
	return definitionName(frag)
}

// isOneOf reports whether a schema object is a protobuf oneof: exactly one
// of its members may be set.
func isOneOf(schema map[string]any) bool {
	return schemaInt(schema, "minProperties") == 1 && schemaInt(schema, "maxProperties") == 1
}

// oneOf reports a oneof object at ptr unless exactly one of its members is
// an alternative the schema defines (other members are then reported as
// unknown, as anywhere else). It returns whether it reported the object.
func (t *translator) oneOf(ptr, schemaURL, def string, schema, obj map[string]any) bool {
	known := 0
	for k := range obj {
		if propertyAllowed(schema, k) {
			known++
		}
	}
	if known == 1 {
		return false
	}
	if !t.oneOfDone[ptr] {
		t.oneOfDone[ptr] = true
		defs, _ := lookup(t.raw[schemaURL], "/definitions")
		defMap, _ := defs.(map[string]any)
		t.c.add(SeverityError, ptr, false, "%s", oneOfMessage(def, schema, defMap, obj))
	}
	return true
}

// unknown reports each member of obj that its schema does not define, except
// those the policy accepts.
func (t *translator) unknown(ptr, def string, schema, obj map[string]any) {
	allowed := allowedProperties(schema)
	keys := make([]string, 0, len(obj))
	for k := range obj {
		if !propertyAllowed(schema, k) && !t.pol.accepted[ptr+"/"+jsoncanon.EscapeToken(k)] {
			keys = append(keys, k)
		}
	}
	slices.Sort(keys)
	for _, k := range keys {
		t.c.add(t.pol.unknownSeverity, ptr+"/"+jsoncanon.EscapeToken(k), true, "%s%s", unknownMessage(t.pol, k, allowed), unknownHint10(def, k, obj[k]))
	}
}

// rawRequiredAliases returns the two names of a required field that may be
// spelt either way: node is the embedded schemas' form of it, an anyOf of two
// alternatives that each only require one name (the A2A 1.0 card's
// lowerCamelCase JSON name and its snake_case proto name). Otherwise nil.
func rawRequiredAliases(node any) []string {
	alts, _ := node.([]any)
	if len(alts) != 2 {
		return nil
	}
	var names []string
	for _, alt := range alts {
		m, _ := alt.(map[string]any)
		req, _ := m["required"].([]any)
		name, ok := "", len(m) == 1 && len(req) == 1
		if ok {
			name, ok = req[0].(string)
		}
		if !ok {
			return nil
		}
		names = append(names, name)
	}
	return names
}

// misspeltHint names the members of obj that schema does not define and
// that suggest takes for one of names, the spellings of a missing member:
// "; "descripton" is not a field here: did you mean "description"?". An
// unknown field is only a warning in A2A cards, which a plan that fails on
// the missing member does not show; the error itself must say it. "" when
// there is none.
func misspeltHint(obj, schema map[string]any, names ...string) string {
	allowed := allowedProperties(schema)
	var hint strings.Builder
	for _, k := range sortedKeys(obj) {
		if s := suggest(k, allowed); !propertyAllowed(schema, k) && slices.Contains(names, s) {
			fmt.Fprintf(&hint, "; %q is not a field here: did you mean %q?", k, s)
		}
	}
	return hint.String()
}

// definitionPointer is the pointer of the definition a keyword location
// belongs to ("/definitions/AgentCard/allOf/0/anyOf" gives
// "/definitions/AgentCard"), or "" outside definitions.
func definitionPointer(frag string) string {
	tokens := strings.SplitN(strings.TrimPrefix(frag, "/"), "/", 3)
	if len(tokens) < 2 || tokens[0] != "definitions" {
		return ""
	}
	return "/definitions/" + tokens[1]
}

// allowedProperties lists the property names a schema object declares,
// camelCase names only (pattern properties are aliases).
func allowedProperties(schema map[string]any) []string {
	props, _ := schema["properties"].(map[string]any)
	out := make([]string, 0, len(props))
	for k := range props {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

func propertyAllowed(schema map[string]any, key string) bool {
	if props, ok := schema["properties"].(map[string]any); ok {
		if _, ok := props[key]; ok {
			return true
		}
	}
	if pats, ok := schema["patternProperties"].(map[string]any); ok {
		for p := range pats {
			// The embedded schemas only use anchored alternatives: ^(name)$.
			if strings.HasPrefix(p, "^(") && strings.HasSuffix(p, ")$") {
				for _, alt := range strings.Split(p[2:len(p)-2], "|") {
					if alt == key {
						return true
					}
				}
			}
		}
	}
	return false
}

// suggest returns the allowed name closest to key, when it is close enough
// to be a likely typo.
func suggest(key string, allowed []string) string {
	best, bestD := "", 3
	lk := strings.ToLower(key)
	for _, a := range allowed {
		if strings.ToLower(a) == lk {
			return a
		}
		if d := editDistance(lk, strings.ToLower(a)); d < bestD {
			best, bestD = a, d
		}
	}
	if bestD > 2 || (bestD == 2 && len(key) < 5) {
		return ""
	}
	return best
}

func editDistance(a, b string) int {
	ra, rb := []rune(a), []rune(b)
	prev := make([]int, len(rb)+1)
	cur := make([]int, len(rb)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(ra); i++ {
		cur[0] = i
		for j := 1; j <= len(rb); j++ {
			cost := 1
			if ra[i-1] == rb[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(rb)]
}

func typeList(node any) string {
	switch n := node.(type) {
	case string:
		return n
	case []any:
		parts := make([]string, 0, len(n))
		for _, x := range n {
			parts = append(parts, fmt.Sprint(x))
		}
		return strings.Join(parts, " or ")
	}
	return fmt.Sprint(node)
}

// jsonType names the JSON type of a decoded value.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// describe renders a found value: scalars with their value when short,
// containers by type.
func describe(v any) string {
	switch v.(type) {
	case []any, map[string]any:
		return jsonType(v)
	case nil:
		return "null"
	}
	p := preview(v)
	if len(p) > 60 {
		return jsonType(v)
	}
	return jsonType(v) + " " + p
}

func preview(v any) string {
	return string(jsoncanon.AppendCompact(nil, v))
}

// lookup resolves a JSON pointer in a decoded document.
func lookup(v any, ptr string) (any, bool) {
	for _, tok := range jsoncanon.SplitPointer(ptr) {
		switch c := v.(type) {
		case map[string]any:
			x, ok := c[tok]
			if !ok {
				return nil, false
			}
			v = x
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// splitURL splits a keyword location of the library into the schema's URL
// and the keyword's RFC 6901 pointer in it.
func splitURL(loc string) (string, string) {
	if i := strings.IndexByte(loc, '#'); i >= 0 {
		return loc[:i], pointerOf(loc[i+1:])
	}
	return loc, ""
}

// pointerOf converts a location of the library, which URL-escapes each
// token after the RFC 6901 escaping ("/my%20key", "/%5E%28a%29$"), to a
// plain RFC 6901 pointer ("/my key", "/^(a)$").
func pointerOf(loc string) string {
	if !strings.Contains(loc, "%") {
		return loc
	}
	tokens := strings.Split(loc, "/")
	for i, tok := range tokens {
		if plain, err := url.PathUnescape(tok); err == nil {
			tokens[i] = plain
		}
	}
	return strings.Join(tokens, "/")
}

func lastToken(ptr string) string {
	if i := strings.LastIndexByte(ptr, '/'); i >= 0 {
		return ptr[i+1:]
	}
	return ptr
}

func parentPointer(ptr string) string {
	if i := strings.LastIndexByte(ptr, '/'); i >= 0 {
		return ptr[:i]
	}
	return ""
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// unknownMessage explains an additionalProperties failure.
func unknownMessage(pol schemaPolicy, key string, allowed []string) string {
	msg := fmt.Sprintf("unknown property %q: not allowed here", key)
	if pol.unknownWhat != "" {
		msg = fmt.Sprintf(pol.unknownWhat, key)
	}
	if s := suggest(key, allowed); s != "" {
		msg += fmt.Sprintf("; did you mean %q?", s)
	} else if pol.unknownSeverity == SeverityError {
		msg += "; expected one of: " + strings.Join(allowed, ", ")
	}
	return msg
}

// schemaInt is the integer keyword of a schema object, or -1 when absent.
func schemaInt(schema map[string]any, keyword string) int {
	n, _ := schema[keyword].(json.Number)
	if v, err := n.Int64(); err == nil {
		return int(v)
	}
	return -1
}
