package spec

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// finding is a Problem before it is located in the text.
type finding struct {
	sev Severity
	ptr string
	// key locates the member name that introduces ptr rather than its value
	// (used for unknown properties).
	key bool
	msg string
}

// check accumulates the findings on one decoded document.
type check struct {
	kind Kind
	doc  []byte
	// value is the document as parseTree decodes it (objects as *object).
	value    any
	findings []finding
	// library forces validation with the library's Validate (tests compare
	// both evaluations).
	library bool
}

func (c *check) add(sev Severity, ptr string, key bool, format string, args ...any) {
	c.findings = append(c.findings, finding{sev: sev, ptr: ptr, key: key, msg: fmt.Sprintf(format, args...)})
}

// schemaPolicy says how schema failures are reported for one schema.
type schemaPolicy struct {
	// unknownSeverity is the severity of an additionalProperties failure.
	unknownSeverity Severity
	// unknownWhat is the message format (with one %q for the name) of an
	// unknown property.
	unknownWhat string
}

// begin decodes doc and runs the checks common to every kind (JSON syntax,
// size). It returns nil and a finished Result when the document is not JSON.
func begin(kind Kind, doc []byte, library bool) (*check, *Result) {
	v, err := parseTree(doc)
	if err != nil {
		var se *SyntaxError
		p := Problem{Severity: SeverityError, Message: "invalid JSON: " + err.Error()}
		if errors.As(err, &se) {
			p.Line, p.Column = se.Line, se.Column
			p.Message = "invalid JSON: " + se.Msg
		}
		return nil, &Result{Kind: kind, Problems: []Problem{p}}
	}
	return &check{kind: kind, doc: doc, value: v, library: library}, nil
}

// finish normalises the document, applies the size limit, locates and sorts
// the findings.
func (c *check) finish(a2aVersion string) *Result {
	compact := encodeNormal(make([]byte, 0, len(c.doc)), c.value)
	if len(compact) > MaxDocumentBytes {
		c.add(SeverityError, "", false,
			"the %s is %d bytes as compact JSON, over the registry's limit of %d bytes (10 KB); reduce it by %d bytes",
			c.kind, len(compact), MaxDocumentBytes, len(compact)-MaxDocumentBytes)
	}
	r := &Result{Kind: c.kind, A2AVersion: a2aVersion, Compact: compact}
	if len(c.findings) == 0 {
		return r
	}
	targets := make([]target, 0, len(c.findings))
	for _, f := range c.findings {
		targets = append(targets, target{f.ptr, f.key})
	}
	loc := newLocator(c.doc, targets)
	r.Problems = make([]Problem, 0, len(c.findings))
	for _, f := range c.findings {
		off := loc.offset(target{f.ptr, f.key})
		if off < 0 && f.key {
			off = loc.offset(target{f.ptr, false})
		}
		line, col := loc.lineCol(off)
		r.Problems = append(r.Problems, Problem{Severity: f.sev, Pointer: f.ptr, Line: line, Column: col, Message: f.msg})
	}
	sortProblems(r.Problems)
	r.Problems = slices.Compact(r.Problems)
	return r
}

func sortProblems(ps []Problem) {
	slices.SortStableFunc(ps, func(a, b Problem) int {
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		if a.Column != b.Column {
			return a.Column - b.Column
		}
		if c := strings.Compare(a.Pointer, b.Pointer); c != 0 {
			return c
		}
		if a.Severity != b.Severity {
			if a.Severity == SeverityError {
				return -1
			}
			return 1
		}
		return strings.Compare(a.Message, b.Message)
	})
}

// validateSchema validates the decoded document against one embedded schema
// and adds a finding for every failure.
func (c *check) validateSchema(name string, pol schemaPolicy) {
	s := schemas()
	if s.fast[name] && !c.library {
		ev := evaluator{c: c, pol: pol, stack: make([]pathTok, 0, 16)}
		ev.eval(s.byName[name], c.value, true)
		return
	}
	c.validateSchemaLibrary(name, pol)
}

// validateSchemaLibrary validates with the library's own Validate and
// translates the leaf causes of its error.
func (c *check) validateSchemaLibrary(name string, pol schemaPolicy) {
	s := schemas()
	val := toStd(c.value)
	err := s.byName[name].Validate(val)
	if err == nil {
		return
	}
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		c.add(SeverityError, "", false, "cannot validate the %s: %v", c.kind, err)
		return
	}
	t := translator{c: c, val: val, raw: s.raw, pol: pol}
	t.walk(ve)
}

