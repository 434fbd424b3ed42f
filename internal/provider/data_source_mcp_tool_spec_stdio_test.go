//go:build unix

package provider

import (
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// hclList writes a list of strings as HCL.
func hclList(ss []string) string {
	quoted := make([]string, len(ss))
	for i, s := range ss {
		quoted[i] = fmt.Sprintf("%q", s)
	}
	return "[" + strings.Join(quoted, ", ") + "]"
}

// The stdio transport through the CLI: the real server-memory published on
// npm (installed by the test), started from command, with env and
// working_dir, and its tools fed to a registered MCP server.
func TestAccMcpToolSpecDataSource_stdio(t *testing.T) {
	dir := t.TempDir()
	memory := livedoctest.NPMBin(t, "@modelcontextprotocol/server-memory", "dist/index.js")
	reg := startRegistry(t)
	config := testkit.ProviderConfig(reg.URL) + toolDS("memory", fmt.Sprintf(`command     = %s
env         = { MEMORY_FILE_PATH = %q }
working_dir = %q
timeout     = "1m"
include_tools = ["create_*", "read_graph"]
drop_output_schemas = true`, hclList(memory), filepath.Join(dir, "memory.jsonl"), dir)) + `
resource "agentregistry_mcp_server" "memory" {
  service_id = "memory-stdio"
  tool_spec  = data.agentregistry_mcp_tool_spec.memory.json
}`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				toolValue("memory", "tool_names", resStrings("create_entities", "create_relations", "read_graph")),
				toolValue("memory", "server_name", knownvalue.StringExact("memory-server")),
				toolValue("memory", "protocol_version", knownvalue.StringExact("2025-11-25")),
				statecheck.ExpectKnownValue("agentregistry_mcp_server.memory", tfjsonpath.New("tool_names"),
					resStrings("create_entities", "create_relations", "read_graph")),
			},
		}},
	})
}

func TestAccMcpToolSpecDataSource_stdioRefusals(t *testing.T) {
	step := func(body string, want ...string) resource.TestStep {
		return resource.TestStep{Config: toolDS("x", body), ExpectError: relWords(want...)}
	}
	exits := `command = ["sh", "-c", "echo 'fatal: MEMORY_API_TOKEN is not set' >&2; exit 3"]`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			step(exits, "Cannot Read MCP Tool List", `the MCP server ["sh", "-c", "echo 'fatal: MEMORY_API_TOKEN is not set' >&2; exit 3"] (run as a process) exited (exit status 3) before answering`,
				"the end of its stderr:", "fatal: MEMORY_API_TOKEN is not set"),
			step(`command = ["no-such-mcp-server-program"]`, `the program "no-such-mcp-server-program" was not found in PATH`),
			step(`timeout = "5s"`, "Missing Attribute Configuration", "Exactly one of these attributes must be configured: [url,command]"),
			step(`url = "https://mcp.example.com/mcp"
command = ["true"]`, "Invalid Attribute Combination", "url", "command"),
			step(`command = ["true"]
headers = { Authorization = "Bearer x" }`, "Invalid Attribute Combination", "headers"),
			step(`url = "https://mcp.example.com/mcp"
env = { A = "b" }`, "Invalid Attribute Combination", "env"),
			step(`command = []`, "command", "at least 1"),
			step(`command = ["true"]
working_dir = ""`, "Empty Value", "working_dir must not be empty"),
			step(`command = ["true"]
inherit_env = ["HTTPS_PROXY", "AGENTREGISTRY_ACCESS_TOKEN"]`, "Invalid Inherited Variable",
				`inherit_env entry "AGENTREGISTRY_ACCESS_TOKEN": it is a credential of the provider, never passed to an MCP server`),
			step(`command = ["true"]
inherit_env = ["*"]`, "Invalid Inherited Variable", `"*" alone would pass the whole environment`),
			step(`url = "https://mcp.example.com/mcp"
inherit_env = ["HOME"]`, "Invalid Attribute Combination", "inherit_env"),
		},
	})
}

// The server's environment through the CLI: the MCP SDKs' allowlist, what
// inherit_env names and env; not the provider's token nor a TF_VAR_ value of
// the runner's. The server says what it found on stderr and exits.
func TestAccMcpToolSpecDataSource_stdioEnvironment(t *testing.T) {
	t.Setenv("AGENTREGISTRY_ACCESS_TOKEN", "provider-token-0123456789")
	t.Setenv("TF_VAR_db_password", "db-password-0123456789")
	t.Setenv("LIVEDOC_NAMED", "from-runner")
	t.Setenv("NODE_TEST_ONE", "one")
	script := `ok=yes
[ -n "$AGENTREGISTRY_ACCESS_TOKEN" ] && ok=no
[ -n "$TF_VAR_db_password" ] && ok=no
[ "$LIVEDOC_NAMED" = from-runner ] || ok=no
[ "$NODE_TEST_ONE" = one ] || ok=no
[ "$GIVEN" = given ] || ok=no
[ -n "$PATH" ] || ok=no
echo "environment as expected: $ok; names: $(env | cut -d= -f1 | sort | tr '\n' ' ')" >&2
exit 3`
	resource.Test(t, resource.TestCase{ // not parallel: it sets the runner's environment
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: toolDS("env", fmt.Sprintf(`command     = ["sh", "-c", %q]
inherit_env = ["LIVEDOC_NAMED", "NODE_*", "AGENTREGISTRY_*"]
env         = { GIVEN = "given" }`, script)),
			ExpectError: relWords("the end of its stderr:", "environment as expected: yes;"),
		}},
	})
}

