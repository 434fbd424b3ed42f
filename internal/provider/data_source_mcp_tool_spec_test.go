package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// canonicalTool is a tool of livedoctest.NamedTools in RFC 8785 form, by hand.
func canonicalTool(name, extra string) string {
	return `{"inputSchema":{"properties":{"n":{"maximum":1,"type":"number"}},"type":"object"},"name":"` + name + `"` + extra + `}`
}

// liveTools are five tools; the first has an output schema.
func liveTools() []*mcp.Tool {
	tools := livedoctest.NamedTools("files_read", "files_write", "files_delete", "search", "admin_reset")
	tools[0].OutputSchema = json.RawMessage(`{"type":"object","description":"<b>"}`)
	return tools
}

func toolDS(name, body string) string { return dsBlock("agentregistry_mcp_tool_spec", name, body) }

func toolValue(name, attr string, check knownvalue.Check) statecheck.StateCheck {
	return dsCheck("agentregistry_mcp_tool_spec", name, attr, check)
}

func TestAccMcpToolSpecDataSource_reads(t *testing.T) {
	const token = "Bearer mcp-s3cret"
	paged := livedoctest.ServeMCP(t, livedoctest.NewMCPServer(2, liveTools()...), false, nil)
	sse := livedoctest.ServeMCP(t, livedoctest.NewMCPServer(2, livedoctest.NamedTools("a", "b", "c")...), true, nil)
	guarded := livedoctest.ServeMCP(t, livedoctest.NewMCPServer(0, livedoctest.NamedTools("private")...), false,
		func(next http.Handler) http.Handler { return livedoctest.RequireHeader("Authorization", token, next) })
	// The SDK server lists its tools by name.
	all := `{"tools":[` + canonicalTool("admin_reset", "") + "," + canonicalTool("files_delete", "") + "," +
		canonicalTool("files_read", `,"outputSchema":{"description":"<b>","type":"object"}`) + "," +
		canonicalTool("files_write", "") + "," + canonicalTool("search", "") + "]}"
	filtered := `{"tools":[` + canonicalTool("files_read", "") + "," + canonicalTool("files_write", "") + "," + canonicalTool("search", "") + "]}"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: toolDS("all", fmt.Sprintf("url = %q", paged.URL)) +
				toolDS("filtered", fmt.Sprintf(`url = %q
include_tools       = ["files_*", "search"]
exclude_tools       = ["files_delete"]
drop_output_schemas = true`, paged.URL)) +
				toolDS("sse", fmt.Sprintf("url = %q\ntransport = \"sse\"", sse.URL)) +
				toolDS("guarded", fmt.Sprintf("url = %q\nheaders = { Authorization = %q }\ntimeout = \"20s\"", guarded.URL, token)),
			ConfigStateChecks: []statecheck.StateCheck{
				// Five tools at two a page: every nextCursor was followed.
				toolValue("all", "tool_names", resStrings("admin_reset", "files_delete", "files_read", "files_write", "search")),
				toolValue("all", "json", knownvalue.StringExact(all)),
				toolValue("all", "sha256", knownvalue.StringExact(sha256Hex(all))),
				toolValue("all", "server_name", knownvalue.StringExact("test-server")),
				toolValue("all", "server_version", knownvalue.StringExact("1.2.3")),
				toolValue("all", "protocol_version", knownvalue.StringExact("2025-11-25")),
				toolValue("filtered", "tool_names", resStrings("files_read", "files_write", "search")),
				toolValue("filtered", "json", knownvalue.StringExact(filtered)),
				toolValue("filtered", "sha256", knownvalue.StringExact(sha256Hex(filtered))),
				toolValue("sse", "tool_names", resStrings("a", "b", "c")),
				toolValue("guarded", "tool_names", resStrings("private")),
			},
		}},
	})
}

// replaceToolsList makes a server answer tools/list with result, or err.
func replaceToolsList(s *mcp.Server, result *mcp.ListToolsResult, err error) *mcp.Server {
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" {
				return result, err
			}
			return next(ctx, method, req)
		}
	})
	return s
}

