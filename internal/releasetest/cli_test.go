package releasetest

import (
	"context"
	"go/build"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// cli is one Terraform or OpenTofu binary the install is tested with.
type cli struct {
	name string // the variable that names it: TERRAFORM, TERRAFORM_OLDEST, TOFU, TOFU_OLDEST
	path string // empty: the variable was set empty, and this CLI is skipped
}

// releaseCLIs are the four CLIs the issue names, each overridable through the
// GNUmakefile's variable of the same name (an empty value skips that CLI, as in
// the GNUmakefile): Terraform 1.16.3 and OpenTofu 1.12.6 and 1.10.6 built by
// scripts/install-*.sh into $(go env GOPATH)/bin, and the `terraform` on the
// PATH (1.11.4 on these machines).
func releaseCLIs(t *testing.T, names []string) []cli {
	t.Helper()
	gobin := filepath.Join(build.Default.GOPATH, "bin")
	onPath, _ := exec.LookPath("terraform")
	defaults := []cli{
		{"TERRAFORM", filepath.Join(gobin, "terraform-v1.16.3")},
		{"TERRAFORM_OLDEST", onPath},
		{"TOFU", filepath.Join(gobin, "tofu-v1.12.6")},
		{"TOFU_OLDEST", filepath.Join(gobin, "tofu-v1.10.6")},
	}
	var clis []cli
	for _, c := range defaults {
		if names != nil && !slices.Contains(names, c.name) {
			continue
		}
		if value, set := os.LookupEnv(c.name); set {
			c.path = value
		} else if _, err := os.Stat(c.path); c.path == "" || err != nil {
			t.Fatalf("%s: no CLI at %q (make clis builds the CLIs; %s=/path picks one, %s= skips it)", c.name, c.path, c.name, c.name)
		}
		clis = append(clis, c)
	}
	return clis
}

// forEachCLI runs test once per CLI named (every CLI when names is nil), as a
// subtest named by its variable.
func forEachCLI(t *testing.T, names []string, test func(t *testing.T, c cli)) {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("TF_ACC is not set: the release install tests run CLIs, like every acceptance test")
	}
	for _, c := range releaseCLIs(t, names) {
		t.Run(c.name, func(t *testing.T) {
			if c.path == "" {
				t.Skipf("%s is set empty: this CLI is skipped", c.name)
			}
			test(t, c)
		})
	}
}

// workspace is one module folder and the environment a CLI runs it in: a home
// of its own (no implied local mirror, no plugin cache, no credentials), an
// empty CLI configuration (no provider_installation: the registry's
// protocol is the only way in), and the test CA trusted through SSL_CERT_FILE.
type workspace struct {
	dir string
	env []string
}

func newWorkspace(t *testing.T, ca testCA) workspace {
	t.Helper()
	home := t.TempDir()
	config := filepath.Join(home, "cli.tfrc")
	if err := os.WriteFile(config, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	return workspace{
		dir: t.TempDir(),
		env: []string{
			"PATH=" + os.Getenv("PATH"),
			"HOME=" + home,
			"TMPDIR=" + os.TempDir(),
			"TF_CLI_CONFIG_FILE=" + config,
			"SSL_CERT_FILE=" + ca.certFile,
			"CHECKPOINT_DISABLE=1",
			"TF_IN_AUTOMATION=1",
		},
	}
}

// run runs the CLI in the workspace and returns what it printed, bounded to five
// minutes (an init from loopback takes seconds).
func (w workspace) run(t *testing.T, c cli, args ...string) (string, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, c.path, args...)
	cmd.Dir, cmd.Env = w.dir, w.env
	out, err := cmd.CombinedOutput()
	return string(out), err
}

func (w workspace) write(t *testing.T, name, content string) {
	t.Helper()
	if err := os.WriteFile(filepath.Join(w.dir, name), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}
