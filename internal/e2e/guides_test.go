package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/provider"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// guide is a page with ```sh blocks, a guide of docs/guides or a section of
// the README, and how the suite follows it. Every ```sh block of the page is
// run by follow, or not run for a reason that notRun gives and testkit
// checks (testkit.Page.Check).
type guide struct {
	page    string // what readers read: docs/guides/NAME.md, or README.md
	section string // of the README: the section's heading ("" for its opening lines)
	read    string // the file the test reads, when not page: the guide's template
	// follows are the headings of the sections follow runs; none for the
	// whole page but what notRun names.
	follows []string
	// notRun names the blocks that the suite never runs here, and why.
	notRun func() []testkit.NotRun
	// follow follows the page with the CLI of the run (nil when it needs
	// none: TestGuides runs it without TF_ACC); nil when every block is
	// in notRun.
	follow func(t *testing.T, g *guideRun)
	noCLI  bool
}

// guides is every page of the repository with ```sh blocks (the guides, the
// README, the modules' READMEs), each followed by one test:
// TestGuides_everyPageIsInTheTable fails when a page with ```sh blocks is in
// no row, or a row leaves a block out.
func guides() []guide {
	return []guide{
		{page: "docs/guides/adopt-an-existing-registry.md", follow: followAdopt},
		{page: "docs/guides/developing-the-provider.md", notRun: developingNotRun},
		{page: "docs/guides/drift-detection-in-ci.md", follows: []string{"## The job"}, notRun: driftNotRun, follow: followDrift},
		{page: "docs/guides/getting-started.md", follow: followGettingStarted},
		{page: "docs/guides/google-agent-registry.md", notRun: googleNotRun, follow: followGoogle},
		{page: "docs/guides/installing-the-provider.md", notRun: installingNotRun},
		{page: "docs/guides/migrating-from-google-agent-registry-service.md", notRun: migratingNotRun},
		{page: "docs/guides/pin-approved-mcp-tools.md", follow: followPinApprovedTools},
		{page: "docs/guides/register-a-fleet-from-a-folder.md", follows: []string{"## Try the example against the bundled server", "## Test the module"},
			notRun: fleetNotRun, follow: followFleet},
		{page: "docs/guides/register-what-you-deploy.md", notRun: registerWhatYouDeployNotRun},
		{page: "docs/guides/testing-modules-with-the-bundled-server.md", follow: followTestingModules},
		{page: "modules/registry-fleet/README.md", follows: []string{"## Tests"}, notRun: fleetReadmeNotRun, follow: followFleetModuleReadme},
		{page: "docs/guides/tool-text-rules.md", follow: followToolTextRules},
		{page: "docs/guides/the-bundled-registry-server.md", read: "docs/guides/the-bundled-registry-server.md",
			follow: followServerGuide, noCLI: true},
		{page: "README.md", section: "", follow: followReadmeDemo},
		{page: "README.md", section: "## The bundled registry server", follow: followReadmeServer, noCLI: true},
	}
}

// name is the row's subtest name: the guide's, a module's README as
// module-NAME, or README and its section.
func (g guide) name() string {
	if module, ok := strings.CutPrefix(filepath.Dir(g.page), "modules/"); ok {
		return "module-" + module
	}
	if g.page != "README.md" {
		return strings.TrimSuffix(filepath.Base(g.page), ".md")
	}
	if g.section == "" {
		return "README"
	}
	return "README-" + strings.Join(strings.FieldsFunc(strings.ToLower(g.section), func(r rune) bool {
		return (r < 'a' || r > 'z') && (r < '0' || r > '9')
	}), "-")
}

// source is the file the test reads: a guide's template (the page is what
// tfplugindocs renders from it, TestAccDocs_matchTheSchema checks), or the
// README.
func (g guide) source() string {
	if g.read != "" {
		return g.read
	}
	if strings.HasPrefix(g.page, "docs/guides/") {
		return "templates/guides/" + strings.TrimSuffix(filepath.Base(g.page), ".md") + ".md.tmpl"
	}
	return g.page
}

// readPage reads the row's page (its section, for the README) with the
// blocks of notRun recorded as not run.
func (g guide) readPage(t *testing.T, root string) *testkit.Page {
	t.Helper()
	p, err := testkit.ReadPage(root, g.source())
	if err != nil {
		t.Fatal(err)
	}
	if g.page == "README.md" {
		if p, err = p.Part(g.section); err != nil {
			t.Fatal(err)
		}
	}
	if g.notRun != nil {
		must(t, p.Skip(g.notRun()...))
	}
	return p
}

// guideRun is one row followed: the page, the CLI of the run (nil for a row
// that needs none) and the repository.
type guideRun struct {
	page *testkit.Page
	cli  *testkit.CLI
	root string
}

// The guides that need a CLI, each followed with the CLI of the run.
func TestAccGuides(t *testing.T) {
	cli := testkit.CLIFromEnv(t)
	for _, g := range guides() {
		if g.follow != nil && !g.noCLI {
			t.Run(g.name(), func(t *testing.T) { g.run(t, &cli) })
		}
	}
}

