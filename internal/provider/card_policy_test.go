package provider

// What a user sees of the card validation policy through the CLI, with the
// card kept in a file and registered in the form the docs recommend,
// jsonencode(jsondecode(file(...))): the warnings where the registry's rules
// are laxer than the official A2A schemas, and, for an error, where it is in
// the file.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
)

// cardFileConfig registers the card of card.json in the recommended form.
const cardFileConfig = `
resource "agentregistry_agent" "test" {
  service_id = "invoice-helper"
  agent_card = %s
}
`

const (
	recommendedForm = `jsonencode(jsondecode(file("${path.module}/card.json")))`
	rawForm         = `file("${path.module}/card.json")`
)

// A valid card that lacks a member the official schema requires and names
// its binding "JSON-RPC": the plan succeeds with one warning that lists both,
// the binding's with the expected names and an excerpt to find it by.
func TestAccAgentResource_cardPolicyWarnings(t *testing.T) {
	r := startRegistry(t)
	h := newCLIHarness(t)
	h.write(t, "card.json", `{
  "name": "Invoice Helper",
  "description": "Answers questions about invoices.",
  "version": "2.1.0",
  "supportedInterfaces": [
    {"url": "https://agents.example.com/invoices/a2a", "protocolBinding": "JSON-RPC", "protocolVersion": "1.0"}
  ],
  "capabilities": {"streaming": true},
  "defaultInputModes": ["text/plain"],
  "skills": [{"id": "lookup-invoice", "name": "Look up an invoice", "description": "Finds an invoice.", "tags": ["billing"]}]
}
`)
	h.write(t, "main.tf", exampleProviders+r.config(strings.Replace(cardFileConfig, "%s", recommendedForm, 1)))
	h.mustRun(t, "init", "-input=false")
	warnings := diagnostics(h.mustRun(t, "plan", "-json", "-input=false"), "Agent Card")
	want := []string{
		"warning: A2A Agent Card Has Warnings: The A2A Agent Card has 2 warnings:",
		`(root): the card has no defaultOutputModes, which A2A 1.0 requires (REQUIRED in its a2a.proto): the registry's documented rules leave it optional, so the card is accepted`,
		`add "defaultOutputModes": ["text/plain"]`,
		`/supportedInterfaces/0/protocolBinding: "JSON-RPC" is not a protocol binding that A2A defines: expected one of "JSONRPC", "GRPC", "HTTP+JSON"`,
		`did you mean "JSONRPC"?`,
		`; look for {"protocolBinding": "JSON-RPC", "protocolVersion": "1.0", "url": "https://agents.example.com/invoices/a2a"}`,
	}
	if len(warnings) != 1 || !containsInOrder(warnings[0], want) {
		t.Errorf("want one warning diagnostic with, in order:\n%s\ngot %d:\n%s", strings.Join(want, "\n"), len(warnings), strings.Join(warnings, "\n"))
	}
	r.expectNoWrites(t)
}

