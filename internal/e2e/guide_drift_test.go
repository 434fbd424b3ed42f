package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/livedoc/livedoctest"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// `make install PLUGINS_DIR=...` is the install checks'.
func driftNotRun() []testkit.NotRun {
	return []testkit.NotRun{{In: "## Installing the provider on the runner: `-plugin-dir` or `filesystem_mirror`",
		Match: `^make install PLUGINS_DIR=`, Reason: testkit.RunBy("TestAccInstall_offline")}}
}

// The drift guide's job, as the guide writes it (a script, run as written,
// `tofu` naming the CLI of the run, the provider served in process), in the
// cases the guide documents: the patterns that keep it quiet, and a protected
// MCP server.
func followDrift(t *testing.T, g *guideRun) {
	if _, err := exec.LookPath("jq"); err != nil {
		t.Skip("the drift job needs jq")
	}
	section, err := g.page.Section("## The job")
	must(t, err)
	jobs := testkit.Of(section, "sh")
	if len(jobs) != 1 || !strings.HasPrefix(jobs[0].Text, "#!") {
		t.Fatalf("## The job has %d ```sh blocks, want the job's script", len(jobs))
	}
	g.cli.SkipUnless(t, "the drift guide's patterns (provider functions)", "1.8.0", "1.7.0")
	t.Run("fleet patterns", func(t *testing.T) { driftOfTheFleet(t, g, jobs[0].Text) })
	t.Run("protected MCP server", func(t *testing.T) { driftOfAProtectedServer(t, g, jobs[0].Text) })
	g.page.Ran(jobs[0])
}

// driftJob runs the job in r's folder and checks its exit code, its report
// (report.txt, exactly) and, when wantLast is set, the last line it printed.
func driftJob(t *testing.T, r *testkit.Reader, script string, wantCode int, wantReport, wantLast string) string {
	t.Helper()
	out, code, err := r.Run(script)
	must(t, err)
	raw, _ := os.ReadFile(filepath.Join(r.Dir, "report.txt"))
	report := strings.TrimSpace(string(raw))
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != wantCode || report != wantReport || (wantLast != "" && lines[len(lines)-1] != wantLast) {
		t.Fatalf("the drift job exited %d, want %d; its report:\n%s\nwant exactly:\n%s\nits output:\n%s", code, wantCode, report, wantReport, out)
	}
	return out + report
}

