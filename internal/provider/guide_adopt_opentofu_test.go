package provider

import (
	"encoding/json"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// The guide "Adopt an existing registry", section "With OpenTofu", word for
// word: the registry seeded with the guide's curl commands, discover.tf
// written, each ```sh block run line by line (`tofu` is the CLI under test),
// the import blocks by hand added to imports.tf, and each ```text block found
// in the output of the commands before it: imports only, then an empty plan.
func TestAccGuideAdoptOpenTofu(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 (make test does)")
	}
	skipUnless(t, capIdentity)
	guide := readGuide(t, "adopt-an-existing-registry")
	start := strings.Index(guide, "\n## With OpenTofu\n")
	if start < 0 {
		t.Fatal("the guide has no section With OpenTofu")
	}
	r := startRegistry(t)
	u, err := url.Parse(r.URL)
	if err != nil {
		t.Fatal(err)
	}
	h := newCLIHarness(t)
	run := func(name, script string) string {
		t.Helper()
		script = strings.ReplaceAll(script, "127.0.0.1:8787", u.Host)
		out, code := h.runGuideScript(t, name, "set -e\n"+script)
		if code != 0 {
			t.Fatalf("the guide's commands exited %d:\n%s\n%s", code, script, out)
		}
		return out
	}
	// The registry, seeded as the guide does (its second ```sh block).
	var seed string
	if sh := testkit.Blocks(testkit.DocBlocks(guide, nil, nil), "sh"); len(sh) > 1 {
		seed = sh[1].Text
	}
	if !strings.Contains(seed, "curl") {
		t.Fatalf("the guide's second sh block is not the seeding one:\n%s", seed)
	}
	run("seed.sh", seed)
	main, err := os.ReadFile("../../examples/query/main.tf")
	if err != nil {
		t.Fatal(err)
	}
	h.write(t, "main.tf", strings.ReplaceAll(string(main), "127.0.0.1:8787", u.Host))

	terraformBlocks, last := 0, ""
	for _, f := range testkit.DocBlocks(guide[start:], nil, nil) {
		switch f.Lang {
		case "terraform":
			terraformBlocks++
			switch terraformBlocks {
			case 1:
				h.write(t, "discover.tf", f.Text)
			case 2:
				b, err := os.ReadFile(filepath.Join(h.dir, "imports.tf"))
				if err != nil {
					t.Fatalf("imports.tf was not written: %v", err)
				}
				h.write(t, "imports.tf", string(b)+"\n"+f.Text)
			}
		case "sh":
			last = run("step.sh", f.Text)
		case "text":
			if !strings.Contains(strings.Join(strings.Fields(last), " "), strings.Join(strings.Fields(f.Text), " ")) {
				t.Fatalf("the guide shows\n%s\nbut the commands before it printed\n%s", f.Text, last)
			}
		}
	}
	if terraformBlocks < 2 {
		t.Fatalf("the section has %d terraform blocks, want discover.tf and the import blocks by hand", terraformBlocks)
	}
	gen := h.readFile(t, "generated.tf")
	for _, want := range []string{`resource "agentregistry_agent" "fx_agent"`, `resource "agentregistry_mcp_server" "weather_tools"`, "agent_card = jsonencode({", "source_dir"} {
		if !strings.Contains(gen, want) {
			t.Errorf("generated.tf has no %q:\n%s", want, gen)
		}
	}
}

// The guide's for_each import block, as written, adopts a fleet that a
// configuration already describes (the search_cards example's cards): the
// plan only imports, and the plan after the apply is empty.
func TestAccGuideAdoptForEachImport(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 (make test does)")
	}
	skipUnless(t, capIdentity)
	fences := testkit.DocBlocks(readGuide(t, "adopt-an-existing-registry"), nil, nil)
	var block string
	for _, f := range fences {
		if f.Lang == "terraform" && strings.Contains(f.Text, "for_each = local.cards") {
			block = f.Text
		}
	}
	if block == "" {
		t.Fatal("the guide has no import block with for_each = local.cards")
	}
	r := startRegistry(t)
	dir := "../../examples/functions/search_cards/cards"
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		raw, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		var card map[string]any
		if err := json.Unmarshal(raw, &card); err != nil {
			t.Fatal(err)
		}
		r.agent(strings.TrimSuffix(e.Name(), ".json"), card)
	}
	h := newCLIHarness(t)
	h.copyExample(t, "../../examples/functions/search_cards")
	h.write(t, "function.tf", exampleProviders+`
locals {
  cards = {
    for f in fileset("${path.module}/cards", "*.json") :
    trimsuffix(f, ".json") => jsonencode(jsondecode(file("${path.module}/cards/${f}")))
  }
}

resource "agentregistry_agent" "fleet" {
  for_each   = local.cards
  service_id = each.key
  agent_card = each.value
}
`)
	h.write(t, "imports.tf", block)
	h.write(t, "test.tf", providerConfig(r.URL))
	h.mustRun(t, "init", "-input=false")
	out := h.mustExit(t, 2, "plan", "-detailed-exitcode", "-input=false")
	if !strings.Contains(out, "Plan: 3 to import, 0 to add, 0 to change, 0 to destroy.") {
		t.Fatalf("the plan does not only import the three agents:\n%s", out)
	}
	h.mustRun(t, "apply", "-auto-approve", "-input=false")
	h.mustExit(t, 0, "plan", "-detailed-exitcode", "-input=false")
}
