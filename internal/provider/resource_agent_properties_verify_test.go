package provider

import (
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsondoc"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
)

// seedAppHub sets the workload's AgentProperties as App Hub would derive them
// from the deployed agent; the server accepts it only because the test
// started it with AppHubWritable.
func seedAppHub(t *testing.T, r *testRegistry, props map[string]any) {
	t.Helper()
	indented, _ := json.MarshalIndent(props, "", "\t") // App Hub's spelling, not the configuration's
	resSetEntry(t, r, registryclient.AgentPropertiesKey, indented)
}

// mode = "verify" (the default): nothing is written; create and update pass
// when App Hub holds the declared document and otherwise name each differing
// field; a change in App Hub is drift; destroy forgets.
func TestAccAgentPropertiesResource_verify(t *testing.T) {
	r := startRegistry(t, registryserver.Options{AppHubWritable: true})
	const addr = "agentregistry_agent_properties.test"
	derived := resProperties("1.0.0")
	stale := resProperties("0.9.0")
	stale["description"] = "An older description."
	skills, _ := stale["skills"].([]any)
	skill, _ := skills[0].(map[string]any)
	skill["tags"] = []string{"billing", "legacy"}
	redeployed := resProperties("1.1.0")
	cfg := func(props map[string]any) string {
		return resPropertiesConfig(r, resWorkload, "jsonencode("+resJSON(props)+")")
	}
	seedAppHub(t, r, derived)

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		CheckDestroy: func(*terraform.State) error { // destroy forgets: App Hub's entry stays
			entries, err := resWorkloadEntries(r)
			if err != nil || !jsondoc.SemanticallyEqual(entries[registryclient.AgentPropertiesKey], resJSON(redeployed)) {
				return fmt.Errorf("destroy in verify mode must leave App Hub's entry: %v %v", entries, err)
			}
			if w := r.writes(); len(w) > 0 {
				return fmt.Errorf("verify mode wrote to the registry: %v", w)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{ // declared differs from App Hub's: one error naming each field, nothing written
				PreConfig: r.srv.ResetRequests,
				Config:    cfg(stale),
				ExpectError: regexp.MustCompile(`(?s)Agent Properties Differ From App Hub's.*` +
					`/description: declared "An older description\.", App Hub has "Answers questions about invoices\."` +
					`.*/skills/0/tags: declared \["billing","legacy"\], App Hub has \["billing"\]` +
					`.*/version: declared "0\.9\.0", App Hub has "1\.0\.0".*redeploy\s+the\s+agent.*change\s+the\s+declaration`),
			},
			{ // matches (App Hub's own spelling): created, nothing written
				PreConfig: func() { r.expectNoWrites(t); r.srv.ResetRequests() },
				Config:    cfg(derived),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("mode"), knownvalue.StringExact("verify")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("properties"), knownvalue.StringExact(resJSON(derived))),
					noPatchCheck{r},
				},
			},
			{Config: cfg(derived), PlanOnly: true}, // and the next plan is empty
			{ // App Hub changes behind Terraform's back: drift
				PreConfig: func() { seedAppHub(t, r, redeployed) },
				Config:    cfg(derived),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ExpectError: regexp.MustCompile(`(?s)/version: declared "1\.0\.0", App Hub has "1\.1\.0"`),
			},
			{ // the declaration follows App Hub: updated, nothing written
				PreConfig:         r.srv.ResetRequests,
				Config:            cfg(redeployed),
				ConfigStateChecks: []statecheck.StateCheck{noPatchCheck{r}},
			},
			{ResourceName: addr, ImportState: true, ImportStateId: resWorkload, ImportStateVerify: true},
			{Config: cfg(redeployed), PlanOnly: true},
			{ // the entry removed in App Hub: drift, and create fails naming it
				PreConfig: func() {
					if _, err := r.client.SetWorkloadMetadata(t.Context(), resWorkload, registryclient.AgentPropertiesKey, nil, false); err != nil {
						t.Fatal(err)
					}
				},
				Config:      cfg(redeployed),
				ExpectError: regexp.MustCompile(`(?s)App\s+Hub\s+holds\s+no\s+AgentProperties\s+entry\s+for\s+workload`),
			},
			{
				PreConfig: func() { seedAppHub(t, r, redeployed); r.srv.ResetRequests() },
				Config:    cfg(redeployed),
			},
		},
	})
}

// mode = "write" with the App Hub endpoint left at Google's is refused at
// plan, naming verify; verify plans there.
func TestAccAgentPropertiesResource_writeToGoogleRefusedAtPlan(t *testing.T) {
	r := startRegistry(t)
	body := func(mode string) string {
		return fmt.Sprintf(`
provider "agentregistry" {
  endpoint        = %q
  apphub_endpoint = "https://apphub.googleapis.com"
  project         = "test-project"
}

resource "agentregistry_agent_properties" "test" {
  workload   = %q
  properties = jsonencode(%s)
  mode       = %q
}
`, r.URL, resWorkload, resJSON(resProperties("1.0.0")), mode)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:   body("write"),
				PlanOnly: true,
				ExpectError: regexp.MustCompile(`(?s)AgentProperties Cannot Be Written to Google's App Hub.*` +
					`https://apphub\.googleapis\.com.*output only.*mode = "verify"`),
			},
			{Config: body("verify"), PlanOnly: true, ExpectNonEmptyPlan: true},
		},
	})
	r.expectNoWrites(t)
}

