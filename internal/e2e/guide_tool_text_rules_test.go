package e2e

import (
	"fmt"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// The guide "Tool text rules" word for word, with the provider served in
// process: its configuration is saved, its ```sh block runs, and the findings
// its ```text block shows must be what tool_findings printed. The rules
// themselves are on the page as internal/tooltext's table makes them
// (TestRuleIndexPage), and its examples are run by TestRules_examples.
func followToolTextRules(t *testing.T, g *guideRun) {
	r := g.reattached(t)
	r.Own = func(b testkit.Block) (bool, error) {
		switch {
		case b.Lang == "json":
			return true, nil // a rule's example, run by internal/tooltext
		case b.Lang != "hcl" && b.Lang != "sh" && b.Lang != "text":
			return true, fmt.Errorf("a ```%s block: the guide's blocks are hcl, sh, text and the rules' json", b.Lang)
		case b.Lang == "hcl" && testkit.SaveAs(b) == "":
			return true, fmt.Errorf("an hcl block must start with the file it is (# main.tf), found %q", b.FirstLine())
		}
		return false, nil
	}
	must(t, r.Follow(g.page.Blocks))
}
