package testkit

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// Hosts are the registry hosts under which Terraform (registry.terraform.io)
// and OpenTofu (registry.opentofu.org) look this provider up.
var Hosts = []string{"registry.terraform.io", "registry.opentofu.org"}

// ProviderType is this provider's address without the host.
const ProviderType = "agentregistry/agentregistry"

// DevOverrides writes a CLI configuration into dir that runs the provider in
// pluginDir for both hosts, with no init and no version check
// (DevOverridesConfig), and returns its path: use it as TF_CLI_CONFIG_FILE.
func DevOverrides(t testing.TB, dir, pluginDir string) string {
	t.Helper()
	return writeConfig(t, filepath.Join(dir, "dev-overrides.tfrc"), DevOverridesConfig(pluginDir))
}

// DevOverridesConfig is the CLI configuration of DevOverrides, the one
// `make dev-override` writes.
func DevOverridesConfig(pluginDir string) string {
	return fmt.Sprintf(`provider_installation {
  dev_overrides {
    "%[2]s/%[1]s" = %[4]q
    "%[3]s/%[1]s" = %[4]q
  }
  direct {}
}
`, ProviderType, Hosts[0], Hosts[1], pluginDir)
}

// FilesystemMirror writes a CLI configuration into dir that installs this
// provider from the mirror (and every other provider as usual), and returns
// its path.
func FilesystemMirror(t testing.TB, dir, mirror string) string {
	t.Helper()
	return writeConfig(t, filepath.Join(dir, "mirror.tfrc"), fmt.Sprintf(`provider_installation {
  filesystem_mirror {
    path    = %[4]q
    include = ["%[2]s/%[1]s", "%[3]s/%[1]s"]
  }
  direct {
    exclude = ["%[2]s/%[1]s", "%[3]s/%[1]s"]
  }
}
`, ProviderType, Hosts[0], Hosts[1], mirror))
}

func writeConfig(t testing.TB, path, content string) string {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

// installMirror copies the provider into mirror in the "unpacked" layout both
// CLIs read, for both hosts, as `make install` lays out ~/.terraform.d/plugins:
// HOST/agentregistry/agentregistry/VERSION/OS_ARCH/terraform-provider-agentregistry_vVERSION.
func installMirror(mirror string, p Provider) error {
	raw, err := os.ReadFile(p.Path)
	if err != nil {
		return err
	}
	for _, host := range Hosts {
		dir := filepath.Join(mirror, host, ProviderType, p.Version, runtime.GOOS+"_"+runtime.GOARCH)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(dir, "terraform-provider-agentregistry_v"+p.Version), raw, 0o755); err != nil { //nolint:gosec // a provider binary is executable
			return err
		}
	}
	return nil
}

// ProviderMirror is a filesystem mirror of the provider (BuildProvider), made
// once per test process in the folder Main removes; the CLIs only read it.
func ProviderMirror(t testing.TB) string {
	t.Helper()
	return providerMirror.value(t)
}

var providerMirror = onceFor(func() (string, error) {
	p, err := providerBuild()
	if err != nil {
		return "", err
	}
	dir, err := scratch()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "mirror"), installMirror(filepath.Join(dir, "mirror"), p)
})
