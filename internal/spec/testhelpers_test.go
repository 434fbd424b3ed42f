package spec

import "github.com/santhosh-tekuri/jsonschema/v5"

// compileForTest compiles an ad-hoc set of documents with the same loader as
// the embedded schemas.
func compileForTest(files map[string][]byte, name string) (*jsonschema.Schema, error) {
	return newCompiler(files).Compile(schemaBase + name)
}

// len is the number of results cached.
func (c *resultCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m)
}
