package e2e

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// The guide's blocks that need a Google Cloud project, as it marks them.
func googleNotRun() []testkit.NotRun {
	return []testkit.NotRun{{Match: "^# needs Google\n", Reason: testkit.Marked("# needs Google")}}
}

// The guide "Google Agent Registry" as far as it goes without Google: every
// ```sh block whose first line is "# offline" runs, in order, in one folder,
// with the bundled server in process in place of the one on 127.0.0.1:8787;
// each ```text block after one must appear in what it printed. The
// configuration the guide says to save is main.tf; every other ```terraform
// block (a provider block) must pass `terraform validate`, so that the
// attributes the guide shows exist. Every ```sh block is "# offline" or
// "# needs Google" (googleNotRun).
func followGoogle(t *testing.T, g *guideRun) {
	registry := testkit.StartRegistry(t, registryserver.Options{})
	r := g.reader(t)
	r.Replace = strings.NewReplacer("127.0.0.1:8787", strings.TrimPrefix(registry.URL, "http://"))
	// A first plan that warns must show it, and the page shows none; a mirror's
	// install warns of its lock file (the page installs from the registry).
	r.Warnings = []string{"Incomplete lock file information for providers"}
	validated := 0
	r.Own = func(b testkit.Block) (bool, error) {
		switch {
		case b.Lang == "sh" && g.page.NotRunWhy(b) == "" && !strings.HasPrefix(b.Text, "# offline"):
			return true, fmt.Errorf("a ```sh block says neither \"# offline\" nor \"# needs Google\" on its first line:\n%s", b.Text)
		case b.Lang == "terraform" && testkit.SaveAs(b) == "":
			validated++
			return true, validateProviderBlock(t, g, b.Text)
		}
		return false, nil
	}
	must(t, r.Follow(g.page.Blocks))
	if validated < 2 {
		t.Fatalf("%d provider blocks were validated: the guide lost its steps", validated)
	}
}

// validateProviderBlock runs `terraform validate` on a provider block of the
// guide, in a folder of its own, with a data source that uses it: the CLIs
// validate no provider block that nothing uses.
func validateProviderBlock(t *testing.T, g *guideRun, block string) error {
	r := g.reader(t)
	writeFile(t, filepath.Join(r.Dir, "main.tf"), exampleRequiredProviders+block+"\ndata \"agentregistry_agents\" \"all\" {}\n")
	out, code, err := r.Run("terraform init -input=false >/dev/null && terraform validate -no-color")
	if err == nil && code != 0 {
		err = fmt.Errorf("terraform validate of a provider block of the guide: exit code %d\n%s\n%s", code, block, out)
	}
	return err
}
