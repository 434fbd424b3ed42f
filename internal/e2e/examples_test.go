package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// exampleRequired completes an example, a fragment without a terraform block,
// with the provider's source and the version constraint the examples use.
const exampleRequired = `terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry", version = "~> 0.2" }
  }
}
`

// Every example folder validates with the CLI of the run against the provider
// built from the repository (dev_overrides), and is formatted as that CLI
// formats it, so that the examples in the docs stay valid on both CLIs.
func TestAccExamples_validateAndFormat(t *testing.T) {
	cli := testkit.CLIFromEnv(t)
	// The examples show what the newest CLIs accept: an import block by identity.
	cli.SkipUnless(t, "the examples (import blocks by identity)", "1.12.0", "1.12.0")
	h, root, tree := exampleRun(t, cli, "examples", "modules")
	dirs, _ := examplesToRun(t, root)
	for _, dir := range dirs {
		t.Run(dir, func(t *testing.T) {
			h := *h
			h.Dir = filepath.Join(tree, dir)
			validateExample(t, &h)
			h.Dir = filepath.Join(root, dir)
			h.MustRun(t, "fmt", "-check", "-diff")
		})
	}
	t.Logf("%d example folders valid and formatted with %s", len(dirs), cli)
}

// validateExample validates the example in h.Dir: its modules installed with
// `get` (the provider comes from dev_overrides), and a resource's
// import-by-identity.tf and import-by-string-id.tf, which import the same
// address, each alone.
func validateExample(t *testing.T, h *testkit.Harness) {
	t.Helper()
	if files := completeExample(t, h); anyContains(t, files, "\nmodule ") {
		h.MustRun(t, "get")
	}
	variants := []string{""}
	if exists(h.Dir, "import-by-identity.tf") && exists(h.Dir, "import-by-string-id.tf") {
		variants = []string{"import-by-identity.tf", "import-by-string-id.tf"}
	}
	for _, aside := range variants {
		if aside == "" {
			h.MustRun(t, "validate")
			continue
		}
		path := filepath.Join(h.Dir, aside)
		if err := os.Rename(path, path+".aside"); err != nil {
			t.Fatal(err)
		}
		out, code := h.Run(t, "validate")
		if err := os.Rename(path+".aside", path); err != nil {
			t.Fatal(err)
		}
		if code != 0 {
			t.Fatalf("validate without %s: exit code %d\n%s", aside, code, out)
		}
	}
}

// Every query file (*.tfquery.hcl, list blocks) validates with `validate
// -query` and is formatted: with a Terraform that has list blocks (1.14+),
// which OpenTofu and older Terraform releases have not.
func TestAccExamples_queryFiles(t *testing.T) {
	cli := testkit.CLIFromEnv(t)
	cli.SkipUnless(t, "query files (list blocks)", "1.14.0", "")
	h, root, tree := exampleRun(t, cli, "examples")
	_, dirs := examplesToRun(t, root)
	for _, dir := range dirs {
		t.Run(dir, func(t *testing.T) {
			h := *h
			h.Dir = filepath.Join(tree, dir)
			completeExample(t, &h)
			h.MustRun(t, "validate", "-query")
			h.Dir = filepath.Join(root, dir)
			h.MustRun(t, "fmt", "-check", "-diff")
		})
	}
	if len(dirs) == 0 {
		t.Fatal("no query file under examples/")
	}
}

// exampleRun copies the repository's folders into a scratch tree, where the
// CLI may write, and returns a harness that runs the provider built from the
// repository (dev_overrides), the repository's root and the tree.
func exampleRun(t *testing.T, cli testkit.CLI, folders ...string) (h *testkit.Harness, root, tree string) {
	t.Helper()
	root, tree = testkit.Root(t), t.TempDir()
	copyTree(t, root, tree, folders...)
	return devOverridesRun(t, cli), root, tree
}

// completeExample gives the example in h.Dir the provider's source when it
// has no required_providers, and returns its .tf files.
func completeExample(t *testing.T, h *testkit.Harness) []string {
	t.Helper()
	files, _ := filepath.Glob(filepath.Join(h.Dir, "*.tf"))
	if !anyContains(t, files, "required_providers") {
		h.Write(t, "zz_required_providers.tf", exampleRequired)
	}
	return files
}

// exampleCategories are the folders of examples/ (tfplugindocs' layout) each
// of whose folders is the example of one resource, data source, list resource
// or function; every other folder directly under examples/ (the provider's,
// the demo, a module's) is an example of its own.
var exampleCategories = []string{"resources", "data-sources", "list-resources", "functions", "ephemeral-resources", "actions"}

// exampleFolders lists the example folders of examples/ itself, relative to
// root, by the layout above: the tests' count of examples comes from here,
// never from the files they happen to find.
func exampleFolders(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	for _, top := range readDirs(t, filepath.Join(root, "examples")) {
		if !slices.Contains(exampleCategories, top) {
			out = append(out, filepath.Join("examples", top))
			continue
		}
		for _, name := range readDirs(t, filepath.Join(root, "examples", top)) {
			out = append(out, filepath.Join("examples", top, name))
		}
	}
	return out
}

// readDirs are the names of the folders in dir; a file there is an error,
// since no test would run it.
func readDirs(t *testing.T, dir string) []string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, e := range entries {
		if !e.IsDir() {
			t.Errorf("%s is a file where the examples' layout has folders: no examples test runs it; move it into an example's folder", filepath.Join(dir, e.Name()))
			continue
		}
		out = append(out, e.Name())
	}
	return out
}

// examplesToRun are the example folders of root (exampleFolders) that hold
// configuration (*.tf: validated and formatted) and those that hold query
// files (*.tfquery.hcl: validated as queries). An example folder with
// neither is an example no test would run, and fails the test.
func examplesToRun(t *testing.T, root string) (configs, queries []string) {
	t.Helper()
	for _, dir := range exampleFolders(t, root) {
		tf, _ := filepath.Glob(filepath.Join(root, dir, "*.tf"))
		query, _ := filepath.Glob(filepath.Join(root, dir, "*.tfquery.hcl"))
		if len(tf) > 0 {
			configs = append(configs, dir)
		}
		if len(query) > 0 {
			queries = append(queries, dir)
		}
		if len(tf) == 0 && len(query) == 0 {
			t.Errorf("the example %s holds no *.tf or *.tfquery.hcl file: no examples test would run it", dir)
		}
	}
	return configs, queries
}

// Every folder of examples/ is an example the examples tests run: a
// configuration or a query, in tfplugindocs' layout. Without a CLI, so that
// an example no test would run fails every run.
func TestExamples_everyFolderIsRun(t *testing.T) {
	configs, queries := examplesToRun(t, testkit.Root(t))
	if len(configs) == 0 || len(queries) == 0 {
		t.Fatalf("examples/ has %d configurations and %d queries; want both", len(configs), len(queries))
	}
	t.Logf("%d example folders: %d configurations, %d queries", len(exampleFolders(t, testkit.Root(t))), len(configs), len(queries))
}

func anyContains(t *testing.T, files []string, s string) bool {
	t.Helper()
	for _, f := range files {
		raw, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if strings.Contains("\n"+string(raw), s) {
			return true
		}
	}
	return false
}

func exists(dir, name string) bool {
	_, err := os.Stat(filepath.Join(dir, name))
	return err == nil
}
