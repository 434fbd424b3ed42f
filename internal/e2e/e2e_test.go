// Package e2e holds the end-to-end checks of the repository that drive a CLI
// (OpenTofu or Terraform) as users do: every example validates and is
// formatted, docs/ is what the schema renders, the provider installs through
// the implied mirror, -plugin-dir and filesystem_mirror offline, the modules'
// native tests pass, and every guide and README section with ```sh blocks
// holds word for word (guides(), the table of those pages, each followed by
// one test through testkit's runner). Each runs with the CLI of the run (TF_ACC=1,
// TF_ACC_TERRAFORM_PATH), as the acceptance tests do, against the bundled
// registry server started in process on loopback, and is skipped, in one line
// saying why, when that CLI cannot run it.
package e2e

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

func TestMain(m *testing.M) { os.Exit(testkit.Main(m)) }

// cliEnv is the test process's environment with set applied and the names in
// drop removed: what a CLI run by a test sees. The settings of the caller
// that would change how a CLI installs or configures this provider are
// always dropped.
func cliEnv(set map[string]string, drop ...string) []string {
	drop = append(drop, "TF_REATTACH_PROVIDERS", "TF_CLI_CONFIG_FILE", "TF_PLUGIN_CACHE_DIR",
		"AGENTREGISTRY_ENDPOINT", "AGENTREGISTRY_APPHUB_ENDPOINT", "AGENTREGISTRY_PROJECT",
		"AGENTREGISTRY_LOCATION", "AGENTREGISTRY_ACCESS_TOKEN", "GOOGLE_CLOUD_PROJECT", "AGENTREGISTRY_CREDENTIALS",
		"AGENTREGISTRY_IMPERSONATE_SERVICE_ACCOUNT", "AGENTREGISTRY_BILLING_PROJECT", "AGENTREGISTRY_USER_PROJECT_OVERRIDE")
	env := []string{"CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1"}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if _, ok := set[name]; !ok && !slices.Contains(drop, name) {
			env = append(env, kv)
		}
	}
	for k, v := range set {
		env = append(env, k+"="+v)
	}
	return env
}

// copyTree copies the repository's folders into dst, keeping their relative
// places (an example calls ../../modules/registry-fleet).
func copyTree(t *testing.T, root, dst string, folders ...string) {
	t.Helper()
	for _, f := range folders {
		if err := os.CopyFS(filepath.Join(dst, f), os.DirFS(filepath.Join(root, f))); err != nil {
			t.Fatal(err)
		}
	}
}

// devOverridesRun is the harness of a test that runs the provider built from
// the repository through dev_overrides (its folder is the test's to set).
func devOverridesRun(t *testing.T, cli testkit.CLI) *testkit.Harness {
	t.Helper()
	rc := testkit.DevOverrides(t, t.TempDir(), testkit.BuildProvider(t).Dir)
	return &testkit.Harness{Bin: cli.Path, Host: cli.Host(), Env: cliEnv(map[string]string{"TF_CLI_CONFIG_FILE": rc})}
}
