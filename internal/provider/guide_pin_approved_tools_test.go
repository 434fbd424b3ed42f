package provider

// Follows the guide "Pin the MCP tools you approved"
// (templates/guides/pin-approved-mcp-tools.md.tmpl) word for word on the CLI
// of TF_ACC_TERRAFORM_PATH: every ```hcl block is written to the file its
// first line names (`# main.tf`), every ```sh line runs in order in one
// folder (`terraform` is that CLI, with this provider reattached), and every
// line of a ```text block must appear in what the ```sh block before it
// printed, spacing aside. A ```sh block followed by a ```text block that
// shows an Error must end in that error (exit code 1); any other must succeed.
// The guide's registry and MCP server are the test's: the bundled server, and
// an MCP server (the official Go SDK) whose tools change where the guide says
// they do (sections 3 and 4).

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// normalizeSpacing collapses runs of spaces and tabs, as the guide's reader
// does not count them.
func normalizeSpacing(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '\t' }), " ")
}

func TestAccGuide_pinApprovedMcpTools(t *testing.T) {
	r := startRegistry(t)
	server, url := weatherServer(t)
	h := newCLIHarness(t)
	local := strings.NewReplacer("http://127.0.0.1:8787", r.URL, "http://127.0.0.1:8931/mcp", url)
	// What happens to the server where the guide says it does.
	happens := map[string]func(){
		"## 3.": func() { server.AddTool(weatherTool("get_forecast", poisonedDescription), nil) },
		"## 4.": func() {
			if spec := registeredSpecOf(t, r, "projects/my-project/locations/global/services/weather-mcp"); strings.Contains(spec, "id_rsa") {
				t.Errorf("the registry took the poisoned tool: %s", spec)
			}
			server.AddTool(&mcp.Tool{Name: "get_forecast", Description: forecastDescription, InputSchema: json.RawMessage(
				`{"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer","maximum":7}},"required":["city"]}`)}, nil)
		},
	}
	blocks := testkit.DocBlocks(readGuide(t, "pin-approved-mcp-tools"), nil, nil)
	var printed string
	seen := map[string]bool{}
	for i, b := range blocks {
		for prefix, change := range happens {
			if strings.HasPrefix(b.Section, prefix) && !seen[prefix] {
				seen[prefix] = true
				change()
			}
		}
		switch b.Lang {
		case "hcl":
			writeGuideFile(t, h, b.Text, local)
		case "sh":
			fails := i+1 < len(blocks) && blocks[i+1].Lang == "text" && strings.Contains(blocks[i+1].Text, "Error:")
			printed = runGuideBlock(t, h, b.Text, fails)
		case "text":
			for _, line := range strings.Split(b.Text, "\n") {
				if want := normalizeSpacing(line); want != "" && !strings.Contains(normalizeSpacing(printed), want) {
					t.Fatalf("the guide says this appears, and it does not:\n  %s\n--- output:\n%s", line, printed)
				}
			}
		default:
			t.Fatalf("a ```%s block: the guide's blocks are hcl, sh and text", b.Lang)
		}
	}
	if len(seen) != len(happens) {
		t.Fatalf("the guide has no sections %v any more: update this test", happens)
	}
}

// writeGuideFile writes an hcl block to the file its first line names.
func writeGuideFile(t *testing.T, h *cliHarness, text string, local *strings.Replacer) {
	t.Helper()
	first, _, _ := strings.Cut(text, "\n")
	name, ok := strings.CutPrefix(first, "# ")
	if !ok || !strings.HasSuffix(name, ".tf") {
		t.Fatalf("an hcl block must start with the file it is (# main.tf), found %q", first)
	}
	if err := os.MkdirAll(filepath.Join(h.dir, filepath.Dir(name)), 0o700); err != nil {
		t.Fatal(err)
	}
	h.write(t, name, local.Replace(text))
}

// runGuideBlock runs the lines of a sh block and returns what they printed;
// each must succeed, except the last when fails, which must exit 1.
func runGuideBlock(t *testing.T, h *cliHarness, text string, fails bool) string {
	t.Helper()
	lines := strings.Split(strings.TrimSpace(text), "\n")
	var all strings.Builder
	for i, line := range lines {
		out, code := runGuideLine(t, h, line)
		all.WriteString(out)
		want := 0
		if fails && i == len(lines)-1 {
			want = 1
		}
		if code != want {
			t.Fatalf("%s: exit code %d, want %d\n%s", line, code, want, out)
		}
	}
	return all.String()
}

// runGuideLine runs one command of the guide: `terraform ...` with the CLI
// under test (a `> file` at the end takes its standard output), anything else
// with sh, in the harness's folder.
func runGuideLine(t *testing.T, h *cliHarness, line string) (string, int) {
	t.Helper()
	command, target, redirected := strings.Cut(line, " > ")
	var cmd *exec.Cmd
	if args, ok := strings.CutPrefix(command, "terraform "); ok {
		if strings.ContainsAny(args, `"'$`) {
			t.Fatalf("%q: the test splits a terraform command on spaces; quote nothing", line)
		}
		cmd = exec.Command(h.bin, append(strings.Fields(args), "-no-color")...)
	} else {
		cmd = exec.Command("sh", "-c", line)
		redirected = false
	}
	cmd.Dir, cmd.Env = h.dir, h.env
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if !redirected {
		cmd.Stderr = &stdout
	}
	err := cmd.Run()
	code := 0
	if exit, ok := err.(*exec.ExitError); ok {
		code = exit.ExitCode()
	} else if err != nil {
		t.Fatalf("%s: %v", line, err)
	}
	if redirected {
		h.write(t, strings.TrimSpace(target), stdout.String())
		return stderr.String(), code
	}
	return stdout.String(), code
}
