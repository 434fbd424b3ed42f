package e2e

import (
	"bytes"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// docs/ is what tfplugindocs renders from the provider's schema, the
// templates and the examples, offline: the schema comes from `terraform
// providers schema -json` against the provider built from the repository
// (dev_overrides), so tfplugindocs never downloads Terraform. The Terraform
// is TERRAFORM when it names a binary, else the CLI of the run when it is a
// Terraform; it must be 1.14+, whose schema has the resources' identities and
// the list resources that docs/ shows (OpenTofu's has neither).
func TestAccDocs_matchTheSchema(t *testing.T) {
	cli := docsTerraform(t)
	root := testkit.Root(t)
	h := devOverridesRun(t, cli)
	h.Dir = t.TempDir()
	h.Write(t, "main.tf", `terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry" }
  }
}
`)
	cmd := exec.Command(cli.Path, "providers", "schema", "-json")
	cmd.Dir, cmd.Env = h.Dir, h.Env
	schema, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s providers schema -json: %v", cli, err)
	}
	// tfplugindocs looks the schema up as "agentregistry" or under
	// hashicorp/, and this provider's address is agentregistry/agentregistry.
	h.Write(t, "schema.json", strings.Replace(string(schema),
		`"registry.terraform.io/agentregistry/agentregistry":`, `"agentregistry":`, 1))
	// tfplugindocs resolves --rendered-website-dir against the provider's
	// folder: it renders into a scratch folder inside the repository.
	out, err := os.MkdirTemp(root, ".docs-check-") //nolint:usetesting // inside the repository, where tfplugindocs renders
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(out) })
	gen := exec.Command("go", "tool", "tfplugindocs", "generate", "--provider-name", "agentregistry",
		"--providers-schema", filepath.Join(h.Dir, "schema.json"), "--rendered-website-dir", filepath.Base(out))
	gen.Dir = root
	if log, err := gen.CombinedOutput(); err != nil {
		t.Fatalf("tfplugindocs: %v\n%s", err, log)
	}
	t.Logf("docs rendered from the schema %s reports (%s)", cli, cli.Path)
	if diffs := compareTrees(t, filepath.Join(root, "docs"), out); len(diffs) > 0 {
		t.Errorf("docs/ is out of date with the provider schema, templates/ or examples/ (rendered with %s): "+
			"run 'make docs' and commit the result.\n%s", cli, strings.Join(diffs, "\n"))
	}
}

// docsTerraform is the Terraform that renders the docs, or a skip saying why
// there is none.
func docsTerraform(t *testing.T) testkit.CLI {
	t.Helper()
	var cli testkit.CLI
	if path := os.Getenv("TERRAFORM"); path != "" {
		var err error
		if cli, err = testkit.DetectCLI(path); err != nil {
			t.Fatalf("TERRAFORM: %v", err)
		}
	} else if cli = testkit.CLIFromEnv(t); cli.Flavour != testkit.Terraform {
		t.Skipf("docs/ is rendered from a Terraform's schema; this run's CLI is %s %s (TERRAFORM names another)", cli.Flavour, cli.Version)
	}
	cli.SkipUnless(t, "docs/ (identities and list resources in the schema)", "1.14.0", "")
	return cli
}

// compareTrees lists the files that differ between two folders: missing in
// one, or with other contents (the first differing line shown).
func compareTrees(t *testing.T, want, got string) []string {
	t.Helper()
	files := map[string]bool{}
	for _, dir := range []string{want, got} {
		err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				rel, _ := filepath.Rel(dir, path)
				files[rel] = true
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	var diffs []string
	for rel := range files {
		a, errA := os.ReadFile(filepath.Join(want, rel))
		b, errB := os.ReadFile(filepath.Join(got, rel))
		switch {
		case errA != nil:
			diffs = append(diffs, "docs/"+rel+": not committed, and the schema renders it")
		case errB != nil:
			diffs = append(diffs, "docs/"+rel+": committed, and the schema renders no such page")
		case !bytes.Equal(a, b):
			diffs = append(diffs, "docs/"+rel+": "+firstDifference(string(a), string(b)))
		}
	}
	sort.Strings(diffs)
	return diffs
}

func firstDifference(committed, rendered string) string {
	a, b := strings.Split(committed, "\n"), strings.Split(rendered, "\n")
	for i := 0; i < len(a) || i < len(b); i++ {
		var x, y string
		if i < len(a) {
			x = a[i]
		}
		if i < len(b) {
			y = b[i]
		}
		if x != y {
			return "line " + strconv.Itoa(i+1) + ": committed " + strconv.Quote(x) + ", rendered " + strconv.Quote(y)
		}
	}
	return "differs"
}

// maxFrontMatterDescription bounds a page's front matter description: a
// registry shows it as the page's summary, and the page's body holds the rest.
const maxFrontMatterDescription = 400

// Every page of docs/ has a front matter description of one line of at most
// maxFrontMatterDescription characters: a summary, not the page's text.
func TestDocs_frontMatterDescriptionIsASummary(t *testing.T) {
	root := testkit.Root(t)
	pages, _ := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	more, _ := filepath.Glob(filepath.Join(root, "docs", "*", "*.md"))
	pages = append(pages, more...)
	if len(pages) < 10 {
		t.Fatalf("only %d pages under docs/", len(pages))
	}
	for _, page := range pages {
		raw, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		front, _, ok := strings.Cut(strings.TrimPrefix(string(raw), "---\n"), "\n---\n")
		_, desc, found := strings.Cut(front, "description: |-\n")
		if !ok || !found {
			t.Errorf("%s: no front matter with a description", page)
			continue
		}
		if lines := strings.Split(strings.TrimRight(desc, "\n"), "\n"); len(lines) > 2 ||
			len(strings.TrimSpace(strings.Join(lines, " "))) > maxFrontMatterDescription {
			rel, _ := filepath.Rel(root, page)
			t.Errorf("%s: the front matter description is %d lines and %d characters, want a summary of at most %d",
				rel, len(lines), len(desc), maxFrontMatterDescription)
		}
	}
}
