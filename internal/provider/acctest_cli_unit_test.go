package provider

import (
	"testing"

	"github.com/hashicorp/go-version"
)

// Capabilities are decided by flavour and version together.
func TestCLICapability_supportedBy(t *testing.T) {
	v := func(s string) *version.Version { return version.Must(version.NewVersion(s)) }
	for _, c := range []struct {
		capability cliCapability
		flavour    string
		version    string
		want       bool
	}{
		{capQuery, "Terraform", "1.15.0", true},
		{capQuery, "Terraform", "1.14.0", true},
		{capQuery, "Terraform", "1.13.9", false},
		{capQuery, "OpenTofu", "1.14.0", false}, // a version number alone would say yes
		{capQuery, "OpenTofu", "1.12.9", false},
		{capIdentity, "Terraform", "1.11.9", false},
		{capIdentity, "Terraform", "1.12.0", true},
		{capIdentity, "OpenTofu", "1.10.9", false},
		{capIdentity, "OpenTofu", "1.12.1", true},
		{capIdentity, "OpenTofu", "1.12.0-beta1", true}, // a pre-release of the version counts as it
		{capWriteOnly, "OpenTofu", "1.10.9", false},
		{capWriteOnly, "OpenTofu", "1.11.0", true},
		{capFunctions, "OpenTofu", "1.7.0", true},
		{capFunctions, "Terraform", "1.7.5", false},
	} {
		got, why := c.capability.supportedBy(c.flavour, v(c.version))
		if got != c.want {
			t.Errorf("%s on %s %s: supported %v, want %v (%s)", c.capability.feature, c.flavour, c.version, got, c.want, why)
		}
		if !got && why == "" {
			t.Errorf("%s on %s %s: a skip must say why", c.capability.feature, c.flavour, c.version)
		}
	}
}
