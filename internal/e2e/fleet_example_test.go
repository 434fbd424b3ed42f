package e2e

import (
	"bufio"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

const fleetGuidePath = "templates/guides/register-a-fleet-from-a-folder.md.tmpl"

// The fleet guide's "Try the example against the bundled server" holds, word
// for word, with the CLI of the run: the server is the binary `make server`
// runs, built here, started with the flags its recipe gives it (on a free
// port in place of 127.0.0.1:8787); examples/registry-fleet is applied as it
// is, with the provider installed from a filesystem mirror as a user's `init`
// installs it; every ```sh block runs in the example's folder (`terraform` is
// the CLI of the run), and the ```text block after one appears in what it
// printed. So the example applies against the server as `make server` starts
// it, and the plan with verify-app-hub.tfvars warns that App Hub lacks the
// workload.
func TestAccFleetExample_appliesAgainstMakeServer(t *testing.T) {
	cli := testkit.CLIFromEnv(t)
	root := testkit.Root(t)
	guide, err := os.ReadFile(filepath.Join(root, fleetGuidePath))
	if err != nil {
		t.Fatal(err)
	}
	tree := t.TempDir()
	copyTree(t, root, tree, "examples/registry-fleet", "modules/registry-fleet")
	shell := &docShell{t: t, dir: filepath.Join(tree, "examples", "registry-fleet"), env: mirrorEnv(t, cli),
		replace: strings.NewReplacer()}
	followSection(t, shell, string(guide), "## Try the example against the bundled server", func(b testkit.Block) bool {
		if b.Lang != "sh" || strings.TrimSpace(b.Text) != "make server" {
			return false
		}
		shell.replace = strings.NewReplacer("127.0.0.1:8787", startMakeServer(t, root))
		main := filepath.Join(shell.dir, "main.tf")
		raw, err := os.ReadFile(main)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, main, shell.replace.Replace(string(raw)))
		return true
	})
	t.Logf("examples/registry-fleet applies against the server as `make server` starts it, with %s", cli)
}

// mirrorEnv is the environment of a user who installed the provider from a
// clone: `terraform` on the PATH naming the CLI of the run, the provider in a
// filesystem mirror.
func mirrorEnv(t *testing.T, cli testkit.CLI) []string {
	t.Helper()
	mirror, shim := t.TempDir(), t.TempDir()
	testkit.InstallMirror(t, mirror, testkit.BuildProvider(t))
	if err := os.Symlink(cli.Path, filepath.Join(shim, "terraform")); err != nil {
		t.Fatal(err)
	}
	return cliEnv(map[string]string{
		"TF_CLI_CONFIG_FILE": testkit.FilesystemMirror(t, t.TempDir(), mirror),
		"PATH":               shim + string(os.PathListSeparator) + os.Getenv("PATH"),
	})
}

// startMakeServer builds cmd/agentregistry-server as `make server` does and
// starts it with the flags of that recipe, plus -listen on a free loopback
// port; it returns the address it listens on. The server is stopped with the
// test.
func startMakeServer(t *testing.T, root string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "agentregistry-server")
	build := exec.Command("go", "build", "-trimpath", "-o", bin, "./cmd/agentregistry-server")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build ./cmd/agentregistry-server: %v\n%s", err, out)
	}
	args := append(makeServerFlags(t, root), "-listen", "127.0.0.1:0")
	cmd := exec.Command(bin, args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
	listening := make(chan string, 1)
	go func() {
		s := bufio.NewScanner(stdout)
		for s.Scan() {
			if addr, ok := strings.CutPrefix(s.Text(), "agentregistry-server listening on http://"); ok {
				listening <- addr
			}
		}
	}()
	select {
	case addr := <-listening:
		t.Logf("agentregistry-server %s listening on %s", strings.Join(args, " "), addr)
		return addr
	case <-time.After(time.Minute):
		t.Fatal("agentregistry-server did not say where it listens within a minute")
		return ""
	}
}

var (
	serverRecipe = regexp.MustCompile(`(?m)^server:.*\n(?:\t.*\n)*?\texec bin/agentregistry-server(.*)$`)
	makeVariable = regexp.MustCompile(`\$\(([A-Z_]+)\)`)
)

// makeServerFlags reads the flags of `make server` from the GNUmakefile: what
// its recipe passes to bin/agentregistry-server, with $(SERVER_FLAGS) at the
// value the GNUmakefile gives it (none when it sets none), as `make server`
// without arguments runs it.
func makeServerFlags(t *testing.T, root string) []string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, "GNUmakefile"))
	if err != nil {
		t.Fatal(err)
	}
	m := serverRecipe.FindStringSubmatch(string(raw))
	if m == nil {
		t.Fatal("the GNUmakefile's server recipe does not exec bin/agentregistry-server")
	}
	flags := makeVariable.ReplaceAllStringFunc(m[1], func(ref string) string {
		name := makeVariable.FindStringSubmatch(ref)[1]
		def := regexp.MustCompile(fmt.Sprintf(`(?m)^%s\s*[:?]?=(.*)$`, name)).FindStringSubmatch(string(raw))
		if def == nil {
			return ""
		}
		return def[1]
	})
	return strings.Fields(flags)
}
