package provider

// What the CLI under test (TF_ACC_TERRAFORM_PATH) supports. Terraform and
// OpenTofu add protocol features in different versions, and some only in one
// of them (OpenTofu has no `terraform query`, opentofu/opentofu#3787), so a
// test that needs a feature is skipped by capability: the CLI's flavour and
// version together, never a version number alone (OpenTofu 1.14 is not
// Terraform 1.14).

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"sync"
	"testing"

	"github.com/hashicorp/go-version"
	"github.com/hashicorp/terraform-plugin-testing/tfversion"
)

// cliCapability is a feature and the first version of each CLI that has it;
// nil for a CLI that does not have it at all.
type cliCapability struct {
	feature             string
	terraform, opentofu *version.Version
}

var (
	capFunctions = cliCapability{"provider-defined functions",
		version.Must(version.NewVersion("1.8.0")), version.Must(version.NewVersion("1.7.0"))}
	capIdentity = cliCapability{"resource identity",
		version.Must(version.NewVersion("1.12.0")), version.Must(version.NewVersion("1.12.0"))}
	capWriteOnly = cliCapability{"write-only attributes",
		version.Must(version.NewVersion("1.11.0")), version.Must(version.NewVersion("1.11.0"))}
	capMoveAcrossProviders = cliCapability{"`moved` blocks across providers",
		version.Must(version.NewVersion("1.8.0")), version.Must(version.NewVersion("1.8.0"))}
	capQuery = cliCapability{"list resources (`terraform query`)",
		version.Must(version.NewVersion("1.14.0")), nil}
)

// requires is the TerraformVersionChecks of a test that needs the capability.
func requires(c cliCapability) []tfversion.TerraformVersionCheck {
	return []tfversion.TerraformVersionCheck{c}
}

// CheckTerraformVersion skips the test, in one line that says why, when the
// CLI under test lacks the capability.
func (c cliCapability) CheckTerraformVersion(_ context.Context, req tfversion.CheckTerraformVersionRequest,
	resp *tfversion.CheckTerraformVersionResponse) {
	if ok, why := c.supportedBy(cliFlavour(), req.TerraformVersion); !ok {
		resp.Skip = why
	}
}

// supportedBy tells whether that CLI has the capability, and when not, why.
func (c cliCapability) supportedBy(flavour string, v *version.Version) (bool, string) {
	first := c.terraform
	if flavour == "OpenTofu" {
		first = c.opentofu
	}
	if first != nil && v != nil && !v.Core().LessThan(first) {
		return true, ""
	}
	return false, fmt.Sprintf("%s need %s; the CLI under test is %s %s", c.feature, c.minimums(), flavour, v)
}

// minimums says which versions have the capability.
func (c cliCapability) minimums() string {
	var parts []string
	if c.terraform != nil {
		parts = append(parts, "Terraform "+c.terraform.String()+"+")
	}
	if c.opentofu != nil {
		parts = append(parts, "OpenTofu "+c.opentofu.String()+"+")
	} else {
		parts = append(parts, "(not in OpenTofu)")
	}
	return strings.Join(parts, " or ")
}

// skipUnless skips a test that drives the CLI itself (cliHarness) when the
// CLI lacks the capability, as TerraformVersionChecks does for resource.Test.
func skipUnless(t *testing.T, c cliCapability) {
	t.Helper()
	out, err := exec.Command(os.Getenv("TF_ACC_TERRAFORM_PATH"), "version", "-json").Output()
	if err != nil {
		t.Fatalf("%s version -json: %v", os.Getenv("TF_ACC_TERRAFORM_PATH"), err)
	}
	var v struct {
		Version string `json:"terraform_version"`
	}
	// OpenTofu may print a warning about its CLI configuration before the JSON.
	if i := bytes.IndexByte(out, '{'); i > 0 {
		out = out[i:]
	}
	if err := json.Unmarshal(out, &v); err != nil {
		t.Fatalf("%s version -json: %v", os.Getenv("TF_ACC_TERRAFORM_PATH"), err)
	}
	cli, err := version.NewVersion(v.Version)
	if err != nil {
		t.Fatal(err)
	}
	if ok, why := c.supportedBy(cliFlavour(), cli); !ok {
		t.Skip(why)
	}
}

var (
	flavourOnce sync.Once
	flavour     string
)

// cliFlavour is "OpenTofu" or "Terraform", from the first line of the CLI's
// `version` (OpenTofu's `version -json` says "terraform_version" too).
func cliFlavour() string {
	flavourOnce.Do(func() {
		flavour = "Terraform"
		bin := os.Getenv("TF_ACC_TERRAFORM_PATH")
		if bin == "" {
			return
		}
		out, err := exec.Command(bin, "version").Output()
		if err == nil && strings.HasPrefix(string(out), "OpenTofu") {
			flavour = "OpenTofu"
		}
	})
	return flavour
}