func TestAccMcpToolSpecDataSource_refusals(t *testing.T) {
	var big []*mcp.Tool
	for i, size := range []int{900, 3000, 1000, 2500, 2000, 1500, 800} {
		big = append(big, &mcp.Tool{Name: fmt.Sprintf("t%d", i), Description: strings.Repeat("x", size), InputSchema: json.RawMessage(livedoctest.RawSchema)})
	}
	tooBig := livedoctest.ServeMCP(t, livedoctest.NewMCPServer(3, big...), false, nil)
	failing := livedoctest.ServeMCP(t, replaceToolsList(livedoctest.NewMCPServer(0, livedoctest.NamedTools("a")...), nil,
		&jsonrpc.Error{Code: -32001, Message: "tool registry unavailable"}), false, nil)
	guarded := livedoctest.ServeMCP(t, livedoctest.NewMCPServer(0, livedoctest.NamedTools("a")...), false,
		func(next http.Handler) http.Handler {
			return livedoctest.RequireHeader("Authorization", "Bearer right", next)
		})
	slow := livedoctest.ServeMCP(t, livedoctest.NewMCPServer(0, livedoctest.NamedTools("a")...), false,
		func(http.Handler) http.Handler { return livedoctest.Stall(10 * time.Second) })
	invalid := livedoctest.ServeMCP(t, replaceToolsList(livedoctest.NewMCPServer(0), &mcp.ListToolsResult{Tools: []*mcp.Tool{
		{Name: "bad", InputSchema: json.RawMessage(`{"type":"string"}`)},
	}}, nil), false, nil)
	web := livedoctest.Serve(t, map[string]http.HandlerFunc{"/": livedoctest.Typed("text/html", "<!doctype html><title>Welcome</title>")})
	// Hostile servers: an answer that never ends, as
	// JSON and as an event, and pages that never end.
	var written atomic.Int64
	huge := livedoctest.ServeMCP(t, livedoctest.NewMCPServer(0, livedoctest.NamedTools("a")...), false, livedoctest.HugeToolsList(64<<20, &written, false))
	hugeEvent := livedoctest.ServeMCP(t, livedoctest.NewMCPServer(0, livedoctest.NamedTools("a")...), false, livedoctest.HugeToolsList(64<<20, &written, true))
	endless := livedoctest.NewMCPServer(0)
	livedoctest.PagedTools(endless, 0, func(int) int { return 2000 })
	pages := livedoctest.ServeMCP(t, endless, false, nil)
	step := func(body string, want ...string) resource.TestStep {
		return resource.TestStep{Config: toolDS("x", body), ExpectError: relWords(want...)}
	}
	url := func(u string) string { return fmt.Sprintf("url = %q", u) }
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			step(url(tooBig.URL), "Cannot Read MCP Tool List", "the tool spec of "+tooBig.URL,
				"over the registry's limit of 10240 bytes", "largest tools: t1 (", "t3 (", "t4 (", "t5 (", "t2 (",
				"include_tools or exclude_tools", "drop_output_schemas"),
			step(url(failing.URL), "the MCP server "+failing.URL+" answered tools/list with JSON-RPC error -32001: tool registry unavailable"),
			step(url(guarded.URL)+"\nheaders = { Authorization = \"Bearer wrong\" }",
				"the MCP server "+guarded.URL+" refused the request: POST "+guarded.URL+" answered 401 Unauthorized",
				"check the credentials given in headers"),
			step(url(guarded.URL), "answered 401 Unauthorized", "check the credentials given in headers"),
			step(url(slow.URL)+"\ntimeout = \"300ms\"", "MCP server/discover or initialize: timed out after 300ms waiting for "+slow.URL),
			step(url(web.URL+"/mcp"), web.URL+"/mcp does not look like an MCP server: POST "+web.URL+"/mcp answered 200 OK",
				`content type "text/html"`, `body starting "<!doctype html><title>Welcome</title>"`),
			step(url(invalid.URL), "Invalid MCP Tool Spec", "The document served at "+invalid.URL, "/tools/0/inputSchema/type"),
			{ // the resource's message for the same document
				Config: testkit.ProviderConfig("http://127.0.0.1:1") + `
resource "agentregistry_mcp_server" "same" {
  service_id = "same-message"
  tool_spec  = jsonencode({ tools = [{ name = "bad", inputSchema = { type = "string" } }] })
}`,
				ExpectError: relWords("Invalid MCP Tool Spec", "/tools/0/inputSchema/type"),
			},
			step(url(tooBig.URL)+"\ninclude_tools = [\"a*b\"]", "Invalid Tool Pattern", `"a*b"`, "a name prefix followed by one trailing *"),
			step(url(tooBig.URL)+"\nexclude_tools = [\"*\"]", "Invalid Tool Pattern", `"*"`),
			step(url(tooBig.URL)+"\ntransport = \"websocket\"", "transport", "value must be one of"),
			step(url(huge.URL), "Cannot Read MCP Tool List", "the MCP server "+huge.URL+" sent an answer to POST "+huge.URL+
				" over the 1048576-byte (1 MiB) limit; stopped reading"),
			step(url(hugeEvent.URL), "sent an event of the stream answering POST "+hugeEvent.URL+" over the 1048576-byte (1 MiB) limit"),
			step(url(pages.URL), "stopped reading the tools of "+pages.URL+" at page 20", "largest tools so far: page000001 (",
				"include_tools or exclude_tools", "drop_output_schemas"),
			step(url(slow.URL)+"\ntimeout = \"2m1s\"", "Invalid Timeout", "is not a positive duration of at most 2m0s"),
		},
	})
}
