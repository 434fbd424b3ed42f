package e2e

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// The native tests of every module under modules/ (`tofu test`, `terraform
// test`) pass with the CLI of the run, against the bundled server started in
// process on loopback and the provider built from the repository
// (dev_overrides). Each module is tested from a scratch copy, so no .terraform
// or state lands in the repository; modules/ is formatted.
func TestAccModules_nativeTests(t *testing.T) {
	cli := testkit.CLIFromEnv(t)
	root := testkit.Root(t)
	h := devOverridesRun(t, cli)
	h.Dir = filepath.Join(root, "modules")
	h.MustRun(t, "fmt", "-check", "-diff", "-recursive")
	tests, _ := filepath.Glob(filepath.Join(root, "modules", "*", "tests"))
	if len(tests) == 0 {
		t.Fatal("no module under modules/ has tests")
	}
	for _, dir := range tests {
		module := filepath.Base(filepath.Dir(dir))
		t.Run(module, func(t *testing.T) {
			// The fleet tests seed what App Hub derives (tests/seed), as -apphub-writable lets them.
			registry := testkit.StartRegistry(t, registryserver.Options{AppHubWritable: true})
			h := *h
			h.Dir = t.TempDir()
			copyTree(t, root, h.Dir, filepath.Join("modules", module))
			h.Dir = filepath.Join(h.Dir, "modules", module)
			// `get` installs the test files' helper modules (tests/setup); the
			// provider comes from dev_overrides, so `init` is not needed.
			h.MustRun(t, "get")
			out := h.MustRun(t, "test", "-var", "endpoint="+registry.URL)
			t.Logf("%s test: %s", cli, lastLine(out))
			if module == "registry-fleet" {
				badCardMessage(t, &h, registry.URL)
				poisonedToolMessage(t, &h, registry.URL)
			}
		})
	}
}

// badCardMessage: a plain plan of a folder with one bad card fails, names the
// bad file with its problem, and says nothing against the good card beside it.
func badCardMessage(t *testing.T, h *testkit.Harness, endpoint string) {
	t.Helper()
	h.Env = append(h.Env, "AGENTREGISTRY_ENDPOINT="+endpoint, "AGENTREGISTRY_PROJECT=message-check")
	out := h.MustExit(t, 1, "plan", "-input=false", "-var", "cards_dir=tests/fixtures/bad-card/cards")
	if !strings.Contains(out, `broken-agent.json: line 1, column 1: (root): missing required property "url"`) ||
		strings.Contains(out, "currency-agent.json:") {
		t.Errorf("the plan error should name broken-agent.json and its problem, and only it:\n%s", out)
	}
}

// poisonedToolMessage: under tool_text_policy = "enforce", a poisoned tool
// list fails a plain plan with the provider's text gate naming the tool, the
// pointer and the rules (the test files cannot expect a provider's error).
func poisonedToolMessage(t *testing.T, h *testkit.Harness, endpoint string) {
	t.Helper()
	h.Env = append(h.Env, "AGENTREGISTRY_ENDPOINT="+endpoint, "AGENTREGISTRY_PROJECT=message-check")
	out := h.MustExit(t, 1, "plan", "-input=false", "-var", "tool_specs_dir=tests/fixtures/poisoned-tool/tools",
		"-var", "tool_text_policy=enforce")
	for _, want := range []string{"MCP Tool Text Asks Too Much of the Model", `tool "add", description`,
		"rule instruction-tag (high)", "rule secret-file-instruction (high)", "nothing was sent to the registry"} {
		if !strings.Contains(strings.Join(strings.Fields(out), " "), want) {
			t.Errorf("the plan error should say %q:\n%s", want, out)
		}
	}
}

func lastLine(out string) string {
	lines := strings.Split(strings.TrimSpace(out), "\n")
	return lines[len(lines)-1]
}
