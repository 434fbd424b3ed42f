package spec

import (
	"errors"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
)

// ValidateToolSpec checks an MCP tool spec: a tools/list result, {"tools":[Tool...]}.
func ValidateToolSpec(doc []byte) *Result {
	return cached(KindToolSpec, doc, validateToolSpec)
}

func validateToolSpec(doc []byte) *Result {
	c, done := begin(KindToolSpec, doc)
	if done != nil {
		return done
	}
	c.validateSchema(schemaToolSpec, schemaPolicy{unknownSeverity: SeverityError})
	c.unique("/tools", "name", "tool name", "a tool spec")
	c.toolExecution()
	return c.finish("")
}

// MCP defaults for missing annotation hints.
const (
	DefaultReadOnlyHint    = false
	DefaultDestructiveHint = true
	DefaultIdempotentHint  = false
	DefaultOpenWorldHint   = true
)

// ParseToolSpec extracts the tools of a tool spec. It does not validate.
// Title is the tool's title, else annotations.title. Hints of the wrong type
// take their default.
func ParseToolSpec(doc []byte) ([]Tool, error) {
	v, err := jsoncanon.Decode(doc)
	if err != nil {
		return nil, err
	}
	spec, ok := v.(map[string]any)
	if !ok {
		return nil, errors.New("tool spec: expected a JSON object, found " + jsonType(v))
	}
	list, ok := spec["tools"].([]any)
	if !ok {
		return nil, errors.New("tool spec: expected a tools array, found " + describe(spec["tools"]))
	}
	tools := make([]Tool, 0, len(list))
	for _, it := range list {
		m, ok := it.(map[string]any)
		if !ok {
			continue
		}
		ann, _ := m["annotations"].(map[string]any)
		t := Tool{
			Name:            str(m["name"]),
			Title:           str(m["title"]),
			Description:     str(m["description"]),
			ReadOnlyHint:    hint(ann, "readOnlyHint", DefaultReadOnlyHint),
			DestructiveHint: hint(ann, "destructiveHint", DefaultDestructiveHint),
			IdempotentHint:  hint(ann, "idempotentHint", DefaultIdempotentHint),
			OpenWorldHint:   hint(ann, "openWorldHint", DefaultOpenWorldHint),
		}
		if t.Title == "" {
			t.Title = str(ann["title"])
		}
		tools = append(tools, t)
	}
	return tools, nil
}

func hint(ann map[string]any, name string, def bool) bool {
	if b, ok := ann[name].(bool); ok {
		return b
	}
	return def
}
