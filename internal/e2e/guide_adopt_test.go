package e2e

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// The guide "Adopt an existing registry", word for word, each part with the
// CLIs it is written for: its server started as the guide starts it (the
// built binary, on a free port in place of 127.0.0.1:8787) and seeded with
// its curl commands, `terraform` and `tofu` naming the CLI of the run. With
// `terraform query` (Terraform 1.14+) the guide up to "With OpenTofu", the
// provider installed from a filesystem mirror; with resource identities
// (1.12+) the section "With OpenTofu"; on every CLI, the same steps with the
// blocks of its subsection for OpenTofu 1.10 and 1.11 (`id`), and the
// for_each import blocks of a configuration that already describes a fleet;
// these, many commands each, with the provider served in process.
func followAdopt(t *testing.T, g *guideRun) {
	const openTofu, byIDHeading = "## With OpenTofu", "### OpenTofu 1.10 and 1.11: `id` in place of `identity`"
	query, err := g.page.Range("## 1. List what exists", openTofu)
	must(t, err)
	openTofuSteps, err := g.page.Range(openTofu, byIDHeading)
	must(t, err)
	byID, err := g.page.Section(byIDHeading)
	must(t, err)
	t.Run("terraform query", func(t *testing.T) {
		if !g.cli.AtLeast("1.14.0", "") {
			must(t, g.page.SkipBlocks(query, testkit.NeedsCLI(*g.cli, "terraform query", "1.14.0", "")))
			t.Skipf("terraform query needs Terraform 1.14.0+; this run's CLI is %s", g.cli)
		}
		adoptWithQuery(t, g.reader(t), query)
	})
	t.Run("import by identity", func(t *testing.T) {
		g.cli.SkipUnless(t, "import blocks by identity", "1.12.0", "1.12.0")
		adoptWithImports(t, g.reattached(t), openTofuSteps, testkit.Of(openTofuSteps, "terraform"))
	})
	t.Run("import by id", func(t *testing.T) {
		blocks := testkit.Of(byID, "terraform")
		for _, b := range blocks[:min(2, len(blocks))] {
			if strings.Contains(b.Text, "identity") || !strings.Contains(b.Text, "  id = ") {
				t.Fatalf("the subsection's import blocks should name records by id, not identity:\n%s", b.Text)
			}
		}
		adoptWithImports(t, g.reattached(t), openTofuSteps, blocks)
	})
	for _, b := range testkit.Of(append(openTofuSteps, byID...), "terraform") {
		if !strings.Contains(b.Text, "for_each = local.cards") {
			continue
		}
		how := "by id"
		if strings.Contains(b.Text, "identity") {
			how = "by identity"
		}
		t.Run("for_each import "+how, func(t *testing.T) {
			if how == "by identity" {
				g.cli.SkipUnless(t, "import blocks by identity", "1.12.0", "1.12.0")
			}
			adoptFleetWith(t, g, b.Text)
		})
	}
}

// adoptReader makes r a reader of the guide in a copy of examples/query (the
// folder the guide works in) that has started the guide's server and
// registered its records, as "Try it on your machine" does; it returns the
// server's URL.
func adoptReader(t *testing.T, r *testkit.Reader) string {
	t.Helper()
	copyTree(t, testkit.Root(t), r.Dir, "examples/query")
	r.Dir = filepath.Join(r.Dir, "examples", "query")
	var url string
	r.Instead = []testkit.Instead{{Line: testkit.ServerLine, Why: "the guide's server, on a free port", Do: func(line string) error {
		addr, err := testkit.StartServerLine(t, t.TempDir(), line)
		r.Replace, url = strings.NewReplacer("127.0.0.1:8787", addr), "http://"+addr
		return err
	}}}
	must(t, r.FollowSection("## Try it on your machine (optional)"))
	main := filepath.Join(r.Dir, "main.tf")
	raw, err := os.ReadFile(main)
	must(t, err)
	writeFile(t, main, r.Replace.Replace(string(raw)))
	return url
}

// adoptWithQuery follows the guide with `terraform query`: each ```sh block
// runs (the drift step's plan exits 2), each ```text block that follows one
// appears in what it printed, the query file the guide adds is written, the
// skill's source_dir is set in generated.tf as the guide shows it, and the
// excerpt of generated.tf is in the generated file. Then what the guide says
// in prose.
func adoptWithQuery(t *testing.T, r *testkit.Reader, blocks []testkit.Block) {
	url := adoptReader(t, r)
	r.Own = func(b testkit.Block) (bool, error) {
		if b.Lang != "terraform" {
			return false, nil
		}
		return true, adoptQueryBlock(r, b.Text)
	}
	must(t, r.Follow(blocks))
	adoptProse(t, r, url)
}

