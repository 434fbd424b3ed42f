package testkit

import (
	"fmt"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/go-version"
)

// CLI is an OpenTofu or Terraform binary and what it says it is.
type CLI struct {
	Path    string
	Flavour string // "OpenTofu" or "Terraform"
	Version *version.Version
}

// OpenTofu and Terraform are the flavours a CLI reports.
const (
	OpenTofu  = "OpenTofu"
	Terraform = "Terraform"
)

// versionLine is the first line of `version` that names the CLI: OpenTofu 1.12
// may print warnings about its CLI configuration before it.
var versionLine = regexp.MustCompile(`(?m)^(OpenTofu|Terraform) v(\S+)$`)

var clis sync.Map // path -> CLI: each binary is asked once per process

// DetectCLI runs `path version` and reads its flavour and version.
func DetectCLI(path string) (CLI, error) {
	if c, ok := clis.Load(path); ok {
		if cli, ok := c.(CLI); ok {
			return cli, nil
		}
	}
	out, err := exec.Command(path, "version").Output()
	if err != nil {
		return CLI{}, fmt.Errorf("%s version: %w", path, err)
	}
	m := versionLine.FindStringSubmatch(string(out))
	if m == nil {
		return CLI{}, fmt.Errorf("%s is neither OpenTofu nor Terraform: its version says %q", path, out)
	}
	v, err := version.NewVersion(m[2])
	if err != nil {
		return CLI{}, fmt.Errorf("%s version: %w", path, err)
	}
	c := CLI{Path: path, Flavour: m[1], Version: v}
	clis.Store(path, c)
	return c, nil
}

// CLIFromEnv is the CLI of this run, the one the acceptance tests run:
// TF_ACC_TERRAFORM_PATH. Without TF_ACC the test is skipped, as every
// acceptance test is; with TF_ACC and no CLI it fails.
func CLIFromEnv(t testing.TB) CLI {
	t.Helper()
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 and TF_ACC_TERRAFORM_PATH to a CLI (make test does)")
	}
	path := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if path == "" {
		t.Fatal("TF_ACC_TERRAFORM_PATH must name the OpenTofu or Terraform binary")
	}
	c, err := DetectCLI(path)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// String is the CLI's short name: tofu-X.Y.Z, terraform-X.Y.Z.
func (c CLI) String() string {
	if c.Flavour == OpenTofu {
		return "tofu-" + c.Version.String()
	}
	return "terraform-" + c.Version.String()
}

// Host is the registry host under which the CLI looks providers up.
func (c CLI) Host() string {
	if c.Flavour == OpenTofu {
		return "registry.opentofu.org"
	}
	return "registry.terraform.io"
}

// AtLeast tells whether the CLI is at least the release given for its flavour
// ("1.12.0"); "" means no release of that flavour qualifies.
func (c CLI) AtLeast(terraform, opentofu string) bool {
	first := terraform
	if c.Flavour == OpenTofu {
		first = opentofu
	}
	return first != "" && !c.Version.Core().LessThan(version.Must(version.NewVersion(first)))
}

// SkipUnless skips the test, saying why in one line, unless the CLI is at
// least the release of its flavour given for what.
func (c CLI) SkipUnless(t testing.TB, what, terraform, opentofu string) {
	t.Helper()
	if !c.AtLeast(terraform, opentofu) {
		t.Skipf("%s needs %s; this run's CLI is %s %s", what, needs(terraform, opentofu), c.Flavour, c.Version)
	}
}

// needs names the releases given: "Terraform 1.14.0+ (only)".
func needs(terraform, opentofu string) string {
	var need []string
	if terraform != "" {
		need = append(need, "Terraform "+terraform+"+")
	}
	if opentofu != "" {
		need = append(need, "OpenTofu "+opentofu+"+")
	}
	if terraform == "" || opentofu == "" {
		need[0] += " (only)"
	}
	return strings.Join(need, " or ")
}
