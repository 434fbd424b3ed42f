package registryserver_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The server is three packages with one import direction each: the
// handlers (this package) over the state, the state over the search, and
// all of them over the resources; the state, the search and the resources
// depend on no net/http, directly or through another package (the
// generated API clients import it), so that what the registry holds and how
// it is searched can be read, tested and changed without HTTP.
func TestPackagesImportNoHTTPAndOneWay(t *testing.T) {
	const mod = "github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	for pkg, forbidden := range map[string][]string{
		"state":    {mod},
		"search":   {mod, mod + "/state"},
		"resource": {mod, mod + "/state", mod + "/search"},
	} {
		out, err := exec.Command("go", "list", "-deps", "./"+pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps ./%s: %v", pkg, err)
		}
		deps := strings.Fields(string(out))
		for _, dep := range deps {
			if dep == "net/http" || strings.HasPrefix(dep, "net/http/") || strings.HasPrefix(dep, "google.golang.org/api/") {
				t.Errorf("%s depends on %s", pkg, dep)
			}
		}
		for _, f := range forbidden {
			if slices.Contains(deps, f) {
				t.Errorf("%s imports %s, which is above it", pkg, f)
			}
		}
	}
}
