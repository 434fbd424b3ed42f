package spec

import (
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v5"
)

// as is v as a T, or the test fails: the values a test builds or decodes
// have the types it expects, and a wrong one is the test's own bug.
func as[T any](t testing.TB, v any) T {
	t.Helper()
	x, ok := v.(T)
	if !ok {
		t.Fatalf("%T is not a %T", v, x)
	}
	return x
}

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
