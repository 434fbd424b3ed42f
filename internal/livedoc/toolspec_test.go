package livedoc

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

const rawSchema = livedoctest.RawSchema

var (
	newMCPServer = livedoctest.NewMCPServer
	namedTools   = livedoctest.NamedTools
	serveMCP     = livedoctest.ServeMCP
)

// methodLog records the JSON-RPC method and MCP-Protocol-Version of each POST.
type methodLog struct {
	mu    sync.Mutex
	calls []string
}

func (l *methodLog) wrap(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.Method == http.MethodPost {
			body, _ := io.ReadAll(r.Body)
			r.Body = io.NopCloser(bytes.NewReader(body))
			var m struct{ Method string }
			_ = json.Unmarshal(body, &m) // what is no JSON-RPC request is logged with no method
			l.mu.Lock()
			l.calls = append(l.calls, m.Method+"@"+r.Header.Get("Mcp-Protocol-Version"))
			l.mu.Unlock()
		}
		next.ServeHTTP(w, r)
	})
}

func fetchToolsErr(t *testing.T, url string, opts ToolSpecOptions) string {
	t.Helper()
	got, err := FetchToolSpec(context.Background(), url, opts)
	if err == nil {
		t.Fatalf("FetchToolSpec(%s) = %s, want an error", url, got.JSON)
	}
	return err.Error()
}

func TestFetchToolSpecFollowsEveryPage(t *testing.T) {
	var names []string
	for i := range 12 {
		names = append(names, fmt.Sprintf("tool%02d", i))
	}
	var log methodLog
	srv := serveMCP(t, newMCPServer(5, namedTools(names...)...), false, log.wrap)
	got, err := FetchToolSpec(context.Background(), srv.URL, ToolSpecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.ToolNames, names) {
		t.Errorf("names = %v", got.ToolNames)
	}
	if got.ServerName != "test-server" || got.ServerVersion != "1.2.3" || got.ProtocolVersion != "2025-11-25" {
		t.Errorf("server %q %q, protocol %q", got.ServerName, got.ServerVersion, got.ProtocolVersion)
	}
	want := `{"tools":[{"inputSchema":` + rawSchema + `,"name":"tool00"}`
	if !bytes.HasPrefix(got.JSON, []byte(want)) || !json.Valid(got.JSON) {
		t.Errorf("JSON = %s\nwant it to start %s", got.JSON, want)
	}
	// 12 tools at 5 a page: three tools/list calls, each with the negotiated
	// version header (which the wrapped connection would otherwise lose).
	list := "tools/list@" + "2025-11-25"
	log.mu.Lock()
	defer log.mu.Unlock()
	// A stateful server of the Go SDK does not serve 2026-07-28: it refuses
	// server/discover, and the SDK falls back to initialize.
	if n := strings.Count(strings.Join(log.calls, " "), list); n != 3 || log.calls[0] != "server/discover@2026-07-28" || log.calls[1] != "initialize@" {
		t.Errorf("calls = %v, want server/discover, initialize then 3 × %s", log.calls, list)
	}
}

func TestFetchToolSpecOverSSE(t *testing.T) {
	srv := serveMCP(t, newMCPServer(2, namedTools("a", "b", "c")...), true, nil)
	got, err := FetchToolSpec(context.Background(), srv.URL, ToolSpecOptions{SSE: true})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.ToolNames, []string{"a", "b", "c"}) {
		t.Errorf("names = %v", got.ToolNames)
	}
}

