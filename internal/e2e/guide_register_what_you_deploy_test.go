package e2e

import (
	"errors"
	"strings"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// The guide's signing keys are made by its blocks, as written, in
// TestAccAgentResource_signingKeyPEMFromTheGuide (internal/provider), which
// then signs and verifies cards with them. Its drift job plans the module of
// "The module", which reads what a deployed agent and MCP server serve.
func registerWhatYouDeployNotRun() []testkit.NotRun {
	return []testkit.NotRun{
		{In: "### Making a signing key", Match: `^(openssl genpkey|ssh-keygen) `, Reason: testkit.RunBy("TestAccAgentResource_signingKeyPEMFromTheGuide")},
		{In: "## The drift job", Match: `show -json drift.tfplan`, Reason: testkit.Reason{
			Why: "needs a deployed agent and MCP server: the job plans the module, which reads what they serve",
			Check: func(p *testkit.Page, _ testkit.Block) error {
				module, err := p.Section("## The module")
				if err != nil {
					return err
				}
				for _, b := range module {
					if strings.Contains(b.Text, `data "agentregistry_agent_card" "live"`) {
						return nil
					}
				}
				return errors.New("the module reads no live card any more")
			},
		}},
	}
}