// mcpServerScript is a stdio MCP server in sh, without an SDK: it refuses
// server/discover as servers before MCP 2026-07-28 do, and answers
// initialize with a JSON-RPC error that quotes $API_TOKEN (raw in its
// message, base64 in its data), then exits.
const mcpServerScript = `while IFS= read -r line; do
  id=$(printf '%s' "$line" | sed -n 's/.*"id":\([^,}]*\).*/\1/p')
  [ -n "$id" ] || continue
  case "$line" in
    *'"method":"initialize"'*)
      printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32001,"message":"token %s rejected","data":{"b64":"%s"}}}\n' \
        "$id" "$API_TOKEN" "$(printf '%s' "$API_TOKEN" | base64 | tr -d '\n')"
      exit 0;;
    *) printf '{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"Method not found"}}\n' "$id";;
  esac
done`

// A JSON-RPC error to initialize that quotes a value of env: the plan error
// quotes the error with the value blanked, and so does Terraform's trace log
// (which holds every diagnostic).
func TestAccMcpToolSpecDataSource_jsonRPCErrorBlanked(t *testing.T) {
	const token = "sk-live-0123456789abcdef"
	testBlankedInTheTrace(t, token, toolDS("rpc", fmt.Sprintf(`command = ["sh", "-c", %q]
env     = { API_TOKEN = var.token }`, mcpServerScript)), relWords("Cannot Read MCP Tool List",
		"answered server/discover with JSON-RPC error -32601: Method not found, then initialize with JSON-RPC error -32001:",
		`token (a value of env) rejected (data: {"b64":"(a value of env)"})`))
}

// The same over HTTP: a JSON-RPC error to tools/list that quotes the token of
// an Authorization header, raw and base64-encoded.
func TestAccMcpToolSpecDataSource_jsonRPCErrorBlankedOverHTTP(t *testing.T) {
	const token = "ghp_0123456789abcdefghij"
	s := livedoctest.NewMCPServer(0, livedoctest.NamedTools("a")...)
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" {
				data, _ := json.Marshal(map[string]string{"seen": base64.StdEncoding.EncodeToString([]byte(token))})
				return nil, &jsonrpc.Error{Code: -32001, Message: "Bearer " + token + " may not list tools", Data: data}
			}
			return next(ctx, method, req)
		}
	})
	srv := livedoctest.ServeMCP(t, s, false, nil)
	testBlankedInTheTrace(t, token, toolDS("rpc", fmt.Sprintf(`url     = %q
headers = { Authorization = "Bearer ${var.token}" }`, srv.URL)), relWords("Cannot Read MCP Tool List",
		"answered tools/list with JSON-RPC error -32001: (a value of headers) may not list tools",
		`(data: {"seen":"(a value of headers)"})`))
}

// testBlankedInTheTrace plans config, whose var.token (sensitive, as a real
// one would be: the test harness logs the configuration's text) is token, and
// expects want; Terraform's trace log must then hold the read's diagnostic
// and neither the token nor its base64 form.
func testBlankedInTheTrace(t *testing.T, token, config string, want *regexp.Regexp) {
	t.Helper()
	logFile := filepath.Join(t.TempDir(), "trace.log")
	t.Setenv("TF_VAR_token", token)
	t.Setenv("TF_LOG", "trace")
	t.Setenv("TF_ACC_LOG_PATH", logFile)
	resource.Test(t, resource.TestCase{ // not parallel: it sets the environment
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config:      "variable \"token\" {\n  type      = string\n  sensitive = true\n}\n" + config,
			ExpectError: want,
		}},
	})
	trace, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(trace), "Cannot Read MCP Tool List") {
		t.Fatalf("the trace log (%d bytes) holds no diagnostic of the read", len(trace))
	}
	for _, leaked := range []string{token, base64.StdEncoding.EncodeToString([]byte(token))[:16]} {
		if i := strings.Index(string(trace), leaked); i >= 0 {
			t.Errorf("the trace log shows %q: ...%s...", leaked, trace[max(0, i-300):min(len(trace), i+100)])
		}
	}
}
