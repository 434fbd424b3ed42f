package releasetest

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// cli is one Terraform or OpenTofu binary the install is tested with.
type cli struct {
	name string // the GNUmakefile's variable that names it: TERRAFORM, TERRAFORM_OLDEST, TOFU, TOFU_OLDEST
	path string // empty: the variable was set empty, and this CLI is skipped
}

// matrix is the GNUmakefile's variables of the CLIs tested: `make test`
// passes them to this package's run, so that the GNUmakefile is the one
// place that names the CLIs (their releases and binaries).
var matrix = []string{"TERRAFORM", "TERRAFORM_OLDEST", "TOFU", "TOFU_OLDEST"}

// releaseCLIs are the CLIs the variables named (every one of matrix when
// names is nil) name. A variable set empty skips that CLI, as in the
// GNUmakefile. A variable not set (`go test` without make) skips the test in
// one line that names it, but under CI=true, where it fails: CI runs make.
func releaseCLIs(t *testing.T, names []string) []cli {
	t.Helper()
	if names == nil {
		names = matrix
	}
	var clis []cli
	var missing []string
	for _, name := range names {
		path, set := os.LookupEnv(name)
		if !set {
			missing = append(missing, name)
			continue
		}
		if _, err := os.Stat(path); path != "" && err != nil {
			t.Fatalf("%s: no CLI at %q (make clis builds the CLIs; %s=/path picks one, %s= skips it)", name, path, name, name)
		}
		clis = append(clis, cli{name, path})
	}
	if len(missing) > 0 {
		why := fmt.Sprintf("%s not set: make test passes the GNUmakefile's CLIs (%s=/path/to/cli picks one, %s= skips it)",
			strings.Join(missing, ", "), missing[0], missing[0])
		if os.Getenv("CI") == "true" {
			t.Fatal(why)
		}
		t.Skip(why)
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
			if detected, err := testkit.DetectCLI(c.path); err == nil {
				t.Logf("%s is %s", c.name, detected)
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
