package provider

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// guideShBlock returns the nth (from 0) ```sh block of a section of a
// guide's template, as a reader copies it.
func guideShBlock(t *testing.T, guide, heading string, n int) string {
	t.Helper()
	blocks := testkit.Blocks(testkit.SectionBlocks(readGuide(t, guide), heading), "sh")
	if n >= len(blocks) {
		t.Fatalf("the guide %s has %d ```sh blocks under %q, want at least %d", guide, len(blocks), heading, n+1)
	}
	return blocks[n].Text
}

// readGuide reads a guide's template.
func readGuide(t *testing.T, guide string) string {
	t.Helper()
	b, err := os.ReadFile("../../templates/guides/" + guide + ".md.tmpl")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// runGuideScript runs a script from a guide with bash in the harness's
// folder, with the CLI under test on the PATH under the name the guide uses
// (tofu), and returns its output and exit code.
func (h *cliHarness) runGuideScript(t *testing.T, name, script string) (string, int) {
	t.Helper()
	bin := t.TempDir()
	for _, cli := range []string{"tofu", "terraform"} {
		if err := os.Symlink(h.bin, filepath.Join(bin, cli)); err != nil {
			t.Fatal(err)
		}
	}
	h.write(t, name, script)
	cmd := exec.Command("bash", name)
	cmd.Dir = h.dir
	cmd.Env = append(append([]string{}, h.env...), "PATH="+bin+string(os.PathListSeparator)+os.Getenv("PATH"), "TF_CLI_ARGS=-no-color")
	out, err := cmd.CombinedOutput()
	if exit, ok := err.(*exec.ExitError); ok {
		return string(out), exit.ExitCode()
	}
	if err != nil {
		t.Fatal(err)
	}
	return string(out), 0
}

// The drift guide's job, as the guide writes it, over the patterns the guide
// documents: the configuration's own cards searched with search_cards (the
// bindings' for_each) and another configuration's agents found with a data
// source. After apply it reports nothing; after one agent's card is edited
// through the REST API, it reports that agent and nothing else.
func TestAccGuideDriftJob(t *testing.T) {
	skipUnlessFunctions(t)
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("the drift job needs jq")
	}
	script := guideShBlock(t, "drift-detection-in-ci", "## The job", 0)
	r := startRegistry(t)
	// An agent another configuration registered.
	r.agent("partner-fx", map[string]any{
		"name": "Partner FX", "description": "Converts currencies for partners.", "version": "1.0.0",
		"url": "https://partner.example.com/a2a", "protocolVersion": "0.3.0",
		"defaultInputModes": []string{"text/plain"}, "defaultOutputModes": []string{"text/plain"}, "capabilities": map[string]any{},
		"skills": []map[string]any{{"id": "convert", "name": "Convert", "description": "Converts.", "tags": []string{"partner-fx"}}},
	})
	h := newCLIHarness(t)
	h.copyExample(t, "../../examples/functions/search_cards")
	h.write(t, "test.tf", providerConfig(r.URL)+`
data "agentregistry_skills" "partner_fx" {
  tags = ["partner-fx"]
}

resource "agentregistry_binding" "support_desk_to_partner" {
  for_each   = { for s in data.agentregistry_skills.partner_fx.skills : s.id => s }
  binding_id = "support-desk-to-partner-${each.key}"
  source     = agentregistry_agent.fleet["support-desk"].agent_id
  target     = each.value.agent_id
}
`)
	h.mustRun(t, "init", "-input=false")
	h.mustRun(t, "apply", "-auto-approve", "-input=false")

	out, code := h.runGuideScript(t, "registry-drift.sh", script)
	if code != 0 || !strings.Contains(out, "the registry matches the configuration") {
		t.Fatalf("after apply, the drift job exited %d:\n%s", code, out)
	}

	// A change behind Terraform's back, through the REST API.
	name := testParent + "/services/order-tracker"
	r.editCard(t, name, func(card map[string]any) { card["description"] = "Edited outside Terraform." })

	out, code = h.runGuideScript(t, "registry-drift.sh", script)
	if code != 2 {
		t.Fatalf("after an edit through the API, the drift job exited %d, want 2:\n%s", code, out)
	}
	report := strings.TrimSpace(h.readFile(t, "report.txt"))
	want := `registry drift: agentregistry_agent.fleet["order-tracker"]` + "\n" +
		`change: agentregistry_agent.fleet["order-tracker"] (update)`
	if report != want {
		t.Fatalf("the drift job's report:\n%s\nwant exactly:\n%s", report, want)
	}
}
