// Package toollock is the lock of approved MCP tools: for each tool a team
// approved, its definition in RFC 8785 canonical form and the SHA-256 of those
// bytes. A tool spec (a tools/list result) is compared with a lock tool by tool
// and field, so that a server that changed a tool after approval (a new
// description that instructs the model, a widened input schema) is named
// before anything is registered.
//
// The digest of a tool is defined once, here: SHA-256 over the RFC 8785 bytes
// (internal/jsoncanon) of the tool object as it stands in the spec's "tools"
// array, with every member it has (name, title, description, inputSchema,
// outputSchema, annotations, icons, _meta and any other), written as 64
// lowercase hexadecimal digits. Nothing is left out: the field an attack
// changes is the field a digest that omits it would miss.
//
// The lock is written by Make and read back by Parse: a JSON object
// {"tools": {NAME: {"definition": TOOL, "sha256": DIGEST}}, "version": 1},
// in canonical member order and indented by two spaces, so that the same
// tools always give the same bytes and a review diff shows the field that
// changed on its own line.
package toollock

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/termsafe"
)

// Version is the lock format's version, the lock's "version" member.
const Version = 1

// MaxLockBytes bounds the lock Parse reads. The lock of any tool spec the
// registry accepts (10,240 bytes of compact JSON) is far smaller; the bound
// only keeps a wrong file (a log, a state) from costing a plan much.
const MaxLockBytes = 1 << 20

// Tool is one tool of a tool spec or of a lock.
type Tool struct {
	Name string
	// Definition is the tool object as decoded by jsoncanon.Decode.
	Definition map[string]any
	// Canonical is the RFC 8785 form of Definition; Digest its SHA-256.
	Canonical []byte
	Digest    string
}

// Digest is the SHA-256 of canonical bytes, as 64 lowercase hexadecimal digits.
func Digest(canonical []byte) string {
	sum := sha256.Sum256(canonical)
	return hex.EncodeToString(sum[:])
}

// canonical is the RFC 8785 form of a value jsoncanon.Decode returned (or
// one built of such values). jsoncanon writes the canonical form of a
// document, so the value is written compact first. Every value Decode
// accepts has that form: it refuses the numbers that have none, so the
// validators, which read documents through it too, and the lock agree on
// what a valid tool spec is.
func canonical(v any) []byte {
	c, _ := jsoncanon.Canonical(jsoncanon.AppendCompact(nil, v))
	return c
}

// newTool is the Tool of a decoded tool object.
func newTool(name string, def map[string]any) Tool {
	c := canonical(def)
	return Tool{Name: name, Definition: def, Canonical: c, Digest: Digest(c)}
}

// Tools reads the tools of a tool spec in document order, each with its
// canonical bytes and digest. The spec is expected valid (the spec package
// validates it); what would make a lock ambiguous is an error here too: a
// tool that is not an object or has no string name, and a name used twice.
func Tools(spec []byte) ([]Tool, error) {
	v, err := jsoncanon.Decode(spec)
	if err != nil {
		return nil, safeError(err)
	}
	doc, ok := v.(map[string]any)
	list, isList := doc["tools"].([]any)
	if !ok || !isList {
		return nil, errors.New(`a tool spec is an object with a "tools" array (a tools/list result)`)
	}
	tools := make([]Tool, 0, len(list))
	seen := map[string]bool{}
	for i, it := range list {
		def, _ := it.(map[string]any)
		name, isName := def["name"].(string)
		switch {
		case !isName:
			return nil, fmt.Errorf("/tools/%d: expected a tool object with a string name", i)
		case seen[name]:
			return nil, fmt.Errorf("/tools/%d: the tool name %q is used twice", i, name)
		}
		seen[name] = true
		tools = append(tools, newTool(name, def))
	}
	return tools, nil
}

// Digests maps each tool name of a tool spec to its digest.
func Digests(spec []byte) (map[string]string, error) {
	tools, err := Tools(spec)
	if err != nil {
		return nil, err
	}
	digests := make(map[string]string, len(tools))
	for _, t := range tools {
		digests[t.Name] = t.Digest
	}
	return digests, nil
}

