package livedoc_test

// BenchmarkLiveRead measures the time and allocations of each kind of live
// read against local servers: a card, the tools of an MCP server over HTTP
// (one page, and 50 pages), behind OAuth (discovery and a token on every
// read), and started as a process. It asserts nothing; compare its figures
// with those of another build in the same session:
//
//	go test ./internal/livedoc -run '^$' -bench LiveRead -count 6 -benchmem

import (
	"context"
	"net/http"
	"os"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/mcpauth"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/stdio"
)

const benchCard = `{"name":"a","description":"d","version":"1","protocolVersion":"0.3.0","url":"http://x/",
"capabilities":{},"defaultInputModes":["text"],"defaultOutputModes":["text"],"skills":[]}`

func BenchmarkLiveRead(b *testing.B) {
	ctx := context.Background()
	card := livedoctest.Serve(b, map[string]http.HandlerFunc{"/.well-known/agent-card.json": livedoctest.JSON(benchCard)})
	one := livedoctest.ServeMCP(b, livedoctest.NewMCPServer(0, livedoctest.NamedTools("a", "b", "c")...), false, nil)
	names := make([]string, 50)
	for i := range names {
		names[i] = string(rune('a'+i%26)) + string(rune('a'+i/26))
	}
	paged := livedoctest.ServeMCP(b, livedoctest.NewMCPServer(1, livedoctest.NamedTools(names...)...), false, nil)
	as := livedoctest.NewAuthServer(b, livedoctest.AuthServerConfig{ClientID: "bench", Secret: "bench-secret-0123456789",
		Methods: []string{livedoctest.SecretBasic}})
	protected := livedoctest.ServeProtectedMCP(b, livedoctest.NewMCPServer(0, livedoctest.NamedTools("a")...), as,
		livedoctest.ProtectedOptions{})
	for _, c := range []struct {
		name string
		read func() error
	}{
		{"card", func() error { _, err := livedoc.FetchAgentCard(ctx, card.URL, livedoc.Options{}); return err }},
		{"tools-http", func() error {
			_, err := livedoc.FetchToolSpec(ctx, one.URL+"/mcp", livedoc.ToolSpecOptions{})
			return err
		}},
		{"tools-http-50-pages", func() error {
			_, err := livedoc.FetchToolSpec(ctx, paged.URL+"/mcp", livedoc.ToolSpecOptions{})
			return err
		}},
		{"tools-oauth", func() error {
			_, err := livedoc.FetchToolSpec(ctx, protected.URL, livedoc.ToolSpecOptions{OAuth: benchOAuth()})
			return err
		}},
		{"tools-process", func() error {
			_, err := livedoc.FetchToolSpecCommand(ctx, benchCommand(), livedoc.ToolSpecOptions{})
			return err
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if err := c.read(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// benchCommand runs this test binary as a well-behaved stdio server (five
// tools, two a page: TestMain's "paged" mode).
func benchCommand() stdio.Command {
	return stdio.Command{Args: []string{os.Args[0]}, Env: map[string]string{"LIVEDOC_HOSTILE_MCP": "paged"}}
}

func benchOAuth() *mcpauth.Client {
	return benchOAuthFor("bench", "bench-secret-0123456789")
}

func benchOAuthFor(id, secret string) *mcpauth.Client {
	return &mcpauth.Client{Grant: &mcpauth.ClientCredentials{ClientID: id, ClientSecret: secret}}
}