type translator struct {
	c   *check
	val any // the document as encoding/json decodes it
	raw map[string]any
	pol schemaPolicy
}

// walk descends to the leaf causes of a validation error. A failed anyOf or
// oneOf is reported once, at its own location, because its branches' errors
// would contradict each other.
func (t *translator) walk(ve *jsonschema.ValidationError) {
	kw := lastToken(fragment(ve.AbsoluteKeywordLocation))
	if kw == "anyOf" || kw == "oneOf" {
		v, _ := lookup(t.val, ve.InstanceLocation)
		url, frag := splitURL(ve.AbsoluteKeywordLocation)
		node, _ := lookup(t.raw[url], frag)
		if names := rawRequiredAliases(node); kw == "anyOf" && names != nil {
			t.c.add(SeverityError, ve.InstanceLocation, false, "missing required property %q (also accepted as %q)", names[0], names[1])
		} else {
			t.c.add(SeverityError, ve.InstanceLocation, false, "expected a value matching one of the allowed forms (%s), found %s", kw, describe(v))
		}
		return
	}
	if len(ve.Causes) > 0 {
		for _, cause := range ve.Causes {
			t.walk(cause)
		}
		return
	}
	t.leaf(ve, kw)
}

func (t *translator) leaf(ve *jsonschema.ValidationError, kw string) {
	ptr := ve.InstanceLocation
	inst, _ := lookup(t.val, ptr)
	url, frag := splitURL(ve.AbsoluteKeywordLocation)
	node, _ := lookup(t.raw[url], frag)
	parent, _ := lookup(t.raw[url], parentPointer(frag))
	parentMap, _ := parent.(map[string]any)

	switch kw {
	case "type":
		t.c.add(SeverityError, ptr, false, "expected %s, found %s", typeList(node), jsonType(inst))
	case "required":
		obj, _ := inst.(map[string]any)
		req, _ := node.([]any)
		for _, r := range req {
			name, _ := r.(string)
			if _, ok := obj[name]; !ok {
				t.c.add(SeverityError, ptr, false, "missing required property %q", name)
			}
		}
	case "additionalProperties":
		obj, _ := inst.(map[string]any)
		allowed := allowedProperties(parentMap)
		keys := make([]string, 0, len(obj))
		for k := range obj {
			if !propertyAllowed(parentMap, k) {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			t.c.add(t.pol.unknownSeverity, ptr+"/"+escapePointer(k), true, "%s", unknownMessage(t.pol, k, allowed))
		}
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
		obj, _ := inst.(map[string]any)
		minP, maxP := -1, -1
		if n, ok := parentMap["minProperties"].(float64); ok {
			minP = int(n)
		}
		if n, ok := parentMap["maxProperties"].(float64); ok {
			maxP = int(n)
		}
		t.c.add(SeverityError, ptr, false, "%s", propertyCountMessage(minP, maxP, allowedProperties(parentMap), sortedKeys(obj)))
	case "":
		t.c.add(SeverityError, ptr, false, "value not allowed here, found %s", describe(inst))
	default:
		t.c.add(SeverityError, ptr, false, "%s (found %s)", ve.Message, describe(inst))
	}
}

// rawRequiredAliases is requiredAliases (eval.go) on the schema's JSON: the two
// names when node is [{"required":[a]},{"required":[b]}], otherwise nil.
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
	case json.Number, float64:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	case map[string]any, *object:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// describe renders a found value: scalars with their value when short,
// containers by type.
func describe(v any) string {
	switch v.(type) {
	case []any, map[string]any, *object:
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
	return string(encodeNormal(nil, v))
}

// lookup resolves a JSON pointer in a decoded document.
func lookup(v any, ptr string) (any, bool) {
	for _, tok := range splitPointer(ptr) {
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

func splitURL(loc string) (string, string) {
	if i := strings.IndexByte(loc, '#'); i >= 0 {
		return loc[:i], loc[i+1:]
	}
	return loc, ""
}

func fragment(loc string) string {
	_, f := splitURL(loc)
	return f
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
