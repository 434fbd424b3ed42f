package provider

// A harness for acceptance tests that start from a state file written
// beforehand (a state upgrade, a `moved` block from another provider's
// resource), which terraform-plugin-testing cannot set up: it runs the same CLI
// binary as the acceptance tests (TF_ACC_TERRAFORM_PATH) in a folder of the
// test's own, against this provider served in process through
// TF_REATTACH_PROVIDERS. The harness itself is testkit's; these are the names
// the provider's tests use.

import (
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// cliHarness runs the CLI in dir with the provider reattached. Its fields
// can be changed (a second harness working in the first one's folder).
type cliHarness struct {
	bin, dir, host string
	env            []string
}

// newCLIHarness serves the provider, and any other providers given (by
// address without the host: "hashicorp/google"), for the test's duration and
// returns a harness working in a new temporary folder. Like every acceptance
// test, it runs only with TF_ACC set, and then needs TF_ACC_TERRAFORM_PATH.
func newCLIHarness(t *testing.T, others ...servedProvider) *cliHarness {
	t.Helper()
	providers := []testkit.ServedProvider{{
		Address: envDefault("TF_ACC_PROVIDER_NAMESPACE", "agentregistry") + "/agentregistry",
		Server:  providerserver.NewProtocol6(New("test")()),
	}}
	for _, p := range others {
		providers = append(providers, testkit.ServedProvider{Address: p.address, Server: p.server})
	}
	h := testkit.NewHarness(t, providers...)
	return &cliHarness{bin: h.Bin, dir: h.Dir, host: h.Host, env: h.Env}
}

// servedProvider is a provider the harness serves in process.
type servedProvider struct {
	address string
	server  func() tfprotov6.ProviderServer
}

func envDefault(name, def string) string { return testkit.EnvDefault(name, def) }

func (h *cliHarness) kit() *testkit.Harness {
	return &testkit.Harness{Bin: h.bin, Dir: h.dir, Host: h.host, Env: h.env}
}

// write writes a file into the working folder. In a state file, the provider
// address written by OpenTofu is changed to the host of this run.
func (h *cliHarness) write(t *testing.T, name, content string) {
	t.Helper()
	h.kit().Write(t, name, content)
}

// run runs the CLI with args and returns its combined output and exit code;
// an error other than a non-zero exit fails the test.
//
//nolint:unused // kept for the tests of other branches that read an exit code themselves
func (h *cliHarness) run(t *testing.T, args ...string) (string, int) {
	t.Helper()
	return h.kit().Run(t, args...)
}

// mustRun runs the CLI and fails the test unless it succeeds (exit code 0).
func (h *cliHarness) mustRun(t *testing.T, args ...string) string {
	t.Helper()
	return h.kit().MustRun(t, args...)
}

// mustExit runs the CLI and fails the test unless it exits with want (1 for
// an error, 2 for a plan with changes under -detailed-exitcode).
func (h *cliHarness) mustExit(t *testing.T, want int, args ...string) string {
	t.Helper()
	return h.kit().MustExit(t, want, args...)
}

// state reads the working folder's state file.
func (h *cliHarness) state(t *testing.T) cliState { t.Helper(); return cliState{h.kit().State(t)} }

// readFile reads a file of the working folder.
func (h *cliHarness) readFile(t *testing.T, name string) string {
	t.Helper()
	return h.kit().ReadFile(t, name)
}

// cliState is the part of a state file (format version 4) the tests read.
type cliState struct{ testkit.State }

// instance returns the attributes and schema version of type.name.
func (s cliState) instance(t *testing.T, typ, name string) (map[string]any, int) {
	t.Helper()
	return s.Instance(t, typ, name)
}

// diagnostics returns the diagnostics of a `-json` run's output whose summary
// contains about, each as "severity: summary: detail".
func diagnostics(out, about string) []string { return testkit.Diagnostics(out, about) }

// exampleProviders completes an example applied as it is, as the examples
// check (internal/e2e) does: examples have no terraform block, and provider
// functions need the provider among the required_providers.
const exampleProviders = `
terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry" }
  }
}
`
