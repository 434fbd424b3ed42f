package e2e

import (
	"errors"
	"strings"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// The steps of the migration guide start from a state that the Google
// provider (hashicorp/google) wrote, which these tests cannot install: a
// stand-in with its real schemas moves such a state through the CLI in
// TestAccMove_fromTheGoogleProviderThroughTheCLI (internal/provider).
func migratingNotRun() []testkit.NotRun {
	needsGoogle := testkit.Reason{
		Why: "needs a state of the Google provider (hashicorp/google): the steps take its google_agent_registry_service out",
		Check: func(p *testkit.Page, b testkit.Block) error {
			section, err := p.Section(b.Section)
			if err != nil {
				return err
			}
			for _, s := range section {
				if strings.Contains(s.Text, "google_agent_registry_service.") {
					return testkit.RunBy("TestAccMove_fromTheGoogleProviderThroughTheCLI").Check(p, b)
				}
			}
			return errors.New("its section names no google_agent_registry_service")
		},
	}
	return []testkit.NotRun{{In: "## Steps with `import` (any version)",
		Match: `^terraform (import agentregistry_agent\.|state rm google_agent_registry_service\.)`, Reason: needsGoogle}}
}