// The job over the patterns the guide documents: the configuration's own
// cards searched with search_cards (the bindings' for_each) and another
// configuration's agents found with a data source, in its three cases. After
// apply it reports nothing and exits 0. After one agent's card is edited
// through the REST API and in its file the same way, the registry matches the
// configuration and only the state was stale: it reports that agent as
// refreshed, with the changed paths, and exits 0. After another agent's card
// is edited through the REST API alone, it reports that agent's drift and
// change with their paths, beside the refreshed one, and exits 2.
func driftOfTheFleet(t *testing.T, g *guideRun, script string) {
	registry := testkit.StartRegistry(t, registryserver.Options{})
	// An agent another configuration registered.
	seedAgent(t, registry, "partner-fx", map[string]any{
		"name": "Partner FX", "description": "Converts currencies for partners.", "version": "1.0.0",
		"url": "https://partner.example.com/a2a", "protocolVersion": "0.3.0",
		"defaultInputModes": []string{"text/plain"}, "defaultOutputModes": []string{"text/plain"}, "capabilities": map[string]any{},
		"skills": []map[string]any{{"id": "convert", "name": "Convert", "description": "Converts.", "tags": []string{"partner-fx"}}},
	})
	r := g.reattached(t)
	copyTree(t, g.root, r.Dir, "examples/functions/search_cards")
	r.Dir = filepath.Join(r.Dir, "examples", "functions", "search_cards")
	writeFile(t, filepath.Join(r.Dir, "test.tf"), testkit.ProviderConfig(registry.URL)+`
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
	h := &testkit.Harness{Bin: g.cli.Path, Dir: r.Dir, Env: r.Env}
	h.MustRun(t, "init", "-input=false")
	h.MustRun(t, "apply", "-auto-approve", "-input=false")
	driftJob(t, r, script, 0, "", "the registry matches the configuration")

	// The registry changed outside Terraform to what the configuration now
	// says: a merged change made in the console before it was applied.
	edited := "Edited in the console and in the file."
	editCard(t, registry, testParent+"/services/order-tracker", func(card map[string]any) { card["description"] = edited })
	editCardFile(t, filepath.Join(r.Dir, "cards", "order-tracker.json"), func(card map[string]any) { card["description"] = edited })
	refreshed := `refreshed: agentregistry_agent.fleet["order-tracker"]: agent_card, update_time`
	driftJob(t, r, script, 0, refreshed, "the registry matches the configuration; only the state was stale")

	// A change behind Terraform's back, through the REST API alone.
	editCard(t, registry, testParent+"/services/fx-agent", func(card map[string]any) { card["description"] = "Edited outside Terraform." })
	driftJob(t, r, script, 2, `registry drift: agentregistry_agent.fleet["fx-agent"]: agent_card, update_time`+"\n"+refreshed+"\n"+
		`change: agentregistry_agent.fleet["fx-agent"] (update): agent_card`, "")
}

// The guide's section on a protected MCP server, as written: its
// configuration reads the tools of an MCP server of the Go SDK behind OAuth
// (a local authorization server grants the client in the guide its token)
// through a client of its provider block, with the secret given as the
// workflow gives it (the TF_VAR_ variable of the guide's YAML, an ephemeral
// variable of the configuration). After apply the job reports nothing and
// exits 0; once the server offers another tool, it reports the MCP server's
// change, as the guide quotes it, and exits 2. Neither the secret nor a token
// reaches the job's output, its plan file or its JSON form.
func driftOfAProtectedServer(t *testing.T, g *guideRun, script string) {
	const heading, secret = "## A protected MCP server in the job", "weather-drift-secret-3c9d1e"
	g.cli.SkipUnless(t, "the section's ephemeral variable", "1.10.0", "1.11.0")
	section, err := g.page.Section(heading)
	must(t, err)
	config, workflow := testkit.Of(section, "hcl"), testkit.Of(section, "yaml")
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

	registry := testkit.StartRegistry(t, registryserver.Options{})
	r := g.reattached(t)
	r.Env = append(r.Env, "TF_VAR_"+variable[1]+"="+secret)
	// The section's provider block names the client and leaves the provider's
	// other settings to the reader: here, the registry of the test.
	const block = `provider "agentregistry" {`
	if !strings.Contains(config[0].Text, block) {
		t.Fatalf("the section's configuration has no %s", block)
	}
	main := strings.Replace(config[0].Text, block, fmt.Sprintf("%s\n  endpoint = %q\n  project  = \"test-project\"", block, registry.URL), 1)
	writeFile(t, filepath.Join(r.Dir, "main.tf"), exampleRequiredProviders+
		strings.ReplaceAll(main, "https://mcp.example.com/weather", weather.URL))
	h := &testkit.Harness{Bin: g.cli.Path, Dir: r.Dir, Env: r.Env}
	h.MustRun(t, "init", "-input=false")
	h.MustRun(t, "apply", "-auto-approve", "-input=false")
	job := func(wantCode int, wantReport string) {
		t.Helper()
		kept := map[string]string{"the job's output": driftJob(t, r, script, wantCode, wantReport, "")}
		kept["drift.json"] = h.ReadFile(t, "drift.json")
		for name, content := range planMembers(t, filepath.Join(r.Dir, "drift.tfplan")) {
			kept["drift.tfplan: "+name] = content
		}
		for where, text := range kept {
			for _, leaked := range append([]string{secret}, issuedTokens(as)...) {
				if strings.Contains(text, leaked) {
					t.Errorf("%s holds a credential (%s...)", where, leaked[:6])
				}
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
	if !strings.Contains(strings.Join(strings.Fields(g.page.Text), " "), want) {
		t.Errorf("the guide does not quote the job's report %q", want)
	}
	job(2, want)
	if n := len(as.Requests()); n < 3 {
		t.Errorf("%d token requests: each plan should have asked for a token", n)
	}
}

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
