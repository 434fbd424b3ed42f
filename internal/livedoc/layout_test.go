package livedoc_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The live read is packages with one import direction each: livedoc (the
// reads and their two transports) over mcpauth (the OAuth flow), stdio (the
// process), httpclient (the HTTP of a read) and netguard (the dial guard),
// all over quote. None imports the package above it; the guard imports
// nothing of OAuth, of processes or of MCP; the OAuth flow nothing of
// processes or of MCP's transports; the process nothing of HTTP.
func TestPackagesImportOneWay(t *testing.T) {
	const mod = "github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc"
	process := []string{"os/exec", mod + "/stdio"}
	oauth := []string{"golang.org/x/oauth2", mod + "/mcpauth"}
	mcp := []string{"github.com/modelcontextprotocol/go-sdk/mcp", "github.com/modelcontextprotocol/go-sdk/jsonrpc"}
	for pkg, forbidden := range map[string][]string{
		"netguard":   slices.Concat([]string{mod, mod + "/httpclient", mod + "/quote"}, process, oauth, mcp),
		"httpclient": slices.Concat([]string{mod}, process, oauth, mcp),
		"mcpauth":    slices.Concat([]string{mod}, process, mcp),
		"stdio":      slices.Concat([]string{mod, mod + "/httpclient", mod + "/netguard", "net/http"}, oauth, mcp),
		"quote":      slices.Concat([]string{mod, mod + "/httpclient", mod + "/netguard", "net/http"}, process, oauth, mcp),
	} {
		out, err := exec.Command("go", "list", "-deps", "./"+pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps ./%s: %v", pkg, err)
		}
		deps := strings.Fields(string(out))
		if !slices.Contains(deps, mod+"/"+pkg) {
			t.Fatalf("go list -deps ./%s does not list the package itself: %v", pkg, deps)
		}
		for _, f := range forbidden {
			if slices.Contains(deps, f) {
				t.Errorf("%s depends on %s", pkg, f)
			}
		}
	}
}
