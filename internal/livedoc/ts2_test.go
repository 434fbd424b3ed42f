//go:build unix

package livedoc

import (
	"bytes"
	"context"
	"slices"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/stdio"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

// A server of the official TypeScript SDK v2 (npm, installed by the test)
// that speaks MCP 2026-07-28 only, over Streamable HTTP and over stdio: the
// tools come through as sent (icons with a theme, JSON Schema 2020-12
// keywords) and validate as a tool spec.
func TestFetchToolSpecFromTypeScriptSDKv2(t *testing.T) {
	opts := ToolSpecOptions{Options: Options{Timeout: time.Minute}}
	overHTTP, err := FetchToolSpec(context.Background(), livedoctest.ServeTS2HTTP(t), opts)
	if err != nil {
		t.Fatal(err)
	}
	overStdio, err := FetchToolSpecCommand(context.Background(), stdio.Command{Args: livedoctest.NodeScript(t, "ts2-server.mjs", "stdio")}, opts)
	if err != nil {
		t.Fatal(err)
	}
	for transport, got := range map[string]*ToolSpec{"http": overHTTP, "stdio": overStdio} {
		if got.ProtocolVersion != "2026-07-28" || got.ServerName != "ts2-test-server" || !slices.Equal(got.ToolNames, []string{"get_weather", "echo"}) {
			t.Errorf("%s: protocol %q, server %q, tools %v", transport, got.ProtocolVersion, got.ServerName, got.ToolNames)
		}
		for _, want := range []string{`"theme":"dark"`, `"prefixItems":[`, `"$schema":"https://json-schema.org/draft/2020-12/schema"`} {
			if !bytes.Contains(got.JSON, []byte(want)) {
				t.Errorf("%s: %s not in %s", transport, want, got.JSON)
			}
		}
		if r := spec.ValidateToolSpec(got.JSON); !r.Valid() || len(r.Warnings()) > 0 {
			t.Errorf("%s: the tools of a TypeScript SDK v2 server do not validate: %v %v", transport, r.Errors(), r.Warnings())
		}
	}
}
