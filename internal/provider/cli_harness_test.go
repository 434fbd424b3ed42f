package provider

// A harness for acceptance tests that start from a state file written
// beforehand (a state upgrade, a `moved` block from another provider's
// resource), which terraform-plugin-testing cannot set up: it runs the same CLI
// binary as the acceptance tests (TF_ACC_TERRAFORM_PATH) in a folder of the
// test's own, against this provider served in process through
// TF_REATTACH_PROVIDERS, as terraform-plugin-testing itself does.

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/hashicorp/go-hclog"
	"github.com/hashicorp/go-plugin"
	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
)

// cliHarness runs the CLI in dir with the provider reattached.
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
	if os.Getenv("TF_ACC") == "" {
		t.Skip("acceptance test: set TF_ACC=1 (make test does)")
	}
	bin := os.Getenv("TF_ACC_TERRAFORM_PATH")
	if bin == "" {
		t.Fatal("TF_ACC_TERRAFORM_PATH must name the OpenTofu or Terraform binary")
	}
	host := envDefault("TF_ACC_PROVIDER_HOST", "registry.terraform.io")
	if os.Getenv("TF_LOG") == "" {
		for _, name := range []string{"TF_LOG_PROVIDER", "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"} {
			t.Setenv(name, "OFF") // the SDK logs every request at TRACE to stderr otherwise
		}
	}
	providers := append([]servedProvider{{
		address: envDefault("TF_ACC_PROVIDER_NAMESPACE", "agentregistry") + "/agentregistry",
		server:  providerserver.NewProtocol6(New("test")()),
	}}, others...)
	attached := map[string]any{}
	for _, p := range providers {
		attached[host+"/"+p.address] = serveForReattach(t, host+"/"+p.address, p.server)
	}
	info, err := json.Marshal(attached)
	if err != nil {
		t.Fatal(err)
	}
	env := append(os.Environ(), "TF_REATTACH_PROVIDERS="+string(info), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	return &cliHarness{bin: bin, dir: t.TempDir(), host: host, env: env}
}

// servedProvider is a provider the harness serves in process.
type servedProvider struct {
	address string
	server  func() tfprotov6.ProviderServer
}

// serveForReattach serves a provider until the test ends and returns its
// entry of TF_REATTACH_PROVIDERS.
func serveForReattach(t *testing.T, address string, server func() tfprotov6.ProviderServer) map[string]any {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	reattach := make(chan *plugin.ReattachConfig)
	closed := make(chan struct{})
	go func() {
		err := tf6server.Serve(address, server,
			tf6server.WithDebug(ctx, reattach, closed),
			tf6server.WithGoPluginLogger(hclog.NewNullLogger()),
			tf6server.WithoutLogStderrOverride())
		if err != nil {
			t.Errorf("serving %s: %v", address, err)
		}
	}()
	cfg := <-reattach
	t.Cleanup(func() { cancel(); <-closed })
	return map[string]any{
		"Protocol": cfg.Protocol, "ProtocolVersion": cfg.ProtocolVersion, "Pid": cfg.Pid, "Test": true,
		"Addr": map[string]string{"Network": cfg.Addr.Network(), "String": cfg.Addr.String()},
	}
}

func envDefault(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// write writes a file into the working folder. In a state file, the provider
// address written by OpenTofu is changed to the host of this run.
func (h *cliHarness) write(t *testing.T, name, content string) {
	t.Helper()
	if strings.HasSuffix(name, ".tfstate") {
		content = strings.ReplaceAll(content, "registry.opentofu.org/agentregistry/agentregistry", h.host+"/agentregistry/agentregistry")
	}
	if err := os.WriteFile(filepath.Join(h.dir, name), []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// run runs the CLI with args and returns its combined output and exit code;
// an error other than a non-zero exit fails the test.
func (h *cliHarness) run(t *testing.T, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(h.bin, append(args, "-no-color")...)
	cmd.Dir, cmd.Env = h.dir, h.env
	out, err := cmd.CombinedOutput()
	if exit, ok := err.(*exec.ExitError); ok {
		return string(out), exit.ExitCode()
	}
	if err != nil {
		t.Fatalf("%s %v: %v", h.bin, args, err)
	}
	return string(out), 0
}

// mustRun runs the CLI and fails the test unless it succeeds (exit code 0).
func (h *cliHarness) mustRun(t *testing.T, args ...string) string {
	t.Helper()
	return h.mustExit(t, 0, args...)
}

// mustExit runs the CLI and fails the test unless it exits with want (1 for
// an error, 2 for a plan with changes under -detailed-exitcode).
func (h *cliHarness) mustExit(t *testing.T, want int, args ...string) string {
	t.Helper()
	out, code := h.run(t, args...)
	if code != want {
		t.Fatalf("%s %s: exit code %d, want %d\n%s", filepath.Base(h.bin), strings.Join(args, " "), code, want, out)
	}
	return out
}

// state reads the working folder's state file.
func (h *cliHarness) state(t *testing.T) cliState {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(h.dir, "terraform.tfstate"))
	if err != nil {
		t.Fatal(err)
	}
	var s cliState
	if err := json.Unmarshal(raw, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// cliState is the part of a state file (format version 4) the tests read.
type cliState struct {
	Resources []struct {
		Type, Name string
		Instances  []struct {
			SchemaVersion int            `json:"schema_version"`
			Attributes    map[string]any `json:"attributes"`
		}
	}
}

// instance returns the attributes and schema version of type.name.
func (s cliState) instance(t *testing.T, typ, name string) (map[string]any, int) {
	t.Helper()
	for _, r := range s.Resources {
		if r.Type == typ && r.Name == name && len(r.Instances) == 1 {
			return r.Instances[0].Attributes, r.Instances[0].SchemaVersion
		}
	}
	t.Fatalf("no %s.%s in the state", typ, name)
	return nil, 0
}

// diagnostics returns the diagnostics of a `-json` run's output whose summary
// contains about, each as "severity: summary: detail".
func diagnostics(out, about string) []string {
	var diags []string
	for _, line := range strings.Split(out, "\n") {
		var msg struct {
			Diagnostic struct{ Severity, Summary, Detail string }
		}
		if json.Unmarshal([]byte(line), &msg) == nil && msg.Diagnostic.Summary != "" && strings.Contains(msg.Diagnostic.Summary, about) {
			diags = append(diags, msg.Diagnostic.Severity+": "+msg.Diagnostic.Summary+": "+msg.Diagnostic.Detail)
		}
	}
	return diags
}

// exampleProviders completes an example applied as it is, as
// validate-examples.sh does: examples have no terraform block, and provider
// functions need the provider among the required_providers.
const exampleProviders = `
terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry" }
  }
}
`

// readFile reads a file of the working folder.
func (h *cliHarness) readFile(t *testing.T, name string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(h.dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}