var (
	sourceDirNull = regexp.MustCompile(`(?m)^  source_dir *= null$`)
	elided        = regexp.MustCompile(`(?m)^.*# \.\.\.\n`)
)

// adoptQueryBlock does what the guide asks of a ```terraform block, or
// checks it.
func adoptQueryBlock(r *testkit.Reader, block string) error {
	path := func(name string) string { return filepath.Join(r.Dir, name) }
	switch {
	case strings.Contains(block, `list "agentregistry_agent" "finance"`):
		return os.WriteFile(path("finance.tfquery.hcl"), []byte(block), 0o600)
	case regexp.MustCompile(`^ *source_dir = `).MatchString(block):
		generated, err := os.ReadFile(path("generated.tf"))
		if err != nil || !sourceDirNull.Match(generated) {
			return errors.Join(err, errors.New("generated.tf has no source_dir = null:\n"+string(generated)))
		}
		return os.WriteFile(path("generated.tf"), sourceDirNull.ReplaceAll(generated, []byte(strings.TrimSuffix(block, "\n"))), 0o600)
	case strings.HasPrefix(block, `resource "agentregistry_agent" "agents_0"`):
		generated, err := os.ReadFile(path("generated.tf"))
		if err != nil {
			return err
		}
		if err := testkit.ExpectLines(string(generated), elided.ReplaceAllString(block, "")); err != nil {
			return errors.New("the excerpt of generated.tf: " + err.Error())
		}
	}
	return nil
}

// adoptProse holds what the guide says in prose: generation does not
// overwrite a file; the skill's folder, which the registry holds as a TAR, was
// uploaded as a new revision; without the import blocks (and the endpoint
// renamed back) the plan is empty; a card moved to a file, read as
// jsonencode(jsondecode(file(...))), plans no change.
func adoptProse(t *testing.T, r *testkit.Reader, url string) {
	t.Helper()
	run := func(script string, want int) {
		t.Helper()
		if out, code, err := r.Run(script); err != nil || code != want {
			t.Fatalf("%s: exit code %d (%v), want %d\n%s", script, code, err, want, out)
		}
	}
	run("terraform query -generate-config-out=generated.tf -no-color", 1) // it refuses to overwrite the file
	base := url + "/v1/projects/adopt-demo/locations/global"
	if skill := httpDo(t, http.MethodGet, base+"/skills/pdf-tools", ""); !regexp.MustCompile(`"defaultRevision": *"[^"]*/revisions/rev-2"`).MatchString(skill) {
		t.Fatalf("the skill's folder was not uploaded as a new revision:\n%s", skill)
	}
	httpDo(t, http.MethodPatch, base+"/services/billing-api?updateMask=displayName", `{"displayName": "Billing API"}`)
	raw, err := os.ReadFile(filepath.Join(r.Dir, "generated.tf"))
	must(t, err)
	generated := regexp.MustCompile(`(?ms)^import \{.*?^\}\n`).ReplaceAllString(string(raw), "")
	writeFile(t, filepath.Join(r.Dir, "generated.tf"), generated)
	run("terraform plan -detailed-exitcode", 0)

	seed, err := r.Page.Section("## Try it on your machine (optional)")
	must(t, err)
	card := regexp.MustCompile(`(?m)serviceId=fx-agent.*"content": (.*)}}'$`).FindStringSubmatch(testkit.Of(seed, "sh")[1].Text)
	if card == nil {
		t.Fatal("no card in the guide's fx-agent registration")
	}
	writeFile(t, filepath.Join(r.Dir, "cards", "fx.json"), card[1])
	inline := regexp.MustCompile(`(?ms)(^resource "agentregistry_agent" "agents_0" \{\n.*?^  agent_card = )jsonencode\(\{\n.*?^  \}\)\n`)
	if !inline.MatchString(generated) {
		t.Fatalf("generated.tf has no agent_card = jsonencode({...}) in agents_0:\n%s", generated)
	}
	writeFile(t, filepath.Join(r.Dir, "generated.tf"), inline.ReplaceAllString(generated, "${1}jsonencode(jsondecode(file(\"$${path.module}/cards/fx.json\")))\n"))
	run("terraform plan -detailed-exitcode", 0)
}

