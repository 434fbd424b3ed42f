package e2e

import (
	"os/exec"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// The guide "The bundled registry server", which needs no CLI. "Running it"
// builds the server as `make build` does and starts it with the flags shown
// (on a free port, its data file in the test's folder). "Its REST API, with
// curl" holds word for word: its ```sh blocks run in order, in bash with the
// variables the blocks before set (R=...), against the bundled server started
// in process (its address in place of 127.0.0.1:8787), and every line of the
// ```text block after each one is in what it printed. The blocks use curl and
// jq, as the guide shows them.
func followServerGuide(t *testing.T, g *guideRun) {
	for _, tool := range []string{"bash", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the server guide's blocks run %s, which is not on the PATH (Debian package %s)", tool, tool)
		}
	}
	r := g.readerAsUser(t, nil)
	r.Instead = serverLines(t, r)
	must(t, r.FollowSection("## Running it"))
	registry := testkit.StartRegistry(t, registryserver.Options{})
	r.Replace = strings.NewReplacer("http://127.0.0.1:8787", registry.URL)
	must(t, r.FollowSection("## Its REST API, with curl"))
}
