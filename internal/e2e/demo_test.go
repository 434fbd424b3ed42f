package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// `make demo` (scripts/demo.sh) runs to its end with the CLI of the run, and
// its drift step names the agent changed behind Terraform's back and the
// attributes that changed, not only the exit code.
func TestAccDemo_namesTheDriftedAgent(t *testing.T) {
	cli := testkit.CLIFromEnv(t)
	for _, tool := range []string{"bash", "curl", "jq"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("the demo runs %s, which is not on the PATH", tool)
		}
	}
	root := testkit.Root(t)
	cmd := exec.Command(filepath.Join(root, "scripts", "demo.sh"))
	cmd.Dir, cmd.Env = root, cliEnv(map[string]string{"TF": cli.Path}, "CLI", "TOFU")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("scripts/demo.sh with %s: %v\n%s", cli, err, out)
	}
	want := "Changed outside Terraform (address: attributes):\n" +
		`  agentregistry_agent.agents["currency-agent"]: agent_card, update_time` + "\n"
	if !strings.Contains(string(out), want) || !strings.Contains(string(out), "demo finished") {
		t.Fatalf("the demo's drift step should name the drifted agent and its attributes:\n%s\n--- output:\n%s", want, out)
	}
}
