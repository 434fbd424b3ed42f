package tooltext

import (
	"fmt"
	"slices"
	"sort"
	"strconv"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
)

// fieldKind is what a string is to the model: its place decides which rules
// apply (a sentence where a name is expected is itself a finding).
type fieldKind int

const (
	kindToolName   fieldKind = iota
	kindProse                // title, description, a schema's description, title or $comment
	kindIdentifier           // a property name, a required entry, a keyword's string value
	kindValue                // a string in a default, enum, const or examples
)

// textItem is one string of the document and where it is.
type textItem struct {
	tool    int
	pointer string
	kind    fieldKind
	// keyword is the schema keyword a kindIdentifier string belongs to
	// ("properties" for a property name, "required", "type"...).
	keyword string
	text    string
}

// toolInfo is what the per-tool and cross-tool rules need of a tool.
type toolInfo struct {
	name        string // as in the document
	description string
	descPointer string
	readOnly    bool
	params      map[string]bool
}

// reference is an identifier a tool's prose names, for the rules that look
// for tools the document (or the server) does not have.
type reference struct {
	tool    int
	pointer string
	ident   string
	invoked bool // next to call, use, invoke, before...
}

// analysis is one document being read.
type analysis struct {
	tools    []any
	info     []toolInfo
	names    map[string]bool
	refs     []reference
	findings []Finding
	seen     map[string]bool
	strings  int
	stopped  bool
}

func newAnalysis(tools []any) *analysis {
	n := min(len(tools), MaxTools)
	return &analysis{tools: tools, info: make([]toolInfo, n), names: map[string]bool{}, seen: map[string]bool{}}
}

// run reads every tool, then applies the rules that compare tools.
func (a *analysis) run() {
	for _, t := range a.tools[:len(a.info)] {
		if obj, ok := t.(map[string]any); ok {
			if n, ok := obj["name"].(string); ok {
				a.names[n] = true
			}
		}
	}
	for i := range a.info {
		a.walkTool(i)
		if a.stopped {
			return
		}
	}
	if len(a.tools) > MaxTools {
		a.unchecked(-1, toolPointer(MaxTools), fmt.Sprintf("the document has more than %d tools", MaxTools))
		return
	}
	a.checkFlood()
	a.checkUnknownReferences()
}

func toolPointer(i int) string { return "/tools/" + strconv.Itoa(i) }

func (a *analysis) walkTool(i int) {
	obj, ok := a.tools[i].(map[string]any)
	if !ok {
		return
	}
	base := toolPointer(i)
	info := &a.info[i]
	info.params = map[string]bool{}
	if n, ok := obj["name"].(string); ok {
		info.name = n
		a.scan(textItem{tool: i, pointer: base + "/name", kind: kindToolName, text: n})
	}
	for _, k := range []string{"title", "description"} {
		if s, ok := obj[k].(string); ok {
			a.scan(textItem{tool: i, pointer: base + "/" + k, kind: kindProse, text: s})
		}
	}
	if d, ok := obj["description"].(string); ok {
		info.description, info.descPointer = d, base+"/description"
	}
	if ann, ok := obj["annotations"].(map[string]any); ok {
		if s, ok := ann["title"].(string); ok {
			a.scan(textItem{tool: i, pointer: base + "/annotations/title", kind: kindProse, text: s})
		}
		info.readOnly, _ = ann["readOnlyHint"].(bool)
	}
	for _, k := range []string{"inputSchema", "outputSchema"} {
		if s, ok := obj[k]; ok {
			a.walkSchema(i, base+"/"+k, s, 0)
		}
	}
	a.checkReadOnly(i)
}