// mode = "write" against a registry that follows Google (the bundled server
// without -apphub-writable) fails at apply and says why.
func TestAccAgentPropertiesResource_writeIgnoredByRegistry(t *testing.T) {
	r := startRegistry(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config:      resPropertiesModeConfig(r, resWorkload, "jsonencode("+resJSON(resProperties("1.0.0"))+")", "write"),
			ExpectError: regexp.MustCompile(`(?s)Cannot Set Agent Properties.*output only.*-apphub-writable`),
		}},
	})
	if _, err := r.client.GetWorkload(t.Context(), resWorkload); !registryclient.IsNotFound(err) {
		t.Errorf("the registry should hold no workload: %v", err)
	}
}

// mode = "verify": a plan that would create or update the entry reads App
// Hub's at plan and, when it differs (or the workload is missing), warns on
// that resource, naming each differing field, since the apply would fail. A
// plan whose declaration App Hub already holds has no such warning; drift
// behind Terraform's back is named the same way; nothing is written.
func TestAccAgentPropertiesResource_verifyWarnsAtPlan(t *testing.T) {
	r := startRegistry(t, registryserver.Options{AppHubWritable: true})
	const missing = "projects/test-project/locations/us-central1/applications/billing/workloads/not-deployed"
	derived, stale := resProperties("1.0.0"), resProperties("0.9.0")
	stale["description"] = "An older description."
	seedAppHub(t, r, derived)
	h := newCLIHarness(t)
	config := func(props map[string]any, more string) {
		h.write(t, "main.tf", exampleProviders+r.config(fmt.Sprintf(`
resource "agentregistry_agent_properties" "test" {
  workload   = %q
  properties = jsonencode(%s)
}
%s`, resWorkload, resJSON(props), more)))
	}
	h.mustRun(t, "init", "-input=false")
	r.srv.ResetRequests()

	config(stale, fmt.Sprintf(`
resource "agentregistry_agent_properties" "absent" {
  workload   = %q
  properties = jsonencode(%s)
}
`, missing, resJSON(derived)))
	out := h.mustRun(t, "plan", "-json", "-input=false")
	expectPlanWarnings(t, out, map[string][]string{
		"agentregistry_agent_properties.test": {
			"warning: Agent Properties Differ From App Hub's:",
			"App Hub holds other AgentProperties for workload " + resWorkload,
			`/description: declared "An older description.", App Hub has "Answers questions about invoices."`,
			`/version: declared "0.9.0", App Hub has "1.0.0"`,
			"mode = \"verify\" writes nothing, so applying this plan will fail",
		},
		"agentregistry_agent_properties.absent": {
			"warning: Agent Properties Not in App Hub:", "App Hub has no workload " + missing,
			"applying this plan will fail",
		},
	})

	config(derived, "") // what App Hub holds: no warning, and the apply succeeds
	expectPlanWarnings(t, h.mustRun(t, "plan", "-json", "-input=false"), nil)
	h.mustRun(t, "apply", "-auto-approve", "-input=false")

	seedAppHub(t, r, resProperties("1.1.0")) // redeployed behind Terraform's back: drift, named
	r.srv.ResetRequests()
	expectPlanWarnings(t, h.mustExit(t, 2, "plan", "-json", "-input=false", "-detailed-exitcode"), map[string][]string{
		"agentregistry_agent_properties.test": {
			"warning: Agent Properties Differ From App Hub's:", `/version: declared "1.0.0", App Hub has "1.1.0"`,
		},
	})
	r.expectNoWrites(t)
}

// expectPlanWarnings checks the warnings of a `plan -json` run about App Hub:
// exactly one per address of want, each with want's phrases in order.
func expectPlanWarnings(t *testing.T, out string, want map[string][]string) {
	t.Helper()
	got := map[string][]string{}
	for _, line := range strings.Split(out, "\n") {
		var msg struct {
			Diagnostic struct{ Severity, Summary, Detail, Address string }
		}
		if json.Unmarshal([]byte(line), &msg) != nil || !strings.Contains(msg.Diagnostic.Summary, "App Hub") {
			continue
		}
		d := msg.Diagnostic
		got[d.Address] = append(got[d.Address], d.Severity+": "+d.Summary+": "+d.Detail)
	}
	if len(got) != len(want) {
		t.Errorf("want App Hub warnings on %d resources, got them on %d: %v", len(want), len(got), got)
	}
	for addr, phrases := range want {
		if len(got[addr]) != 1 || !containsInOrder(got[addr][0], phrases) {
			t.Errorf("%s: want one warning with, in order:\n%s\ngot %d:\n%s", addr, strings.Join(phrases, "\n"),
				len(got[addr]), strings.Join(got[addr], "\n"))
		}
	}
}
