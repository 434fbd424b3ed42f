package googlecreds_test

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The check of a credentials file is shared from here: the provider's
// validators use it without depending on the registry's client (and the
// HTTP stack under it), and this package depends on neither.
func TestValidatorsAndThisPackageImportNoClient(t *testing.T) {
	const mod = "github.com/agentregistry/terraform-provider-agentregistry/internal/"
	for _, pkg := range []string{".", "../validators"} {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		if deps := strings.Fields(string(out)); slices.Contains(deps, mod+"registryclient") {
			t.Errorf("%s depends on %sregistryclient", pkg, mod)
		}
	}
}
