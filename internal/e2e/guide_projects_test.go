package e2e

import (
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// writingPages are the pages whose steps write to the bundled server that
// `make server` starts on 127.0.0.1:8787 (they apply, or create with curl):
// a reader who follows several on one server meets each page's records.
var writingPages = []string{
	"docs/guides/getting-started.md",
	"docs/guides/the-bundled-registry-server.md",
	"docs/guides/adopt-an-existing-registry.md",
	"docs/guides/pin-approved-mcp-tools.md",
	"docs/guides/register-a-fleet-from-a-folder.md",
	"docs/guides/testing-modules-with-the-bundled-server.md",
}

// projectName finds the project ids a page names: in a provider block, in a
// resource name, in a `terraform query` result.
var projectName = regexp.MustCompile(`project *= *"([a-z][a-z0-9-]*)"|projects/([a-z][a-z0-9-]*)/|project=([a-z][a-z0-9-]*)`)

// Each page that writes to the bundled server does so in projects of its own
// (each project is a namespace of the server), so that following one page
// after another on one `make server` never meets the other page's records:
// an "already exists" on create, or a `terraform query` that lists another
// page's agents.
func TestGuides_pagesThatWriteUseTheirOwnProjects(t *testing.T) {
	root := testkit.Root(t)
	owner := map[string]string{}
	for _, page := range writingPages {
		raw, err := os.ReadFile(filepath.Join(root, page))
		must(t, err)
		var projects []string
		for _, m := range projectName.FindAllStringSubmatch(string(raw), -1) {
			if p := m[1] + m[2] + m[3]; !slices.Contains(projects, p) {
				projects = append(projects, p)
			}
		}
		if len(projects) == 0 {
			t.Errorf("%s names no project: the check cannot tell which it writes to", page)
		}
		for _, p := range projects {
			if other, taken := owner[p]; taken {
				t.Errorf("%s and %s both write to the project %q of the bundled server: give one of them a project of its own",
					filepath.Base(other), filepath.Base(page), p)
				continue
			}
			owner[p] = page
		}
	}
}
