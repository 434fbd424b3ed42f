package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

const googleGuidePath = "templates/guides/google-agent-registry.md.tmpl"

// TestAccGuideGoogle_offlineBlocks follows the guide "Google Agent Registry"
// as far as it goes without Google: every ```sh block whose first line is
// "# offline" runs, in order, in one folder, with `terraform` naming the CLI
// of the run, the provider built from the repository installed from a
// filesystem mirror, and the bundled server in process in place of the one
// on 127.0.0.1:8787; each ```text block after one must appear in what it
// printed. The ```terraform block with required_providers is the guide's
// main.tf; every other ```terraform block (a provider block) must pass
// `terraform validate`, so that the attributes the guide shows exist. Every
// other ```sh block must say "# needs Google".
func TestAccGuideGoogle_offlineBlocks(t *testing.T) {
	cli := testkit.CLIFromEnv(t)
	root := testkit.Root(t)
	guide, err := os.ReadFile(filepath.Join(root, googleGuidePath))
	if err != nil {
		t.Fatal(err)
	}
	env := guideEnv(t, cli)
	registry := testkit.StartRegistry(t, registryserver.Options{})
	shell := &docShell{t: t, dir: t.TempDir(), env: env,
		replace: strings.NewReplacer("127.0.0.1:8787", strings.TrimPrefix(registry.URL, "http://"))}
	var ran, validated int
	var last *string
	for _, b := range testkit.DocBlocks(string(guide), nil, nil) {
		switch b.Lang {
		case "sh":
			last = nil
			switch first, _, _ := strings.Cut(b.Text, "\n"); {
			case strings.HasPrefix(first, "# offline"):
				out := shell.mustRun(b.Text)
				last = &out
				ran++
			case first != "# needs Google":
				t.Fatalf("a ```sh block says neither \"# offline\" nor \"# needs Google\" on its first line:\n%s", b.Text)
			}
		case "text":
			if last != nil {
				if err := testkit.ExpectLines(*last, b.Text); err != nil {
					t.Fatal(err)
				}
			}
			last = nil
		case "terraform":
			last = nil
			if strings.Contains(b.Text, "required_providers") {
				writeFile(t, filepath.Join(shell.dir, "main.tf"), b.Text)
				continue
			}
			validateProviderBlock(t, &docShell{t: t, dir: t.TempDir(), env: env, replace: shell.replace}, b.Text)
			validated++
		}
	}
	if ran < 2 || validated < 2 {
		t.Fatalf("%d offline blocks ran and %d provider blocks were validated: the guide lost its steps", ran, validated)
	}
	t.Logf("the guide's offline blocks hold on %s", cli)
}

// validateProviderBlock runs `terraform validate` on a provider block of the
// guide, in a folder of its own, with a data source that uses it: the CLIs
// validate no provider block that nothing uses.
func validateProviderBlock(t *testing.T, shell *docShell, block string) {
	t.Helper()
	writeFile(t, filepath.Join(shell.dir, "main.tf"), exampleRequiredProviders+block+"\ndata \"agentregistry_agents\" \"all\" {}\n")
	shell.mustRun("terraform init -input=false >/dev/null && terraform validate -no-color")
}

const exampleRequiredProviders = `terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry" }
  }
}

`
