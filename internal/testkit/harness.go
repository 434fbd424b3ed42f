// Package testkit is what the CLI tests share: a harness that runs OpenTofu or
// Terraform in a folder of the test's own against providers served in process
// (TF_REATTACH_PROVIDERS, as terraform-plugin-testing does), the provider built
// once per test process with its version stamped, the CLI configurations that
// install it (dev_overrides, filesystem_mirror, the implied local mirror), the
// bundled registry server started in process or as its binary, and the one
// docs-as-tests runner (Page, Reader), which follows a guide or a section of
// the README word for word. It imports no package of the provider, so the
// provider's own tests can use it.
package testkit

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
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6/tf6server"
)

// Harness runs the CLI Bin in Dir with the environment Env.
type Harness struct {
	Bin, Dir, Host string
	Env            []string
}

// ServedProvider is a provider served in process, by address without the
// host ("agentregistry/agentregistry", "hashicorp/google").
type ServedProvider struct {
	Address string
	Server  func() tfprotov6.ProviderServer
}

// NewHarness serves the providers for the test's duration and returns a
// harness working in a new temporary folder with the CLI of the run (CLIFromEnv:
// skipped without TF_ACC).
func NewHarness(t *testing.T, providers ...ServedProvider) *Harness {
	t.Helper()
	cli := CLIFromEnv(t)
	host := EnvDefault("TF_ACC_PROVIDER_HOST", "registry.terraform.io")
	env := append(os.Environ(), "TF_REATTACH_PROVIDERS="+Reattach(t, host, providers...), "CHECKPOINT_DISABLE=1", "TF_IN_AUTOMATION=1")
	return &Harness{Bin: cli.Path, Dir: t.TempDir(), Host: host, Env: env}
}

// Reattach serves the providers, under the registry host given, for the
// test's duration and returns the TF_REATTACH_PROVIDERS value that has a CLI
// use them: no provider process per command, no installation by `init`.
func Reattach(t *testing.T, host string, providers ...ServedProvider) string {
	t.Helper()
	QuietProviderLogs(t)
	attached := map[string]any{}
	for _, p := range providers {
		attached[host+"/"+p.Address] = serveForReattach(t, host+"/"+p.Address, p.Server)
	}
	info, err := json.Marshal(attached)
	if err != nil {
		t.Fatal(err)
	}
	return string(info)
}

// QuietProviderLogs turns the plugin SDK's logs off unless TF_LOG asks for
// logs: it logs every request at TRACE to stderr otherwise.
func QuietProviderLogs(t *testing.T) {
	if os.Getenv("TF_LOG") != "" {
		return
	}
	for _, name := range []string{"TF_LOG_PROVIDER", "TF_LOG_SDK", "TF_LOG_SDK_PROTO", "TF_LOG_SDK_FRAMEWORK"} {
		t.Setenv(name, "OFF")
	}
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

// EnvDefault is the environment variable name, or def when it is empty.
func EnvDefault(name, def string) string {
	if v := os.Getenv(name); v != "" {
		return v
	}
	return def
}

// Write writes a file into the working folder (and the folders it names). In
// a state file, the provider address written by OpenTofu is changed to the
// host of this run.
func (h *Harness) Write(t *testing.T, name, content string) {
	t.Helper()
	if strings.HasSuffix(name, ".tfstate") {
		content = strings.ReplaceAll(content, "registry.opentofu.org/agentregistry/agentregistry", h.Host+"/agentregistry/agentregistry")
	}
	path := filepath.Join(h.Dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

// Run runs the CLI with args (and -no-color) and returns its combined output
// and exit code; an error other than a non-zero exit fails the test.
func (h *Harness) Run(t *testing.T, args ...string) (string, int) {
	t.Helper()
	cmd := exec.Command(h.Bin, append(args, "-no-color")...)
	cmd.Dir, cmd.Env = h.Dir, h.Env
	out, err := cmd.CombinedOutput()
	if exit, ok := err.(*exec.ExitError); ok {
		return string(out), exit.ExitCode()
	}
	if err != nil {
		t.Fatalf("%s %v: %v", h.Bin, args, err)
	}
	return string(out), 0
}

// MustRun runs the CLI and fails the test unless it succeeds (exit code 0).
func (h *Harness) MustRun(t *testing.T, args ...string) string {
	t.Helper()
	return h.MustExit(t, 0, args...)
}

// MustExit runs the CLI and fails the test unless it exits with want (1 for
// an error, 2 for a plan with changes under -detailed-exitcode).
func (h *Harness) MustExit(t *testing.T, want int, args ...string) string {
	t.Helper()
	out, code := h.Run(t, args...)
	if code != want {
		t.Fatalf("%s %s: exit code %d, want %d\n%s", filepath.Base(h.Bin), strings.Join(args, " "), code, want, out)
	}
	return out
}

// ReadFile reads a file of the working folder.
func (h *Harness) ReadFile(t *testing.T, name string) string {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(h.Dir, name))
	if err != nil {
		t.Fatal(err)
	}
	return string(raw)
}

// State reads the working folder's state file.
func (h *Harness) State(t *testing.T) State {
	t.Helper()
	var s State
	if err := json.Unmarshal([]byte(h.ReadFile(t, "terraform.tfstate")), &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// State is the part of a state file (format version 4) the tests read.
type State struct {
	Resources []struct {
		Type, Name string
		Instances  []struct {
			SchemaVersion int            `json:"schema_version"`
			Attributes    map[string]any `json:"attributes"`
		}
	}
}

// Instance returns the attributes and schema version of type.name.
func (s State) Instance(t *testing.T, typ, name string) (map[string]any, int) {
	t.Helper()
	for _, r := range s.Resources {
		if r.Type == typ && r.Name == name && len(r.Instances) == 1 {
			return r.Instances[0].Attributes, r.Instances[0].SchemaVersion
		}
	}
	t.Fatalf("no %s.%s in the state", typ, name)
	return nil, 0
}

// Diagnostics returns the diagnostics of a `-json` run's output whose summary
// contains about, each as "severity: summary: detail".
func Diagnostics(out, about string) []string {
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
