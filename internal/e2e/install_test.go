package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// `make install` as a user meets it: scripts/install.sh installs the provider
// into the ~/.terraform.d/plugins of a temporary HOME, and `init` + `plan` of a
// module that requires the provider with a version constraint, next to the
// built-in terraform_data, work offline (HTTP(S)_PROXY point at a closed
// port, so a registry request fails) three ways: the implied local mirror,
// `init -plugin-dir` with the examples' constraint, and a filesystem_mirror
// block. The lock file records the version installed, and the plan creates
// both resources (the data source reads the bundled server during plan).
func TestAccInstall_offline(t *testing.T) {
	cli := testkit.CLIFromEnv(t)
	root := testkit.Root(t)
	version, err := testkit.Version(root)
	if err != nil {
		t.Fatal(err)
	}
	home := t.TempDir()
	installWithMakeInstall(t, root, home)
	mirror := filepath.Join(home, ".terraform.d", "plugins")
	registry := testkit.StartRegistry(t, registryserver.Options{})
	rcDir := t.TempDir()
	empty := filepath.Join(rcDir, "empty.tfrc")
	if err := os.WriteFile(empty, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	offline := map[string]string{
		"HOME": home, "HTTP_PROXY": "http://127.0.0.1:9", "HTTPS_PROXY": "http://127.0.0.1:9",
		"http_proxy": "http://127.0.0.1:9", "https_proxy": "http://127.0.0.1:9",
		"NO_PROXY": "127.0.0.1,localhost", "no_proxy": "127.0.0.1,localhost",
	}
	for _, c := range []struct {
		how, constraint, rc string
		initArgs            []string
	}{
		{"implied mirror", version, empty, nil},
		{"-plugin-dir", examplesConstraint(t, root), empty, []string{"-plugin-dir=" + mirror}},
		{"filesystem_mirror", version, testkit.FilesystemMirror(t, rcDir, mirror), nil},
	} {
		t.Run(c.how, func(t *testing.T) {
			offline["TF_CLI_CONFIG_FILE"] = c.rc
			h := &testkit.Harness{Bin: cli.Path, Dir: t.TempDir(), Env: cliEnv(offline, "XDG_DATA_HOME", "XDG_CONFIG_HOME")}
			h.Write(t, "main.tf", installModule(c.constraint, registry.URL))
			h.MustRun(t, append([]string{"init", "-input=false"}, c.initArgs...)...)
			if lock := h.ReadFile(t, ".terraform.lock.hcl"); !regexp.MustCompile(`version *= *"` + regexp.QuoteMeta(version) + `"`).MatchString(lock) {
				t.Fatalf("the lock file does not record version %s:\n%s", version, lock)
			}
			plan := h.MustExit(t, 2, "plan", "-input=false", "-detailed-exitcode")
			for _, want := range []string{"agentregistry_agent.echo will be created", "terraform_data.skills will be created", "Plan: 2 to add"} {
				if !strings.Contains(plan, want) {
					t.Errorf("the plan does not say %q:\n%s", want, plan)
				}
			}
		})
	}
}

// installWithMakeInstall runs `make install`'s script with HOME at home. Go's
// caches stay the caller's: under the temporary HOME they would be empty, and
// the build would download and compile every module again.
func installWithMakeInstall(t *testing.T, root, home string) {
	t.Helper()
	set := map[string]string{"HOME": home}
	for _, name := range []string{"GOPATH", "GOMODCACHE", "GOCACHE"} {
		out, err := exec.Command("go", "env", name).Output()
		if err != nil {
			t.Fatal(err)
		}
		set[name] = strings.TrimSpace(string(out))
	}
	cmd := exec.Command(filepath.Join(root, "scripts", "install.sh"))
	cmd.Env = cliEnv(set)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("scripts/install.sh: %v\n%s", err, out)
	}
}

// examplesConstraint is the version constraint on this provider in
// examples/demo/main.tf, which a development build must meet.
func examplesConstraint(t *testing.T, root string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(root, "examples", "demo", "main.tf"))
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`agentregistry = \{ source = "agentregistry/agentregistry", version = "([^"]*)" \}`).FindSubmatch(raw)
	if m == nil {
		t.Fatal("no version constraint for agentregistry in examples/demo/main.tf")
	}
	return string(m[1])
}

// installModule uses the provider (a resource, and a data source, which reads
// the registry during plan) and the built-in terraform_data.
func installModule(constraint, endpoint string) string {
	return fmt.Sprintf(`terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry", version = %q }
  }
}

provider "agentregistry" {
  endpoint = %q
  project  = "install-test"
}

resource "agentregistry_agent" "echo" {
  service_id = "echo-agent"
  agent_card = jsonencode({
    name            = "Echo"
    description     = "Repeats what it is told."
    version         = "1.0.0"
    url             = "https://echo.example.com/a2a"
    protocolVersion = "0.3.0"
    skills          = [{ id = "echo", name = "Echo", description = "Echoes the input.", tags = ["test"] }]
  })
}

data "agentregistry_agents" "all" {
  query = "echo"
}

resource "terraform_data" "skills" {
  input = agentregistry_agent.echo.a2a_version
}

output "agents_found" {
  value = length(data.agentregistry_agents.all.agents)
}
`, constraint, endpoint)
}
