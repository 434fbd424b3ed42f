package registryclient

import (
	"net/http"
	"strings"
	"testing"
)

const escapes = "\x1b[2J\x1b[H\x1b]0;pwned\x07\u009b31m\r"

// A registry's error, as an HTTP answer or as an operation's error, reaches
// a diagnostic with none of its control characters or escape sequences.
func TestAPIErrorsCarryNoTerminalControls(t *testing.T) {
	srv, _ := scripted(t, func(w http.ResponseWriter, r *http.Request, q recorded) {
		switch {
		case strings.HasSuffix(q.Path, "/agents:search"):
			writeError(w, 400, "INVALID"+escapes+"_ARGUMENT", "bad query"+escapes+"\nApply complete! Resources: 0 added",
				map[string]any{"@type": "type.googleapis.com/google.rpc.BadRequest", "fieldViolations": []any{
					map[string]any{"field": "search" + escapes + "_string", "description": "no" + escapes + " good"}}})
		case r.Method == "DELETE":
			writeJSON(w, 200, map[string]any{"name": "operations/x" + escapes, "done": true,
				"error": map[string]any{"code": 9, "message": "failed" + escapes}})
		default:
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(502)
			_, _ = w.Write([]byte("<html>" + escapes + "gateway</html>"))
		}
	})
	c := testClient(t, srv.URL, func(cfg *Config) { cfg.RetryMax = -1 })
	_, searchErr := c.SearchAgents(testCtx(t), testParent, "x", 0)
	deleteErr := c.DeleteService(testCtx(t), svcName)
	_, getErr := c.GetService(testCtx(t), svcName)
	for name, err := range map[string]error{"search": searchErr, "operation": deleteErr, "HTML": getErr} {
		if err == nil {
			t.Fatalf("%s: no error", name)
		}
		msg := err.Error()
		for _, r := range msg {
			if (r < 0x20 && r != '\n' && r != '\t') || (r >= 0x7f && r <= 0x9f) {
				t.Errorf("%s: error %q carries the control %U", name, msg, r)
				break
			}
		}
	}
	if !strings.Contains(searchErr.Error(), "bad query\nApply complete!") || !strings.Contains(searchErr.Error(), "no good") {
		t.Errorf("search error %q lost its text", searchErr)
	}
}
