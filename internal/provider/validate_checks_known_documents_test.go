package provider

import (
	"regexp"
	"slices"
	"strings"
	"testing"
)

// What `validate` checks, as the provider's page says: a document whose value
// is known without input variables (a literal, jsonencode of one, a local) is
// checked there; one that comes through for_each, an input variable or a
// module's input is unknown during validate, passes it, and is checked at
// plan, before anything is sent.
func TestAccAgentResource_whatValidateChecks(t *testing.T) {
	r := startRegistry(t)
	h := newCLIHarness(t)
	const known = `
locals {
  bad = "{\"name\": \"no skills\"}"
}

resource "agentregistry_agent" "literal" {
  service_id = "from-literal"
  agent_card = jsonencode({ name = "no skills" })
}

resource "agentregistry_agent" "local" {
  service_id = "from-local"
  agent_card = local.bad
}
`
	const unknown = `
variable "card" {
  type    = string
  default = "{\"name\": \"no skills\"}"
}

resource "agentregistry_agent" "each" {
  for_each   = { bad = "{\"name\": \"no skills\"}" }
  service_id = "from-each-${each.key}"
  agent_card = each.value
}

resource "agentregistry_agent" "variable" {
  service_id = "from-variable"
  agent_card = var.card
}

module "child" {
  source = "./child"
  card   = "{\"name\": \"no skills\"}"
}
`
	h.write(t, "child/main.tf", exampleProviders+`
variable "card" {
  type = string
}

resource "agentregistry_agent" "input" {
  service_id = "from-module-input"
  agent_card = var.card
}
`)
	h.write(t, "main.tf", exampleProviders+r.config(known+unknown))
	h.mustRun(t, "init", "-input=false")
	expectCardErrors(t, h.mustExit(t, 1, "validate"), "agentregistry_agent.literal", "agentregistry_agent.local")

	h.write(t, "main.tf", exampleProviders+r.config(unknown))
	if out := h.mustRun(t, "validate"); strings.Contains(out, "Invalid A2A Agent Card") {
		t.Fatalf("validate checked a document it cannot know:\n%s", out)
	}
	expectCardErrors(t, h.mustExit(t, 1, "plan", "-input=false"),
		`agentregistry_agent.each["bad"]`, "agentregistry_agent.variable", "module.child.agentregistry_agent.input")
	r.expectNoWrites(t)
}

var cardErrorAt = regexp.MustCompile(`(?m)^Error: Invalid A2A Agent Card\n\n  with (\S+),`)

// expectCardErrors: the output has one card error for each address, and no other.
func expectCardErrors(t *testing.T, out string, addresses ...string) {
	t.Helper()
	var got []string
	for _, m := range cardErrorAt.FindAllStringSubmatch(out, -1) {
		got = append(got, m[1])
	}
	slices.Sort(got)
	want := slices.Sorted(slices.Values(addresses))
	if !slices.Equal(got, want) {
		t.Errorf("card errors on %q, want on %q:\n%s", got, want, out)
	}
}
