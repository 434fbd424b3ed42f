package livedoc

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

// tool is one kept tool: its name and its compact JSON.
type tool struct {
	name string
	raw  []byte
}

// toolFilter applies include_tools and exclude_tools.
type toolFilter struct{ include, exclude []string }

func newToolFilter(include, exclude []string) (*toolFilter, error) {
	if err := checkPatterns("include_tools", include); err != nil {
		return nil, err
	}
	if err := checkPatterns("exclude_tools", exclude); err != nil {
		return nil, err
	}
	return &toolFilter{include: include, exclude: exclude}, nil
}

// checkPatterns refuses a "*" anywhere but at the end: a glob would suggest a
// matching power the filter does not have.
func checkPatterns(option string, patterns []string) error {
	for _, p := range patterns {
		if i := strings.IndexByte(p, '*'); p == "" || p == "*" || (i >= 0 && i != len(p)-1) {
			return fmt.Errorf("%s pattern %q: expected a tool name, or a name prefix followed by one trailing *", option, p)
		}
	}
	return nil
}

func (f *toolFilter) keep(name string) bool {
	if len(f.include) > 0 && !matchesAny(f.include, name) {
		return false
	}
	return !matchesAny(f.exclude, name)
}

func matchesAny(patterns []string, name string) bool {
	return slices.ContainsFunc(patterns, func(p string) bool {
		if prefix, ok := strings.CutSuffix(p, "*"); ok {
			return strings.HasPrefix(name, prefix)
		}
		return p == name
	})
}

// shapeTools filters the raw tools of one page, drops output schemas when
// asked and compacts each one; first is the position of the page's first
// tool in the whole list, for messages.
func shapeTools(raws []json.RawMessage, first int, filter *toolFilter, dropOutputSchemas bool) ([]tool, error) {
	var tools []tool
	for i, r := range raws {
		var head struct {
			Name string `json:"name"`
		}
		if err := json.Unmarshal(r, &head); err != nil {
			return nil, fmt.Errorf("tool %d is not a JSON object: %v", first+i, err)
		}
		if !filter.keep(head.Name) {
			continue
		}
		if dropOutputSchemas {
			var err error
			if r, err = withoutMember(r, "outputSchema"); err != nil {
				return nil, fmt.Errorf("tool %q: %v", head.Name, err)
			}
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, r); err != nil {
			return nil, fmt.Errorf("tool %q: %v", head.Name, err)
		}
		tools = append(tools, tool{name: head.Name, raw: buf.Bytes()})
	}
	return tools, nil
}

// withoutMember removes one member of a JSON object, keeping every other
// value's bytes. HTML escaping is off so that "<" in a description stays "<".
func withoutMember(obj json.RawMessage, key string) (json.RawMessage, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(obj, &members); err != nil {
		return nil, err
	}
	if _, ok := members[key]; !ok {
		return obj, nil
	}
	delete(members, key)
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(members); err != nil {
		return nil, err
	}
	return bytes.TrimSpace(buf.Bytes()), nil
}

// assemble builds {"tools":[...]} and refuses it when it is over the
// registry's limit.
func assemble(target string, tools []tool) ([]byte, error) {
	doc := []byte(`{"tools":[`)
	for i, t := range tools {
		if i > 0 {
			doc = append(doc, ',')
		}
		doc = append(doc, t.raw...)
	}
	doc = append(doc, "]}"...)
	if len(doc) > spec.MaxDocumentBytes {
		return nil, tooLarge(target, len(doc), tools)
	}
	return doc, nil
}

func tooLarge(target string, size int, tools []tool) error {
	return fmt.Errorf("the tool spec of %s is %d bytes as compact JSON after filtering, over the registry's limit of %d bytes (10 KB); "+
		"reduce it by %d bytes; largest tools: %s. %s", target, size, spec.MaxDocumentBytes, size-spec.MaxDocumentBytes,
		largest(tools), trimAdvice)
}

// tooMuchKept is the error of a fetch stopped at MaxCollectedBytes.
func tooMuchKept(target string, page, size int, tools []tool) error {
	return fmt.Errorf("stopped reading the tools of %s at page %d: the tools kept so far are %d bytes as compact JSON after filtering, "+
		"over %d bytes (four times the registry's limit of %d bytes); largest tools so far: %s. %s",
		target, page, size, MaxCollectedBytes, spec.MaxDocumentBytes, largest(tools), trimAdvice)
}

// trimAdvice names the options that make a tool spec smaller.
const trimAdvice = "Register fewer tools with include_tools or exclude_tools (names or trailing * prefixes), " +
	"or remove output schemas with drop_output_schemas"

// largest names the largest tools with their sizes, in the words of every
// tool spec over the registry's limit (spec.LargestTools).
func largest(tools []tool) string {
	sizes := make([]spec.ToolSize, len(tools))
	for i, t := range tools {
		sizes[i] = spec.ToolSize{Name: t.name, Bytes: len(t.raw)}
	}
	return spec.LargestTools(sizes)
}
