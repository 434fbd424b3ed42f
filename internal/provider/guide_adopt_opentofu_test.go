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

const importByIDHeading = "\n### OpenTofu 1.10 and 1.11: `id` in place of `identity`\n"

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
	section, _ := adoptOpenTofuSections(t)
	followAdoptOpenTofu(t, section, testkit.Blocks(testkit.DocBlocks(section, nil, nil), "terraform"))
}

// The same steps with the subsection for OpenTofu before 1.12: its
// discover.tf and its import blocks by hand, by `id`, which every CLI tested
// takes (the oldest, OpenTofu 1.10 and Terraform 1.11, included).
func TestAccGuideAdoptOpenTofuImportByID(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 (make test does)")
	}
	section, byID := adoptOpenTofuSections(t)
	blocks := testkit.Blocks(testkit.DocBlocks(byID, nil, nil), "terraform")
	for _, b := range blocks[:min(2, len(blocks))] {
		if strings.Contains(b.Text, "identity") || !strings.Contains(b.Text, "  id = ") {
			t.Fatalf("the subsection's import blocks should name records by id, not identity:\n%s", b.Text)
		}
	}
	followAdoptOpenTofu(t, section, blocks)
}

// adoptOpenTofuSections returns the guide's section "With OpenTofu" without
// its subsection for OpenTofu before 1.12, and that subsection.
func adoptOpenTofuSections(t *testing.T) (section, byID string) {
	t.Helper()
	guide := readGuide(t, "adopt-an-existing-registry")
	start, sub := strings.Index(guide, "\n## With OpenTofu\n"), strings.Index(guide, importByIDHeading)
	if start < 0 || sub < start {
		t.Fatalf("the guide has no section With OpenTofu followed by %q", strings.TrimSpace(importByIDHeading))
	}
	return guide[start:sub], guide[sub:]
}

// followAdoptOpenTofu follows the section's commands with its first two
// ```terraform blocks taken from tfBlocks: discover.tf, then the import
// blocks by hand.
func followAdoptOpenTofu(t *testing.T, section string, tfBlocks []testkit.Block) {
	t.Helper()
	if len(tfBlocks) < 2 {
		t.Fatalf("%d terraform blocks, want discover.tf and the import blocks by hand", len(tfBlocks))
	}
	guide := readGuide(t, "adopt-an-existing-registry")
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
	for _, f := range testkit.DocBlocks(section, nil, nil) {
		switch f.Lang {
		case "terraform":
			terraformBlocks++
			switch terraformBlocks {
			case 1:
				h.write(t, "discover.tf", tfBlocks[0].Text)
			case 2:
				b, err := os.ReadFile(filepath.Join(h.dir, "imports.tf"))
				if err != nil {
					t.Fatalf("imports.tf was not written: %v", err)
				}
				h.write(t, "imports.tf", string(b)+"\n"+tfBlocks[1].Text)
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

// The guide's for_each import blocks, by identity and by id, as written, adopt
// a fleet that a configuration already describes (the search_cards example's
// cards): the plan only imports, and the plan after the apply is empty.
func TestAccGuideAdoptForEachImport(t *testing.T) {
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 (make test does)")
	}
	var byIdentity, byID string
	for _, f := range testkit.DocBlocks(readGuide(t, "adopt-an-existing-registry"), nil, nil) {
		switch {
		case f.Lang != "terraform" || !strings.Contains(f.Text, "for_each = local.cards"):
		case strings.Contains(f.Text, "identity"):
			byIdentity = f.Text
		default:
			byID = f.Text
		}
	}
	if byIdentity == "" || byID == "" {
		t.Fatal("the guide should have an import block with for_each = local.cards by identity, and one by id")
	}
	t.Run("by id", func(t *testing.T) { adoptFleetWith(t, byID) })
	t.Run("by identity", func(t *testing.T) {
		skipUnless(t, capIdentity)
		adoptFleetWith(t, byIdentity)
	})
}

// adoptFleetWith adopts the search_cards example's fleet, registered through
// the API, with the import block given.
func adoptFleetWith(t *testing.T, block string) {
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
