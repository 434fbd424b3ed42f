package e2e

import (
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

const guidePath = "templates/guides/adopt-an-existing-registry.md.tmpl"

// guideRun is the guide "Adopt an existing registry" followed in a folder
// of its own: examples/query copied there, the bundled server started in
// process in place of the one the guide starts on 127.0.0.1:8787, and the
// provider built from the repository installed from a filesystem mirror, as
// a user's `init` installs it.
type guideRun struct {
	shell    *docShell
	cli      *testkit.Harness
	registry *testkit.Registry
	blocks   []testkit.Block
}

func newGuideRun(t *testing.T, cli testkit.CLI) *guideRun {
	t.Helper()
	root := testkit.Root(t)
	guide, err := os.ReadFile(filepath.Join(root, guidePath))
	if err != nil {
		t.Fatal(err)
	}
	env := guideEnv(t, cli)
	registry := testkit.StartRegistry(t, registryserver.Options{})
	work := t.TempDir()
	copyTree(t, root, work, "examples/query")
	work = filepath.Join(work, "examples", "query")
	addr := strings.TrimPrefix(registry.URL, "http://")
	r := &guideRun{
		shell:    &docShell{t: t, dir: work, env: env, replace: strings.NewReplacer("127.0.0.1:8787", addr)},
		cli:      &testkit.Harness{Bin: cli.Path, Dir: work, Env: env},
		registry: registry,
		blocks:   testkit.DocBlocks(terraformPart(string(guide)), nil, nil),
	}
	r.cli.Write(t, "main.tf", r.shell.replace.Replace(r.cli.ReadFile(t, "main.tf")))
	return r
}

// seedBlock is the guide's block that registers records with curl.
func (r *guideRun) seedBlock(t *testing.T) string {
	t.Helper()
	for _, b := range r.blocks {
		if b.Lang == "sh" && strings.Contains(b.Text, "serviceId=fx-agent") {
			return b.Text
		}
	}
	t.Fatal("the guide has no block that registers fx-agent")
	return ""
}

// The guide word for word with a Terraform that has `terraform query`: every
// ```sh block's commands run in order in one folder (the drift step's plan
// exits 2, the others 0), each ```text block that follows one appears in what
// it printed, the ```terraform blocks the guide asks to write are written
// (finance.tfquery.hcl, the skill's source_dir), and the excerpt of
// generated.tf is in the generated file. Then what the guide says in prose.
func TestAccGuideAdopt_terraform(t *testing.T) {
	cli := testkit.CLIFromEnv(t)
	cli.SkipUnless(t, "the guide Adopt an existing registry (terraform query)", "1.14.0", "")
	r := newGuideRun(t, cli)
	var last *string
	for _, b := range r.blocks {
		switch b.Lang {
		case "sh":
			out := r.runCommands(t, b.Text)
			last = &out
		case "text":
			if last != nil {
				if err := testkit.ExpectLines(*last, b.Text); err != nil {
					t.Fatal(err)
				}
			}
			last = nil
		case "terraform":
			r.writeBlock(t, b.Text)
			last = nil
		}
	}
	r.checkProse(t)
	t.Logf("the guide holds, word for word, on %s", cli)
}

// runCommands runs a block's commands one by one and returns what they
// printed. The guide's server start is the in-process server; the OpenTofu
// section's commands are TestAccGuideAdoptOpenTofu's (internal/provider).
func (r *guideRun) runCommands(t *testing.T, block string) string {
	t.Helper()
	var out strings.Builder
	for _, cmd := range strings.Split(block, "\n") {
		if cmd == "" || strings.HasPrefix(cmd, "tofu") || strings.Contains(cmd, "agentregistry-server -listen 127.0.0.1:8787") {
			continue
		}
		printed, code := r.shell.run(cmd)
		want := 0
		if strings.Contains(cmd, "-detailed-exitcode") {
			want = 2 // the drift step
		}
		if code != want {
			t.Fatalf("%s: exit code %d, want %d\n%s", cmd, code, want, printed)
		}
		out.WriteString(printed)
	}
	return out.String()
}

var (
	sourceDirNull = regexp.MustCompile(`(?m)^  source_dir *= null$`)
	elided        = regexp.MustCompile(`(?m)^.*# \.\.\.\n`)
)

// writeBlock does what the guide asks of a ```terraform block, or checks it.
func (r *guideRun) writeBlock(t *testing.T, block string) {
	t.Helper()
	switch {
	case strings.Contains(block, `list "agentregistry_agent" "finance"`):
		r.cli.Write(t, "finance.tfquery.hcl", block)
	case regexp.MustCompile(`^ *source_dir = `).MatchString(block):
		generated := r.cli.ReadFile(t, "generated.tf")
		if !sourceDirNull.MatchString(generated) {
			t.Fatalf("generated.tf has no source_dir = null:\n%s", generated)
		}
		r.cli.Write(t, "generated.tf", sourceDirNull.ReplaceAllLiteralString(generated, strings.TrimSuffix(block, "\n")))
	case strings.HasPrefix(block, `resource "agentregistry_agent" "agents_0"`):
		if err := testkit.ExpectLines(r.cli.ReadFile(t, "generated.tf"), elided.ReplaceAllString(block, "")); err != nil {
			t.Fatalf("the excerpt of generated.tf: %v", err)
		}
	}
}

// checkProse holds what the guide says in prose: generation does not
// overwrite a file; the skill's folder, which the registry holds as a TAR, was
// uploaded as a new revision; without the import blocks (and the endpoint
// renamed back) the plan is empty; a card moved to a file, read as
// jsonencode(jsondecode(file(...))), plans no change.
func (r *guideRun) checkProse(t *testing.T) {
	t.Helper()
	if out, code := r.cli.Run(t, "query", "-generate-config-out=generated.tf"); code == 0 {
		t.Fatalf("terraform query overwrote generated.tf:\n%s", out)
	}
	base := r.registry.URL + "/v1/projects/my-project/locations/global"
	if skill := httpDo(t, http.MethodGet, base+"/skills/pdf-tools", ""); !regexp.MustCompile(`"defaultRevision": *"[^"]*/revisions/rev-2"`).MatchString(skill) {
		t.Fatalf("the skill's folder was not uploaded as a new revision:\n%s", skill)
	}
	httpDo(t, http.MethodPatch, base+"/services/billing-api?updateMask=displayName", `{"displayName": "Billing API"}`)
	generated := regexp.MustCompile(`(?ms)^import \{.*?^\}\n`).ReplaceAllString(r.cli.ReadFile(t, "generated.tf"), "")
	r.cli.Write(t, "generated.tf", generated)
	r.cli.MustRun(t, "plan", "-detailed-exitcode")

	card := regexp.MustCompile(`serviceId=fx-agent.*"content": (.*)}}'$`).FindStringSubmatch(firstLineWith(r.seedBlock(t), "serviceId=fx-agent"))
	if card == nil {
		t.Fatal("no card in the guide's fx-agent registration")
	}
	r.cli.Write(t, "cards/fx.json", card[1])
	inline := regexp.MustCompile(`(?ms)(^resource "agentregistry_agent" "agents_0" \{\n.*?^  agent_card = )jsonencode\(\{\n.*?^  \}\)\n`)
	if !inline.MatchString(generated) {
		t.Fatalf("generated.tf has no agent_card = jsonencode({...}) in agents_0:\n%s", generated)
	}
	r.cli.Write(t, "generated.tf", inline.ReplaceAllString(generated, "${1}jsonencode(jsondecode(file(\"$${path.module}/cards/fx.json\")))\n"))
	r.cli.MustRun(t, "plan", "-detailed-exitcode")
}

// terraformPart is the guide up to its OpenTofu section, which
// TestAccGuideAdoptOpenTofu (internal/provider) follows word for word.
func terraformPart(guide string) string {
	if i := strings.Index(guide, "\n## With OpenTofu"); i >= 0 {
		return guide[:i]
	}
	return guide
}

func firstLineWith(text, s string) string {
	for _, line := range strings.Split(text, "\n") {
		if strings.Contains(line, s) {
			return line
		}
	}
	return ""
}

// httpDo sends a request with a JSON body (or none) and returns the answer's
// body; a status other than 200 fails the test.
func httpDo(t *testing.T, method, url, body string) string {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer func() { _ = resp.Body.Close() }()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err != nil || resp.StatusCode != http.StatusOK {
		t.Fatalf("%s %s: %d %v\n%s", method, url, resp.StatusCode, err, raw)
	}
	return string(raw)
}