func TestFetchToolSpecFilters(t *testing.T) {
	tools := namedTools("files_read", "files_write", "files_delete", "search")
	tools[0].OutputSchema = json.RawMessage(`{"type":"object","description":"<b>"}`)
	srv := serveMCP(t, newMCPServer(0, tools...), false, nil)
	got, err := FetchToolSpec(context.Background(), srv.URL, ToolSpecOptions{
		IncludeTools: []string{"files_*", "search"}, ExcludeTools: []string{"files_delete"},
	})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.ToolNames, []string{"files_read", "files_write", "search"}) {
		t.Errorf("names = %v", got.ToolNames)
	}
	if !bytes.Contains(got.JSON, []byte(`"outputSchema":{"type":"object","description":"<b>"}`)) {
		t.Errorf("output schema not kept as sent: %s", got.JSON)
	}
	got, err = FetchToolSpec(context.Background(), srv.URL, ToolSpecOptions{
		IncludeTools: []string{"files_read"}, DropOutputSchemas: true,
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"tools":[{"inputSchema":` + rawSchema + `,"name":"files_read"}]}`; string(got.JSON) != want {
		t.Errorf("JSON = %s\nwant %s", got.JSON, want)
	}
}

func TestFetchToolSpecRejectsBadPatterns(t *testing.T) {
	for opts, want := range map[*ToolSpecOptions]string{
		{IncludeTools: []string{"a*b"}}: `include_tools pattern "a*b": expected a tool name, or a name prefix followed by one trailing *`,
		{ExcludeTools: []string{"*"}}:   `exclude_tools pattern "*"`,
		{ExcludeTools: []string{""}}:    `exclude_tools pattern ""`,
		{ExcludeTools: []string{"*x"}}:  `exclude_tools pattern "*x"`,
	} {
		wantContains(t, fetchToolsErr(t, "http://127.0.0.1:1/mcp", *opts), want)
	}
}

func TestFetchToolSpecOverTheLimit(t *testing.T) {
	var tools []*mcp.Tool
	for i, size := range []int{900, 3000, 1000, 2500, 2000, 1500, 800} {
		tools = append(tools, &mcp.Tool{Name: fmt.Sprintf("t%d", i), Description: strings.Repeat("x", size), InputSchema: json.RawMessage(rawSchema)})
	}
	srv := serveMCP(t, newMCPServer(0, tools...), false, nil)
	msg := fetchToolsErr(t, srv.URL, ToolSpecOptions{})
	size := func(n int) int { return n + len(`{"description":"","inputSchema":`+rawSchema+`,"name":"t0"}`) }
	total := len(`{"tools":[]}`) + len(tools) - 1
	for _, n := range []int{900, 3000, 1000, 2500, 2000, 1500, 800} {
		total += size(n)
	}
	// Worded as agentregistry_mcp_server words a tool_spec over the limit.
	wantContains(t, msg, "the tool spec of "+srv.URL, fmt.Sprintf("is %d bytes as compact JSON after filtering, over the "+
		"registry's limit of 10240 bytes (10 KB); reduce it by %d bytes; largest tools: ", total, total-10240),
		fmt.Sprintf("largest tools: t1 (%d bytes), t3 (%d bytes), t4 (%d bytes), t5 (%d bytes), t2 (%d bytes).",
			size(3000), size(2500), size(2000), size(1500), size(1000)),
		"include_tools", "exclude_tools", "drop_output_schemas")
	if strings.Contains(msg, "t6 (") {
		t.Errorf("lists more than five tools: %s", msg)
	}
	if _, err := FetchToolSpec(context.Background(), srv.URL, ToolSpecOptions{ExcludeTools: []string{"t1", "t3", "t4"}}); err != nil {
		t.Errorf("after excluding the largest: %v", err)
	}
}

func TestFetchToolSpecJSONRPCError(t *testing.T) {
	s := newMCPServer(0, namedTools("a")...)
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" {
				return nil, &jsonrpc.Error{Code: -32001, Message: "tool registry unavailable"}
			}
			return next(ctx, method, req)
		}
	})
	srv := serveMCP(t, s, false, nil)
	wantContains(t, fetchToolsErr(t, srv.URL, ToolSpecOptions{}),
		"the MCP server "+srv.URL+" answered tools/list with JSON-RPC error -32001: tool registry unavailable")
}

func requireBearer(next http.Handler) http.Handler {
	return livedoctest.RequireHeader("Authorization", secret, next)
}

func TestFetchToolSpecBearerToken(t *testing.T) {
	srv := serveMCP(t, newMCPServer(0, namedTools("a")...), false, requireBearer)
	msg := fetchToolsErr(t, srv.URL, ToolSpecOptions{Options: Options{Headers: map[string]string{"Authorization": "Bearer wrong-secret"}}})
	wantContains(t, msg, "the MCP server "+srv.URL+" refused the request: POST "+srv.URL+" answered 401 Unauthorized",
		"check the credentials given in headers")
	if strings.Contains(msg, "wrong-secret") {
		t.Errorf("message shows the header: %s", msg)
	}
	got, err := FetchToolSpec(context.Background(), srv.URL, ToolSpecOptions{Options: Options{Headers: map[string]string{"Authorization": secret}}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(got.ToolNames, []string{"a"}) {
		t.Errorf("names = %v", got.ToolNames)
	}
}

func TestFetchToolSpecNotAnMCPServer(t *testing.T) {
	srv := serve(t, map[string]http.HandlerFunc{"/": func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		_, _ = fmt.Fprint(w, "<!doctype html><title>Welcome</title>")
	}})
	wantContains(t, fetchToolsErr(t, srv.URL+"/mcp", ToolSpecOptions{}),
		srv.URL+"/mcp does not look like an MCP server: POST "+srv.URL+"/mcp answered 200 OK",
		`content type "text/html"`, `body starting "<!doctype html><title>Welcome</title>"`)
	missing := serve(t, nil)
	wantContains(t, fetchToolsErr(t, missing.URL+"/mcp", ToolSpecOptions{}), "answered 404 Not Found")
}

// The SSE transport against a Streamable HTTP server: the official Go SDK's
// handler, and an answer like the TypeScript SDK's (a 400 whose body is a
// JSON-RPC error). The message says to use streamable_http.
func TestFetchToolSpecSSEAgainstStreamableHTTP(t *testing.T) {
	goSDK := serveMCP(t, newMCPServer(0, namedTools("a")...), false, nil)
	tsLike := serve(t, map[string]http.HandlerFunc{"/mcp": func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = fmt.Fprint(w, `{"jsonrpc":"2.0","error":{"code":-32000,"message":"Bad Request: No valid session ID provided"},"id":null}`)
	}})
	for _, url := range []string{goSDK.URL, tsLike.URL + "/mcp"} {
		wantContains(t, fetchToolsErr(t, url, ToolSpecOptions{SSE: true}),
			"answered 4", `set transport = "streamable_http"`)
	}
	missing := serve(t, nil)
	if msg := fetchToolsErr(t, missing.URL+"/mcp", ToolSpecOptions{SSE: true}); strings.Contains(msg, "streamable_http") {
		t.Errorf("a 404 is a wrong URL, not a wrong transport: %s", msg)
	}
	broken := serve(t, map[string]http.HandlerFunc{"/sse": func(w http.ResponseWriter, _ *http.Request) {
		http.Error(w, "down", http.StatusInternalServerError)
	}})
	if msg := fetchToolsErr(t, broken.URL+"/sse", ToolSpecOptions{SSE: true}); strings.Contains(msg, "streamable_http") {
		t.Errorf("a 500 is a broken server, not a wrong transport: %s", msg)
	}
}

// A redirect the client does not follow (300 Multiple Choices) is an answer
// no MCP server gives, and is named as such.
func TestFetchToolSpecRedirectNotFollowed(t *testing.T) {
	srv := serve(t, map[string]http.HandlerFunc{"/mcp": func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusMultipleChoices)
		_, _ = io.WriteString(w, "<html>choose</html>")
	}})
	wantContains(t, fetchToolsErr(t, srv.URL+"/mcp", ToolSpecOptions{}),
		srv.URL+"/mcp does not look like an MCP server: POST "+srv.URL+"/mcp answered 300 Multiple Choices",
		`content type "text/html" and a body starting "<html>choose</html>"`)
}

// A tools/list result of exactly the registry's limit is taken; one byte
// more is refused.
func TestAssembleAtTheLimit(t *testing.T) {
	overhead := len(`{"tools":[]}`)
	raw := []byte(`{"name":"a","d":"` + strings.Repeat("x", spec.MaxDocumentBytes-overhead-len(`{"name":"a","d":""}`)) + `"}`)
	doc, err := assemble("T", []tool{{name: "a", raw: raw}})
	if err != nil || len(doc) != spec.MaxDocumentBytes {
		t.Errorf("a document of %d bytes: %v", len(doc), err)
	}
	raw = append(raw[:len(raw)-2], 'x', '"', '}')
	if _, err := assemble("T", []tool{{name: "a", raw: raw}}); err == nil || !strings.Contains(err.Error(), "is 10241 bytes") {
		t.Errorf("a document of 10241 bytes: %v", err)
	}
}

// A tool that is not an object is named by its position in the whole list.
func TestShapeToolsNamesWhatIsNoObject(t *testing.T) {
	filter, _ := newToolFilter(nil, nil)
	_, err := shapeTools([]json.RawMessage{json.RawMessage(`{"name":"a"}`), json.RawMessage(`1`)}, 40, filter, false)
	if err == nil || !strings.HasPrefix(err.Error(), "tool 41 is not a JSON object") {
		t.Errorf("shapeTools: %v", err)
	}
}

func TestFetchToolSpecTimeout(t *testing.T) {
	slow := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			// Reading the body lets the server notice the client hang up.
			_, _ = io.Copy(io.Discard, r.Body)
			select {
			case <-r.Context().Done():
			case <-time.After(5 * time.Second):
			}
		})
	}
	srv := serveMCP(t, newMCPServer(0, namedTools("a")...), false, slow)
	start := time.Now()
	wantContains(t, fetchToolsErr(t, srv.URL, ToolSpecOptions{Options: Options{Timeout: 200 * time.Millisecond}}),
		"MCP server/discover or initialize: timed out after 200ms waiting for "+srv.URL)
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %s", d)
	}
}

func TestFetchToolSpecUntrustedTLS(t *testing.T) {
	s := newMCPServer(0, namedTools("a")...)
	srv := httptest.NewTLSServer(mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return s }, nil))
	t.Cleanup(srv.Close)
	wantContains(t, fetchToolsErr(t, srv.URL, ToolSpecOptions{}),
		"MCP server/discover or initialize: TLS error talking to "+srv.URL, "certificate signed by unknown authority")
	if _, err := FetchToolSpec(context.Background(), srv.URL, ToolSpecOptions{Options: Options{Transport: transportOf(t, srv)}}); err != nil {
		t.Errorf("trusted server: %v", err)
	}
}

// A JSON-RPC error that echoes the credential sent in headers (whole, or the
// token after its scheme, base64-encoded in its data) is quoted blanked.
func TestFetchToolSpecJSONRPCErrorBlanksHeaders(t *testing.T) {
	const token = "ghp_0123456789abcdefghij"
	s := newMCPServer(0, namedTools("a")...)
	s.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" {
				data, _ := json.Marshal(map[string]string{"seen": base64.RawURLEncoding.EncodeToString([]byte(token))})
				return nil, &jsonrpc.Error{Code: -32001, Message: "Authorization: Bearer " + token + " may not list tools", Data: data}
			}
			return next(ctx, method, req)
		}
	})
	srv := serveMCP(t, s, false, nil)
	msg := fetchToolsErr(t, srv.URL, ToolSpecOptions{Options: Options{Headers: map[string]string{"Authorization": "Bearer " + token}}})
	wantContains(t, msg, "answered tools/list with JSON-RPC error -32001: Authorization: (a value of headers) may not list tools",
		`(data: {"seen":"(a value of headers)"})`)
	if strings.Contains(msg, token[4:12]) {
		t.Errorf("the error shows the token: %s", msg)
	}
}