// adoptWithImports follows the section "With OpenTofu" with its first two
// ```terraform blocks taken from tfBlocks: discover.tf, then the import
// blocks by hand, added to imports.tf. Each ```sh block runs and each
// ```text block after one appears in what it printed: imports only, then an
// empty plan; generated.tf has a resource of each kind, the card as
// jsonencode({...}), the skill without its folder.
func adoptWithImports(t *testing.T, r *testkit.Reader, section, tfBlocks []testkit.Block) {
	if len(tfBlocks) < 2 {
		t.Fatalf("%d terraform blocks, want discover.tf and the import blocks by hand", len(tfBlocks))
	}
	adoptReader(t, r)
	written := 0
	r.Own = func(b testkit.Block) (bool, error) {
		if b.Lang != "terraform" || strings.Contains(b.Text, "for_each = local.cards") {
			return b.Lang == "terraform", nil
		}
		written++
		switch written {
		case 1:
			return true, os.WriteFile(filepath.Join(r.Dir, "discover.tf"), []byte(tfBlocks[0].Text), 0o600)
		case 2:
			imports, err := os.ReadFile(filepath.Join(r.Dir, "imports.tf"))
			if err != nil {
				return true, errors.New("imports.tf was not written: " + err.Error())
			}
			return true, os.WriteFile(filepath.Join(r.Dir, "imports.tf"), append(imports, "\n"+tfBlocks[1].Text...), 0o600)
		}
		return true, nil
	}
	must(t, r.Follow(section))
	if written < 2 {
		t.Fatalf("the section has %d terraform blocks, want discover.tf and the import blocks by hand", written)
	}
	raw, err := os.ReadFile(filepath.Join(r.Dir, "generated.tf"))
	must(t, err)
	for _, want := range []string{`resource "agentregistry_agent" "fx_agent"`, `resource "agentregistry_mcp_server" "weather_tools"`, "agent_card = jsonencode({", "source_dir"} {
		if !strings.Contains(string(raw), want) {
			t.Errorf("generated.tf has no %q:\n%s", want, raw)
		}
	}
}

// adoptFleetWith adopts the search_cards example's fleet, registered through
// the API, with the guide's for_each import block given: the plan only
// imports the three agents, and the plan after the apply is empty.
func adoptFleetWith(t *testing.T, g *guideRun, block string) {
	registry := testkit.StartRegistry(t, registryserver.Options{})
	dir := filepath.Join(g.root, "examples", "functions", "search_cards", "cards")
	entries, err := os.ReadDir(dir)
	must(t, err)
	for _, e := range entries {
		raw, err := os.ReadFile(filepath.Join(dir, e.Name()))
		must(t, err)
		var card map[string]any
		must(t, json.Unmarshal(raw, &card))
		seedAgent(t, registry, strings.TrimSuffix(e.Name(), ".json"), card)
	}
	r := g.reattached(t)
	copyTree(t, g.root, r.Dir, "examples/functions/search_cards")
	h := &testkit.Harness{Bin: g.cli.Path, Dir: filepath.Join(r.Dir, "examples", "functions", "search_cards"), Env: r.Env}
	// The example's fleet, without the bindings it adds after it: the guide
	// adopts the agents alone.
	example, err := os.ReadFile(filepath.Join(h.Dir, "function.tf"))
	must(t, err)
	fleet, _, found := strings.Cut(string(example), "\n# Find among")
	if !found {
		t.Fatal("the search_cards example no longer says where its fleet ends (# Find among ...)")
	}
	h.Write(t, "function.tf", fleet)
	h.Write(t, "imports.tf", block)
	h.Write(t, "test.tf", testkit.ProviderConfig(registry.URL))
	h.MustRun(t, "init", "-input=false")
	out := h.MustExit(t, 2, "plan", "-detailed-exitcode", "-input=false")
	if !strings.Contains(out, "Plan: 3 to import, 0 to add, 0 to change, 0 to destroy.") {
		t.Fatalf("the plan does not only import the three agents:\n%s", out)
	}
	h.MustRun(t, "apply", "-auto-approve", "-input=false")
	h.MustExit(t, 0, "plan", "-detailed-exitcode", "-input=false")
}

// httpDo sends a request with a JSON body (or none) and returns the answer's
// body; a status other than 200 fails the test.
func httpDo(t *testing.T, method, url, body string) string {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	must(t, err)
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	must(t, err)
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d %v\n%s", method, url, resp.StatusCode, err, raw)
	}
	return string(raw)
}
