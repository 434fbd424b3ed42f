package testkit

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit/modroot"
)

// Root is the repository's root: the folder of go.mod above the working
// folder (a test runs in its package's folder).
func Root(t testing.TB) string {
	t.Helper()
	dir, err := root()
	if err != nil {
		t.Fatal(err)
	}
	return dir
}

func root() (string, error) { return modroot.Find() }

// once is what a test process makes once and every test shares: each test
// that asks for it gets it, or fails with the error of making it.
type once[T any] func() (T, error)

func onceFor[T any](build func() (T, error)) once[T] { return sync.OnceValues(build) }

func (o once[T]) value(t testing.TB) T {
	t.Helper()
	v, err := o()
	if err != nil {
		t.Fatal(err)
	}
	return v
}

var semver = regexp.MustCompile(`^(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)\.(0|[1-9][0-9]*)(-[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?(\+[0-9A-Za-z-]+(\.[0-9A-Za-z-]+)*)?$`)

// Version is the version `make build` stamps into main.version, by the rule
// scripts/version.sh states (and TestVersionAsTheScript holds them to): VERSION
// when set; X.Y.Z at a clean tag vX.Y.Z; else the CHANGELOG's first release
// heading with build metadata +dev.<git describe>.
func Version(root string) (string, error) {
	v := strings.TrimPrefix(os.Getenv("VERSION"), "v")
	if v == "" {
		v = versionFromGit(root)
	}
	if !semver.MatchString(v) {
		return "", fmt.Errorf("%q is not a semantic version (X.Y.Z[-pre][+build]) that Terraform and OpenTofu accept", v)
	}
	return v, nil
}

func versionFromGit(root string) string {
	git := func(args ...string) string {
		out, err := exec.Command("git", append([]string{"-C", root}, args...)...).Output()
		if err != nil {
			return ""
		}
		return strings.TrimSpace(string(out))
	}
	tag := git("describe", "--tags", "--exact-match", "--match", "v[0-9]*")
	if tag != "" && semver.MatchString(strings.TrimPrefix(tag, "v")) && git("status", "--porcelain", "--untracked-files=no") == "" {
		return strings.TrimPrefix(tag, "v")
	}
	changelog, _ := os.ReadFile(filepath.Join(root, "CHANGELOG.md"))
	m := regexp.MustCompile(`(?m)^## ([0-9]+\.[0-9]+\.[0-9]+)( .*)?$`).FindSubmatch(changelog)
	if m == nil {
		return "0.0.0-dev"
	}
	// Build metadata allows [0-9A-Za-z-] in dot-separated identifiers.
	described := regexp.MustCompile(`[^0-9A-Za-z.-]`).ReplaceAllString(git("describe", "--tags", "--always", "--dirty"), "-")
	described = strings.Trim(regexp.MustCompile(`\.+`).ReplaceAllString(described, "."), ".")
	if described == "" {
		return string(m[1]) + "+dev"
	}
	return string(m[1]) + "+dev." + described
}

// Provider is the provider binary built from the repository with its version
// stamped, once per test process.
type Provider struct {
	Dir, Path, Version string
}

// buildDir is the folder of what the test process built (the provider, the
// bundled server, the mirror), removed by Main.
var buildDir string

// scratch makes buildDir, once.
var scratch = onceFor(func() (string, error) {
	dir, err := os.MkdirTemp("", "testkit-build-")
	buildDir = dir
	return dir, err
})

// BuildProvider builds the provider once per test process, into a folder
// that Main removes, and returns it; the build's failure fails every test
// that asks for it.
func BuildProvider(t testing.TB) Provider {
	t.Helper()
	return providerBuild.value(t)
}

var providerBuild = onceFor(func() (Provider, error) {
	dir, err := root()
	if err != nil {
		return Provider{}, err
	}
	return buildProvider(dir)
})

func buildProvider(root string) (Provider, error) {
	v, err := Version(root)
	if err != nil {
		return Provider{}, err
	}
	dir, err := scratch()
	if err != nil {
		return Provider{}, err
	}
	dir = filepath.Join(dir, "provider")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return Provider{}, err
	}
	p := Provider{Dir: dir, Path: filepath.Join(dir, "terraform-provider-agentregistry"), Version: v}
	cmd := exec.Command("go", "build", "-trimpath", "-ldflags", "-X main.version="+v, "-o", p.Path, ".")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return Provider{}, fmt.Errorf("building the provider: %w\n%s", err, out)
	}
	return p, nil
}

// Main runs the tests and removes what they built; a package whose tests
// call BuildProvider calls it from TestMain.
func Main(m interface{ Run() int }) int {
	dropMissingCLIConfig()
	code := m.Run()
	if buildDir != "" {
		if err := os.RemoveAll(buildDir); err != nil && !errors.Is(err, os.ErrNotExist) {
			fmt.Fprintln(os.Stderr, err)
		}
	}
	return code
}

// dropMissingCLIConfig drops a TF_CLI_CONFIG_FILE that names no file: OpenTofu
// 1.12 then prints a warning before its version on stdout, where
// terraform-plugin-testing reads the version, and every acceptance test
// fails. (Some machines set it to a ~/.terraformrc that does not exist.)
func dropMissingCLIConfig() {
	if f := os.Getenv("TF_CLI_CONFIG_FILE"); f != "" {
		if _, err := os.Stat(f); err != nil {
			_ = os.Unsetenv("TF_CLI_CONFIG_FILE") // fails only for an invalid name
		}
	}
}