// An error in a card kept in a file: in the recommended form, which leaves
// the card on one line, the error quotes the value and the skill it belongs
// to; read as written, the card keeps its lines and the error its line and
// column. Both fail the plan before anything is sent.
func TestAccAgentResource_cardErrorsFoundInTheFile(t *testing.T) {
	r := startRegistry(t)
	h := newCLIHarness(t)
	h.write(t, "card.json", `{
  "protocolVersion": "0.3.0",
  "name": "Invoice Helper",
  "description": "Answers questions about invoices.",
  "url": "https://agents.example.com/invoices/a2a",
  "version": "2.1.0",
  "capabilities": {},
  "defaultInputModes": ["text/plain"],
  "defaultOutputModes": ["text/plain"],
  "skills": [
    {"id": "lookup-invoice", "name": "Look up an invoice", "description": "Finds an invoice.", "tags": ["billing"]},
    {"id": "explain-charge", "name": "Explain a charge", "descripton": "Explains a line.", "tags": "billing"}
  ]
}
`)
	h.mustRun(t, "init", "-input=false")
	for _, tc := range []struct {
		form string
		want []string
	}{
		{recommendedForm, []string{
			"The A2A Agent Card has 2 problems:",
			`/skills/1: missing required property "description"; "descripton" is not a field here: did you mean "description"?; look for {"descripton": "Explains a line.", "id": "explain-charge", "name": "Explain a charge", "tags": "billing"}`,
			`/skills/1/tags: expected array, found string "billing"; look for {"descripton": "Explains a line.", "id": "explain-charge", "name": "Explain a charge", "tags": "billing"}`,
		}},
		{rawForm, []string{
			"The A2A Agent Card has 2 problems:",
			`line 12, column 5: /skills/1: missing required property "description"; "descripton" is not a field here: did you mean "description"?`,
			`line 12, column 100: /skills/1/tags: expected array, found string "billing"`,
		}},
	} {
		h.write(t, "main.tf", exampleProviders+r.config(strings.Replace(cardFileConfig, "%s", tc.form, 1)))
		errs := diagnostics(h.mustExit(t, 1, "plan", "-json", "-input=false"), "Invalid A2A Agent Card")
		if len(errs) != 1 || !containsInOrder(errs[0], tc.want) {
			t.Errorf("%s: want one error with, in order:\n%s\ngot %d:\n%s", tc.form, strings.Join(tc.want, "\n"), len(errs), strings.Join(errs, "\n"))
		}
	}
	r.expectNoWrites(t)
}

// The agent page's A2A 1.0 example, applied as it is against the bundled
// server: no warning, a2a_version "1.0" and the three interface URLs, and
// the AgentProperties the page shows.
func TestAccAgentResource_the10Example(t *testing.T) {
	r := startRegistry(t, registryserver.Options{AppHubWritable: true})
	h := newCLIHarness(t)
	const dir = "../../examples/resources/agentregistry_agent"
	shown, err := os.ReadFile(filepath.Join(dir, "cards/invoice-helper.agent-properties.json"))
	if err != nil {
		t.Fatal(err)
	}
	// App Hub derives the entry from the deployed agent; the example verifies
	// it (the default mode), so the test seeds what App Hub would hold: the
	// document the page shows.
	const workload = "projects/my-project/locations/us-central1/applications/billing/workloads/invoice-helper"
	if _, err := r.client.SetWorkloadMetadata(t.Context(), workload, registryclient.AgentPropertiesKey, shown, true); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(h.dir, "cards"), 0o700); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"resource-a2a-1.0.tf", "cards/invoice-helper.json"} {
		b, err := os.ReadFile(filepath.Join(dir, f))
		if err != nil {
			t.Fatal(err)
		}
		h.write(t, f, string(b))
	}
	h.write(t, "test.tf", r.config(exampleProviders+`
output "properties" {
  value = agentregistry_agent_properties.invoices.properties
}
`))
	h.mustRun(t, "init", "-input=false")
	out := h.mustRun(t, "apply", "-auto-approve", "-json", "-input=false")
	for _, d := range diagnostics(out, "") {
		if strings.HasPrefix(d, "warning: ") {
			t.Errorf("the example plans with a warning: %s", d)
		}
	}
	var outputs map[string]struct{ Value any }
	if err := json.Unmarshal([]byte(h.mustRun(t, "output", "-json")), &outputs); err != nil {
		t.Fatal(err)
	}
	urls, _ := outputs["invoices_urls"].Value.([]any)
	if outputs["invoices_a2a_version"].Value != "1.0" || len(urls) != 3 {
		t.Errorf("a2a_version %v, urls %v: the example says 1.0 and the three supportedInterfaces URLs", outputs["invoices_a2a_version"].Value, urls)
	}
	props, _ := outputs["properties"].Value.(string)
	if eq, err := jsoncanon.Equal([]byte(props), shown); err != nil || !eq {
		t.Errorf("the registered AgentProperties differ from the page's (%v):\n%s", err, props)
	}
}
