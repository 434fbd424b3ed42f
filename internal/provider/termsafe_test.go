package provider

// Strings from a registry or a live document reach the
// terminal without control characters or escape sequences: a list result's
// display name, a registry error in a diagnostic, a live document's error.

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-go/tftypes"
)

const termEscapes = "\x1b[2J\x1b[H\x1b]0;pwned\x07\u009b31m\r"

func wantNoControls(t *testing.T, what, s string) {
	t.Helper()
	for _, r := range s {
		if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) {
			t.Errorf("%s %q carries the control %U", what, s, r)
			return
		}
	}
}

// escapingRegistry lists one agent service whose display name is an escape
// sequence attack, and refuses every search with one in its message.
func escapingRegistry(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		if strings.Contains(r.URL.Path, ":search") {
			w.WriteHeader(http.StatusBadRequest)
			_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": 400, "status": "INVALID_ARGUMENT",
				"message": "boom" + termEscapes + "Apply complete!"}})
			return
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"services": []any{map[string]any{
			"name": hostileParent + "/services/billing", "displayName": "Billing" + termEscapes + "\nApply complete!",
			"agentSpec": map[string]any{"type": "NO_SPEC"},
		}}})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestTermsafe_listDisplayNamesAndRegistryErrors(t *testing.T) {
	srv := escapingRegistry(t)
	l := newListRPC(t, srv.URL)
	got := l.list("agentregistry_agent", nil, false, 10, 0)
	if names := displayNames(got); len(names) != 1 || names[0] != "Billing Apply complete!" {
		t.Errorf("display names %q, want the name without its escapes", names)
	}
	errs := errorsOf(l.list("agentregistry_agent", map[string]string{"query": "x"}, false, 10, 0))
	if len(errs) != 1 || !strings.Contains(errs[0], "boomApply complete!") {
		t.Fatalf("errors %q, want the registry's message", errs)
	}
	wantNoControls(t, "list error", errs[0])
	diags := readDataSourceRPC(t, configuredServer(t, "test-project", srv.URL), "agentregistry_agents", map[string]string{"query": "x"})
	if len(diags) != 1 || !strings.Contains(diags[0].Detail, "boomApply complete!") {
		t.Fatalf("diagnostics %v, want the registry's refusal", diags)
	}
	wantNoControls(t, "data source error", diags[0].Summary+": "+diags[0].Detail)
}

// An MCP server that answers initialize with a JSON-RPC error whose message
// is an escape sequence attack.
func TestTermsafe_liveDocumentErrors(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.Unmarshal(body, &req)
		w.Header().Set("Content-Type", "application/json")
		_ = json.NewEncoder(w).Encode(map[string]any{"jsonrpc": "2.0", "id": req.ID,
			"error": map[string]any{"code": -32000, "message": "denied" + termEscapes + "Apply complete!"}})
	}))
	defer srv.Close()
	msg := firstError(readDataSource(context.Background(), NewMcpToolSpecDataSource(),
		map[string]tftypes.Value{"url": tftypes.NewValue(tftypes.String, srv.URL)}))
	if !strings.Contains(msg, "deniedApply complete!") {
		t.Fatalf("error %q, want the server's message", msg)
	}
	wantNoControls(t, "MCP error", msg)
}