// Make returns the lock of a tool spec's tools: the same bytes for the same
// tools, whatever their key order, spacing or number spelling.
func Make(spec []byte) ([]byte, error) {
	tools, err := Tools(spec)
	if err != nil {
		return nil, err
	}
	entries := make(map[string]any, len(tools))
	for _, t := range tools {
		entries[t.Name] = map[string]any{"definition": t.Definition, "sha256": t.Digest}
	}
	lock := canonical(map[string]any{"tools": entries, "version": json.Number("1")})
	// json.Indent only adds whitespace between tokens: strings and numbers
	// stay in their canonical spelling.
	var out bytes.Buffer
	if err := json.Indent(&out, lock, "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// Lock is a parsed lock: the approved tools by name.
type Lock struct {
	Tools map[string]Tool
}

// Parse reads a lock that Make wrote (in any spacing or key order), checking
// each tool's digest against its definition. Every problem is in the error,
// one per line, sorted.
func Parse(lock []byte) (*Lock, error) {
	if len(lock) > MaxLockBytes {
		return nil, fmt.Errorf("the lock has %d bytes, over the limit of %d bytes: is it the file that "+
			"provider::agentregistry::tool_lock wrote?", len(lock), MaxLockBytes)
	}
	v, err := jsoncanon.Decode(lock)
	if err != nil {
		return nil, safeError(err)
	}
	doc, _ := v.(map[string]any)
	var problems []string
	for k := range doc {
		if k != "tools" && k != "version" {
			problems = append(problems, fmt.Sprintf("/%s: unknown member (a lock has only tools and version)", jsoncanon.EscapeToken(k)))
		}
	}
	if n, _ := doc["version"].(json.Number); n != "1" {
		problems = append(problems, fmt.Sprintf("/version: expected %d, found %s", Version, describe(doc["version"])))
	}
	entries, ok := doc["tools"].(map[string]any)
	if !ok {
		problems = append(problems, "/tools: expected an object of approved tools by name, found "+describe(doc["tools"]))
	}
	l := &Lock{Tools: make(map[string]Tool, len(entries))}
	for name, e := range entries {
		t, err := parseEntry(name, e)
		if err != nil {
			problems = append(problems, err.Error())
			continue
		}
		l.Tools[name] = t
	}
	if len(problems) > 0 {
		sort.Strings(problems)
		for i, p := range problems {
			problems[i] = termsafe.Escape(p)
		}
		return nil, errors.New(strings.Join(problems, "\n"))
	}
	return l, nil
}

// safeError is err with every character that is not graphic escaped
// (termsafe.Escape): a lock's or a tool spec's keys and values are an MCP
// server's text, and its errors reach a terminal.
func safeError(err error) error {
	return errors.New(termsafe.Escape(err.Error()))
}

// parseEntry reads one approved tool and checks its digest.
func parseEntry(name string, e any) (Tool, error) {
	at := "/tools/" + jsoncanon.EscapeToken(name)
	entry, _ := e.(map[string]any)
	def, isDef := entry["definition"].(map[string]any)
	sum, isSum := entry["sha256"].(string)
	switch {
	case entry == nil || !isDef || !isSum || len(entry) != 2:
		return Tool{}, fmt.Errorf("%s: expected {\"definition\": {...}, \"sha256\": \"...\"}, found %s", at, describe(e))
	case def["name"] != name:
		return Tool{}, fmt.Errorf("%s/definition/name: expected %q (the tool's key), found %s", at, name, describe(def["name"]))
	}
	t := newTool(name, def)
	if t.Digest != sum {
		return Tool{}, fmt.Errorf("%s/sha256: %q is not the digest of the definition (%s): the lock was edited "+
			"by hand; make it again with provider::agentregistry::tool_lock", at, sum, t.Digest)
	}
	return t, nil
}

// describe names a JSON value's type, and shows it when short.
func describe(v any) string {
	if v == nil {
		return "nothing (or null)"
	}
	text := string(jsoncanon.AppendCompact(nil, v))
	if len(text) > 60 {
		return fmt.Sprintf("a %s", typeName(v))
	}
	return fmt.Sprintf("%s %s", typeName(v), text)
}

func typeName(v any) string {
	switch v.(type) {
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "boolean"
	}
	return "null"
}
