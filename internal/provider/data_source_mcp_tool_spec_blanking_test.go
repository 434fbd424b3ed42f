package provider

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
)

// A stdio server's JSON-RPC error that echoes a value of env in ten
// encodings (PHP's and .NET's JSON escapes, all-\u, every byte %XX and %xx,
// Python's quote, encodeURIComponent, hex, HEX, base64): the plan's error
// blanks every one, and Terraform's trace log, which holds the diagnostic,
// shows none.
func TestAccMcpToolSpecDataSource_echoedEnvEncodingsBlanked(t *testing.T) {
	const token = "sk+0123/4567=89&ab"
	h := hex.EncodeToString([]byte(token))
	var uall, pct strings.Builder
	for i := 0; i < len(h); i += 2 {
		uall.WriteString(`\u00` + h[i:i+2])
		pct.WriteString("%" + strings.ToUpper(h[i:i+2]))
	}
	py := strings.NewReplacer("+", "%2B", "=", "%3D", "&", "%26").Replace(token)
	encodings := []string{strings.ReplaceAll(token, "/", `\/`), strings.ReplaceAll(token, "+", `\u002B`), uall.String(),
		pct.String(), strings.ToLower(pct.String()), py, strings.ReplaceAll(py, "/", "%2F"), h, strings.ToUpper(h),
		base64.StdEncoding.EncodeToString([]byte(token))}
	logFile := filepath.Join(t.TempDir(), "trace.log")
	t.Setenv("TF_VAR_token", token)
	t.Setenv("TF_LOG", "trace")
	t.Setenv("TF_ACC_LOG_PATH", logFile)
	blanked := `{"php":"(a value of env)","net":"(a value of env)","u":"(a value of env)","pct":"(a value of env)",` +
		`"pctl":"(a value of env)","py":"(a value of env)","js":"(a value of env)","hex":"(a value of env)",` +
		`"HEX":"(a value of env)","b64":"(a value of env)"}`
	resource.Test(t, resource.TestCase{ // not parallel: it sets the environment
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: "variable \"token\" {\n  type      = string\n  sensitive = true\n}\n" +
				toolDS("rpc", fmt.Sprintf("command = [\"sh\", \"-c\", %q]\nenv     = { API_TOKEN = var.token }", livedoctest.EchoingStdioServer)),
			ExpectError: relWords("Cannot Read MCP Tool List", "initialize with JSON-RPC error -32001: token rejected",
				"(data: "+blanked+")"),
		}},
	})
	trace, err := os.ReadFile(logFile)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(trace), "token rejected") {
		t.Fatalf("the trace log (%d bytes) holds no diagnostic of the read", len(trace))
	}
	for _, enc := range encodings {
		if i := strings.Index(string(trace), enc); i >= 0 {
			t.Errorf("the trace log shows %q: ...%s...", enc, trace[max(0, i-200):min(len(trace), i+100)])
		}
	}
}
