package provider

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/testkit"
)

// everyKindTwice is a configuration with two resources of every kind and the
// data sources that read the registry. Its documents are valid, so a
// configuration error of the provider is the only thing wrong with it.
const everyKindTwice = `
variable "skill_dir" {
  type = string
}

locals {
  card = {
    protocolVersion    = "0.3.0"
    name               = "Currency Agent"
    description        = "Converts amounts between currencies."
    version            = "1.0.0"
    url                = "https://agents.example.com/currency"
    defaultInputModes  = ["text/plain"]
    defaultOutputModes = ["text/plain"]
    skills = [{ id = "convert", name = "Convert", description = "Converts amounts.", tags = ["fx"] }]
  }
  properties = {
    displayName = "Currency Agent"
    description = "Converts amounts between currencies."
    version     = "1.0.0"
    skills      = [{ id = "convert", name = "Convert", description = "Converts amounts.", tags = ["fx"] }]
  }
}

resource "agentregistry_agent" "a" {
  count      = 2
  service_id = "agent-${count.index}"
  agent_card = jsonencode(local.card)
}

resource "agentregistry_mcp_server" "m" {
  count      = 2
  service_id = "tools-${count.index}"
  interfaces = [{ url = "https://tools-${count.index}.example.com/mcp", protocol_binding = "JSONRPC" }]
  tool_spec = jsonencode({ tools = [{ name = "convert", inputSchema = { type = "object" } }] })
}

resource "agentregistry_endpoint" "e" {
  count      = 2
  service_id = "api-${count.index}"
  interfaces = [{ url = "https://api-${count.index}.example.com/v1", protocol_binding = "HTTP_JSON" }]
}

resource "agentregistry_binding" "b" {
  count      = 2
  binding_id = "binding-${count.index}"
  target     = "urn:endpoint:acme:finance:api-${count.index}"
}

resource "agentregistry_skill" "s" {
  count        = 2
  skill_id     = "pdf-forms-${["one", "two"][count.index]}"
  source_dir   = var.skill_dir
  target_state = "DRAFT"
}

resource "agentregistry_agent_properties" "p" {
  count      = 2
  workload   = "projects/my-project/locations/us-central1/applications/payments/workloads/agent-${count.index}"
  properties = jsonencode(local.properties)
}

data "agentregistry_agents" "all" {}
data "agentregistry_skills" "fx" {
  tags = ["fx"]
}
`

const pdfFormsSkill = `---
name: pdf-forms
description: Fills PDF forms from structured data.
---
# PDF forms
`

// A provider configuration that cannot be used (no project, no credentials,
// a signature policy from the environment that is none) fails a plan of many
// resources of every kind and data sources with exactly one error, the real
// one: none of the resources reports a consequence of it (such as a signature
// check made without the provider's settings), under every signature policy.
func TestAccProviderConfigurationErrorOnce(t *testing.T) {
	for _, tc := range []struct {
		name, provider, want string
		env                  map[string]string
	}{
		{"no project", `endpoint = "http://127.0.0.1:1"`, "Missing Project", nil},
		{"no project, signatures required", `
  endpoint         = "http://127.0.0.1:1"
  signature_policy = "require"`, "Missing Project", nil},
		{"no credentials", `project = "my-project"`, "Cannot Create Agent Registry Client", nil},
		{"no credentials, signatures checked", `
  project          = "my-project"
  signature_policy = "verify_if_present"`, "Cannot Create Agent Registry Client", nil},
		{"a signature policy from the environment that is none", `
  endpoint = var.registry
  project  = "my-project"`, "Invalid Signature Policy", map[string]string{"AGENTREGISTRY_SIGNATURE_POLICY": "requier"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			withoutCredentials(t)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			h := newCLIHarness(t)
			h.write(t, "main.tf", exampleProviders+"provider \"agentregistry\" {\n  "+tc.provider+"\n}\n"+everyKindTwice+
				"variable \"registry\" {\n  type = string\n}\n")
			h.write(t, "skills/pdf-forms/SKILL.md", pdfFormsSkill)
			h.mustRun(t, "init", "-input=false")
			// A registry that answers, for the configuration that is otherwise usable.
			registry := startRegistry(t).URL
			out := h.mustExit(t, 1, "plan", "-input=false", "-json",
				"-var", "skill_dir="+filepath.Join(h.dir, "skills", "pdf-forms"), "-var", "registry="+registry)
			var errs []string
			for _, d := range testkit.Diagnostics(out, "") {
				if strings.HasPrefix(d, "error: ") {
					errs = append(errs, d)
				}
			}
			if len(errs) != 1 || !strings.Contains(errs[0], tc.want) {
				t.Fatalf("the plan gave %d errors, want exactly one %q:\n%s", len(errs), tc.want, strings.Join(errs, "\n"))
			}
		})
	}
}