// walkSchema reads every string of a schema, the names of its properties
// included, as what it is to the model.
func (a *analysis) walkSchema(i int, ptr string, v any, depth int) {
	if a.stopped {
		return
	}
	if depth > MaxSchemaDepth {
		a.unchecked(i, ptr, fmt.Sprintf("a schema nested more than %d levels", MaxSchemaDepth))
		return
	}
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			a.schemaMember(i, ptr, k, x[k], depth)
		}
	case []any:
		for j, e := range x {
			a.walkSchema(i, ptr+"/"+strconv.Itoa(j), e, depth+1)
		}
	case string:
		a.scan(textItem{tool: i, pointer: ptr, kind: kindIdentifier, keyword: keywordOf(ptr), text: x})
	}
}

// namedSchemas are the keywords whose members are named schemas.
var namedSchemas = map[string]bool{"properties": true, "patternProperties": true, "$defs": true,
	"definitions": true, "dependentSchemas": true}

func (a *analysis) schemaMember(i int, ptr, k string, v any, depth int) {
	p := ptr + "/" + jsoncanon.EscapeToken(k)
	m, isMap := v.(map[string]any)
	switch {
	case namedSchemas[k] && isMap:
		for _, name := range sortedKeys(m) {
			np := p + "/" + jsoncanon.EscapeToken(name)
			if k == "properties" || k == "patternProperties" {
				a.scan(textItem{tool: i, pointer: np, kind: kindIdentifier, keyword: "properties", text: name})
				a.checkParameterName(i, np, name, depth)
			}
			a.walkSchema(i, np, m[name], depth+1)
		}
	case k == "description" || k == "title" || k == "$comment":
		if s, ok := v.(string); ok {
			a.scan(textItem{tool: i, pointer: p, kind: kindProse, text: s})
			return
		}
		a.walkSchema(i, p, v, depth+1)
	case k == "default" || k == "enum" || k == "const" || k == "examples" || k == "example":
		a.walkValue(i, p, v, depth+1)
	default:
		a.walkSchema(i, p, v, depth+1)
	}
}

// walkValue reads the strings of an instance value (a default, an enum...),
// the keys of its objects included.
func (a *analysis) walkValue(i int, ptr string, v any, depth int) {
	if a.stopped {
		return
	}
	if depth > MaxSchemaDepth {
		a.unchecked(i, ptr, fmt.Sprintf("a value nested more than %d levels", MaxSchemaDepth))
		return
	}
	switch x := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(x) {
			p := ptr + "/" + jsoncanon.EscapeToken(k)
			a.scan(textItem{tool: i, pointer: p, kind: kindValue, text: k})
			a.walkValue(i, p, x[k], depth+1)
		}
	case []any:
		for j, e := range x {
			a.walkValue(i, ptr+"/"+strconv.Itoa(j), e, depth+1)
		}
	case string:
		a.scan(textItem{tool: i, pointer: ptr, kind: kindValue, text: x})
	}
}

// keywordOf is the schema keyword a string at ptr is the value of: the last
// token that is not an array index ("required" for .../required/0).
func keywordOf(ptr string) string {
	for _, tok := range slices.Backward(jsoncanon.SplitPointer(ptr)) {
		if _, err := atoi(tok); err != nil {
			return tok
		}
	}
	return ""
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// add records a finding once per pointer and rule.
func (a *analysis) add(tool int, pointer, rule, detail string) {
	key := pointer + "\x00" + rule
	if a.seen[key] {
		return
	}
	a.seen[key] = true
	r := ruleByID[rule]
	name := "" // tool -1: a finding of the whole document
	if tool >= 0 {
		name = escapeHidden(a.info[tool].name)
	}
	a.findings = append(a.findings, Finding{Tool: name, Pointer: pointer, Rule: rule, Severity: r.Severity,
		Message: r.Title + ": " + detail})
}

// unchecked stops the analysis with a high finding: what is past a bound is
// not read, so nothing can be said of it.
func (a *analysis) unchecked(tool int, pointer, why string) {
	a.add(tool, pointer, "unchecked-text", why+"; the text past this point was not read")
	a.stopped = true
}
