package spec

import (
	"bytes"
	"embed"
	"fmt"
	"io"
	"strings"
	"sync"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
	"github.com/santhosh-tekuri/jsonschema/v5"
)

// The project's own schemas, derived from the published specifications (see the
// $comment of each file). They are compiled once per process and never fetched.
//
//go:embed schemas/*.json
var schemaFS embed.FS

// schemaBase is the base URL of the embedded schemas. The .invalid TLD
// (RFC 2606) guarantees it can never resolve to a real host.
const schemaBase = "https://agentregistry.invalid/schemas/"

// Embedded schema file names.
const (
	schemaCard03 = "a2a-agent-card-0.3.schema.json"
	schemaCard10 = "a2a-agent-card-1.0.schema.json"
	// schemaCard03Fields types the A2A 0.3 fields of a hybrid 1.0 card.
	schemaCard03Fields = "a2a-agent-card-0.3-fields.schema.json"
	schemaToolSpec     = "mcp-tool-spec.schema.json"
	schemaProperties   = "agent-properties.schema.json"
)

var schemaFiles = []string{schemaCard03, schemaCard10, schemaCard03Fields, schemaToolSpec, schemaProperties}

// compiledSchemas holds every compiled schema and the raw decoded schema
// documents, used to explain validation errors (allowed property names,
// expected types).
type compiledSchemas struct {
	byName map[string]*jsonschema.Schema
	raw    map[string]any // URL -> decoded schema document
}

var (
	schemasOnce sync.Once
	schemasVal  *compiledSchemas
	schemasErr  error
)

// schemas returns the compiled embedded schemas; they are compiled on first
// use, once per process.
func schemas() *compiledSchemas {
	schemasOnce.Do(func() {
		schemasVal, schemasErr = compileEmbedded()
	})
	if schemasErr != nil {
		// The embedded schemas are part of the binary and covered by tests;
		// failing to compile them is a programming error.
		panic("spec: embedded schemas do not compile: " + schemasErr.Error())
	}
	return schemasVal
}

func compileEmbedded() (*compiledSchemas, error) {
	files := map[string][]byte{}
	for _, name := range schemaFiles {
		b, err := schemaFS.ReadFile("schemas/" + name)
		if err != nil {
			return nil, err
		}
		files[name] = b
	}
	c := newCompiler(files)
	out := &compiledSchemas{byName: map[string]*jsonschema.Schema{}, raw: map[string]any{}}
	for _, name := range schemaFiles {
		s, err := c.Compile(schemaBase + name)
		if err != nil {
			return nil, err
		}
		out.byName[name] = s
		raw, err := jsoncanon.Decode(files[name])
		if err != nil {
			return nil, err
		}
		out.raw[schemaBase+name] = raw
	}
	return out, nil
}

// newCompiler returns a draft-07 compiler that knows the given embedded
// documents (name relative to schemaBase) and refuses to load anything else:
// no network, no file system, ever.
func newCompiler(files map[string][]byte) *jsonschema.Compiler {
	c := jsonschema.NewCompiler()
	c.Draft = jsonschema.Draft7
	c.LoadURL = func(u string) (io.ReadCloser, error) {
		if name, ok := strings.CutPrefix(u, schemaBase); ok {
			if b, ok := files[name]; ok {
				return io.NopCloser(bytes.NewReader(b)), nil
			}
		}
		return nil, fmt.Errorf("refusing to load schema %q: only the embedded schemas are available (no network access)", u)
	}
	return c
}

// AgentPropertiesSchema returns the embedded draft-07 JSON schema of
// apphub.googleapis.com/AgentProperties (served by the bundled server).
// The caller owns the returned slice.
func AgentPropertiesSchema() []byte {
	b, err := schemaFS.ReadFile("schemas/" + schemaProperties)
	if err != nil {
		panic("spec: embedded AgentProperties schema missing: " + err.Error())
	}
	return bytes.Clone(b)
}