// The guides that need no CLI (the bundled server's), with or without TF_ACC.
func TestGuides(t *testing.T) {
	for _, g := range guides() {
		if g.follow != nil && g.noCLI {
			t.Run(g.name(), func(t *testing.T) { g.run(t, nil) })
		}
	}
}

// run follows the row, then holds it to every ```sh block of its page.
func (g guide) run(t *testing.T, cli *testkit.CLI) {
	root := testkit.Root(t)
	r := &guideRun{page: g.readPage(t, root), cli: cli, root: root}
	g.follow(t, r)
	if t.Failed() {
		return // a step failed: the blocks after it did not run, and saying so adds nothing
	}
	must(t, r.page.Check())
	t.Log(r.page.Summary())
}

// Every page with ```sh blocks is in exactly one row (a guide of docs/guides,
// a section of the README), and each row accounts for every ```sh block of
// its page: in a section it follows, or not run for a reason that holds
// (checked without a CLI: the run checks the rest).
func TestGuides_everyPageIsInTheTable(t *testing.T) {
	root := testkit.Root(t)
	rows := map[string]int{}
	for _, g := range guides() {
		rows[g.page]++
		if g.page != "README.md" && rows[g.page] > 1 {
			t.Errorf("%s is in %d rows: one test follows a guide", g.page, rows[g.page])
		}
		t.Run(g.name(), func(t *testing.T) { g.accounts(t, root) })
	}
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "guides", "*.md"))
	modules, _ := filepath.Glob(filepath.Join(root, "modules", "*", "README.md"))
	for _, path := range append(pages, modules...) {
		rel, _ := filepath.Rel(root, path)
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if len(testkit.Of(testkit.NewPage(rel, string(raw)).Blocks, "sh")) > 0 && rows[rel] == 0 {
			t.Errorf("%s has ```sh blocks and no row in guides(): add one, with the test that follows it", rel)
		}
	}
	readmeSections(t, root)
}

// accounts checks that every ```sh block of the row's page is in a section
// it follows or not run for a reason that holds.
func (g guide) accounts(t *testing.T, root string) {
	p := g.readPage(t, root)
	followed := map[int]bool{}
	for _, heading := range g.follows {
		blocks, err := p.Section(heading)
		must(t, err)
		for _, b := range blocks {
			followed[b.Index] = true
		}
	}
	for _, b := range testkit.Of(p.Blocks, "sh") {
		inFollowed := followed[b.Index] || (g.follows == nil && g.follow != nil)
		if p.NotRunWhy(b) == "" && !inFollowed {
			t.Errorf("%s:%d is neither followed nor not run for a reason:\n%s", p.Path, b.Line, b.Text)
		}
	}
}

// readmeSections checks that each ```sh block of the README is in the
// section of exactly one row.
func readmeSections(t *testing.T, root string) {
	readme, err := testkit.ReadPage(root, "README.md")
	must(t, err)
	var lines []int
	for _, g := range guides() {
		if g.page == "README.md" {
			part, err := readme.Part(g.section)
			must(t, err)
			for _, b := range testkit.Of(part.Blocks, "sh") {
				lines = append(lines, b.Line)
			}
		}
	}
	for _, b := range testkit.Of(readme.Blocks, "sh") {
		if n := len(slices.DeleteFunc(slices.Clone(lines), func(l int) bool { return l != b.Line })); n != 1 {
			t.Errorf("README.md:%d is in %d rows' sections, want 1 (a README section with ```sh blocks needs a row):\n%s", b.Line, n, b.Text)
		}
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// reader is a Reader of the row's page in a new folder (readerAsUser), with
// the provider installed from a filesystem mirror.
func (g *guideRun) reader(t *testing.T) *testkit.Reader {
	t.Helper()
	return g.readerAsUser(t, map[string]string{
		"TF_CLI_CONFIG_FILE": testkit.FilesystemMirror(t, t.TempDir(), testkit.ProviderMirror(t)),
	})
}

// reattached is a Reader of the row's page in a new folder (readerAsUser),
// with the provider served in process (TF_REATTACH_PROVIDERS), as the
// provider's own tests serve it: no provider process per command, for the
// guides that run many (installing it is what the other rows do).
func (g *guideRun) reattached(t *testing.T) *testkit.Reader {
	t.Helper()
	served := testkit.ServedProvider{Address: testkit.ProviderType, Server: providerserver.NewProtocol6(provider.New("test")())}
	return g.readerAsUser(t, map[string]string{"TF_REATTACH_PROVIDERS": testkit.Reattach(t, g.cli.Host(), served)})
}

// readerAsUser is a Reader of the row's page in a new folder, as a user of
// the CLI of the run (testkit.UserEnv, with set): `terraform` and `tofu`
// name it, and every .tf and .hcl file the page saves must be formatted as it
// formats them. Without a CLI, no `terraform` is added to the PATH.
func (g *guideRun) readerAsUser(t *testing.T, set map[string]string) *testkit.Reader {
	t.Helper()
	r := &testkit.Reader{Page: g.page, Dir: t.TempDir(), Logf: t.Logf}
	if g.cli == nil {
		r.Env = testkit.UserEnv(t, "", set)
		return r
	}
	r.Env, r.Format = testkit.UserEnv(t, g.cli.Path, set), g.cli.Path
	return r
}
