package provider

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
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
// source, in its three cases. After apply it reports nothing and exits 0.
// After one agent's card is edited through the REST API and in its file the
// same way, the registry matches the configuration and only the state was
// stale: it reports that agent as refreshed, with the changed paths, and exits
// 0. After another agent's card is edited through the REST API alone, it
// reports that agent's drift and change with their paths, beside the refreshed
// one, and exits 2.
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
	job := func(wantCode int, wantReport, wantLast string) {
		t.Helper()
		out, code := h.runGuideScript(t, "registry-drift.sh", script)
		report := strings.TrimSpace(h.readFile(t, "report.txt"))
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if code != wantCode || report != wantReport || (wantLast != "" && lines[len(lines)-1] != wantLast) {
			t.Fatalf("the drift job exited %d, want %d; its report:\n%s\nwant exactly:\n%s\nits output:\n%s",
				code, wantCode, report, wantReport, out)
		}
	}
	job(0, "", "the registry matches the configuration")

	// The registry changed outside Terraform to what the configuration now
	// says: a merged change made in the console before it was applied.
	edited := "Edited in the console and in the file."
	r.editCard(t, testParent+"/services/order-tracker", func(card map[string]any) { card["description"] = edited })
	h.editCardFile(t, "cards/order-tracker.json", func(card map[string]any) { card["description"] = edited })
	refreshed := `refreshed: agentregistry_agent.fleet["order-tracker"]: agent_card, update_time`
	job(0, refreshed, "the registry matches the configuration; only the state was stale")

	// A change behind Terraform's back, through the REST API alone.
	r.editCard(t, testParent+"/services/fx-agent", func(card map[string]any) { card["description"] = "Edited outside Terraform." })
	job(2, `registry drift: agentregistry_agent.fleet["fx-agent"]: agent_card, update_time`+"\n"+refreshed+"\n"+
		`change: agentregistry_agent.fleet["fx-agent"] (update): agent_card`, "")
}

// editCardFile changes a card file of the working folder.
func (h *cliHarness) editCardFile(t *testing.T, name string, edit func(card map[string]any)) {
	t.Helper()
	var card map[string]any
	if err := json.Unmarshal([]byte(h.readFile(t, name)), &card); err != nil {
		t.Fatal(err)
	}
	edit(card)
	b, err := json.MarshalIndent(card, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	h.write(t, name, string(b))
}

// The drift guide's section on a protected MCP server, as written: its
// configuration reads the tools of an MCP server of the Go SDK behind OAuth
// (a local authorization server grants the client in the guide its token),
// with the secret given as the workflow gives it (the TF_VAR_ variable of
// the guide's YAML). After apply the job reports nothing and exits 0; once
// the server offers another tool, it reports the MCP server's change and
// exits 2. Neither the secret nor a token reaches the job's output.
func TestAccGuideDriftJob_protectedMCPServer(t *testing.T) {
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("the drift job needs jq")
	}
	const heading, secret = "## A protected MCP server in the job", "weather-drift-secret-3c9d1e"
	section := testkit.SectionBlocks(readGuide(t, "drift-detection-in-ci"), heading)
	config, workflow := testkit.Blocks(section, "hcl"), testkit.Blocks(section, "yaml")
	if len(config) != 1 || len(workflow) != 1 {
		t.Fatalf("the section %q has %d hcl and %d yaml blocks, want one of each", heading, len(config), len(workflow))
	}
	variable := regexp.MustCompile(`TF_VAR_(\w+):`).FindStringSubmatch(workflow[0].Text)
	if variable == nil || !strings.Contains(config[0].Text, `variable "`+variable[1]+`"`) {
		t.Fatalf("the workflow's TF_VAR_ variable %v is not a variable of the configuration", variable)
	}
	clientID := regexp.MustCompile(`client_id\s*=\s*"([^"]+)"`).FindStringSubmatch(config[0].Text)
	if clientID == nil {
		t.Fatal("the configuration names no client_id")
	}
	as := livedoctest.NewAuthServer(t, livedoctest.AuthServerConfig{ClientID: clientID[1], Secret: secret,
		Methods: []string{livedoctest.SecretBasic}})
	server := livedoctest.NewMCPServer(0, livedoctest.NamedTools("forecast")...)
	weather := livedoctest.ServeProtectedMCP(t, server, as, livedoctest.ProtectedOptions{})

	r := startRegistry(t)
	h := newCLIHarness(t)
	h.env = append(h.env, "TF_VAR_"+variable[1]+"="+secret)
	h.write(t, "main.tf", exampleProviders+providerConfig(r.URL)+strings.ReplaceAll(config[0].Text, "https://mcp.example.com/weather", weather.URL))
	h.mustRun(t, "init", "-input=false")
	h.mustRun(t, "apply", "-auto-approve", "-input=false")
	script := guideShBlock(t, "drift-detection-in-ci", "## The job", 0)
	job := func(wantCode int, wantReport string) {
		t.Helper()
		out, code := h.runGuideScript(t, "registry-drift.sh", script)
		report := strings.TrimSpace(h.readFile(t, "report.txt"))
		if code != wantCode || report != wantReport {
			t.Fatalf("the drift job exited %d, want %d; its report:\n%s\nwant exactly:\n%s\nits output:\n%s", code, wantCode, report, wantReport, out)
		}
		for _, leaked := range append([]string{secret}, issuedTokens(as)...) {
			if strings.Contains(out+report, leaked) {
				t.Errorf("the job's output shows a credential (%s...)", leaked[:6])
			}
		}
	}
	job(0, "")
	server.AddTool(&mcp.Tool{Name: "alerts", InputSchema: json.RawMessage(livedoctest.RawSchema)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{}, nil
		})
	// The guide quotes this line.
	want := "change: agentregistry_mcp_server.weather (update): tool_digests.alerts, tool_names[0], tool_names[1], tool_spec"
	if !strings.Contains(normalizeSpace(readGuide(t, "drift-detection-in-ci")), want) {
		t.Errorf("the guide does not quote the job's report %q", want)
	}
	job(2, want)
	if n := len(as.Requests()); n < 3 {
		t.Errorf("%d token requests: each plan should have asked for a token", n)
	}
}

// normalizeSpace joins the lines of a text with single spaces.
func normalizeSpace(s string) string { return strings.Join(strings.Fields(s), " ") }

// issuedTokens are the tokens an authorization server issued.
func issuedTokens(as *livedoctest.AuthServer) []string {
	var tokens []string
	for _, r := range as.Requests() {
		if r.Token != "" {
			tokens = append(tokens, r.Token)
		}
	}
	return tokens
}
