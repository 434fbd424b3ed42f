package provider

import (
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"google.golang.org/api/agentregistry/v1"
)

// resCardlessConfig is an agent registered by its interfaces (NO_SPEC); body
// holds agent_card and/or interfaces.
func resCardlessConfig(r *testRegistry, serviceID, body string) string {
	return r.config(fmt.Sprintf(`
resource "agentregistry_agent" "test" {
  service_id  = %q
  description = "Reconciles invoices"
  %s
}
`, serviceID, body))
}

const resAgentInterface = `{ url = "https://agents.example.com/reconciler", protocol_binding = "JSONRPC" }`

func TestAccAgentResource_withoutCard(t *testing.T) {
	r := startRegistry(t)
	const addr = "agentregistry_agent.test"
	name := testParent + "/services/reconciler"
	one := resCardlessConfig(r, "reconciler", "interfaces = ["+resAgentInterface+"]")
	two := resCardlessConfig(r, "reconciler", "interfaces = ["+resAgentInterface+
		`, { url = "https://agents.example.com/reconciler-grpc", protocol_binding = "GRPC" }]`)
	withCard := resCardlessConfig(r, "reconciler", "agent_card = jsonencode("+resJSON(resCard("Reconciles", resCardSkill("match", "Matches", "billing")))+")")

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		CheckDestroy:             resCheckServicesGone(r, name),
		Steps: []resource.TestStep{
			{ // NO_SPEC: urls from the interfaces, no skills, no versions; known at plan
				Config: one,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("urls"), resStrings("https://agents.example.com/reconciler")),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("skill_ids"), knownvalue.ListExact([]knownvalue.Check{})),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("agent_card"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("a2a_version"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("version"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("verified_key_ids"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("agent_id"), knownvalue.StringExact("reconciler")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("registry_resource"), knownvalue.StringExact(testParent+"/agents/reconciler")),
				},
			},
			{ // a second interface: in place, the mask names interfaces alone
				PreConfig: r.srv.ResetRequests,
				Config:    two,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("urls"), knownvalue.ListSizeExact(2)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{patchMaskCheck{r, []string{"interfaces"}}},
			},
			{ResourceName: addr, ImportState: true, ImportStateId: name, ImportStateVerify: true},
			{Config: two, PlanOnly: true},
			{ // drift: an interface removed outside Terraform
				PreConfig: func() {
					resSetServiceContent(t, r, name, func(svc *agentregistry.Service) []string {
						svc.Interfaces = svc.Interfaces[:1]
						return []string{"interfaces"}
					})
				},
				Config:             two,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{ // card <-> no card changes the spec type: replacement
				Config: withCard,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("interfaces"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("skill_ids"), resStrings("match")),
				},
			},
			{
				Config: one,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace),
				}},
			},
		},
	})
}

func TestAccAgentResource_cardOrInterfacesExactlyOne(t *testing.T) {
	r := startRegistry(t)
	card := "agent_card = jsonencode(" + resJSON(resCard("Reconciles", resCardSkill("match", "Matches", "billing"))) + ")"
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      resCardlessConfig(r, "reconciler", card+"\n  interfaces = ["+resAgentInterface+"]"),
				ExpectError: regexp.MustCompile(`(?s)Invalid Attribute Combination.*agent_card.*interfaces`),
			},
			{
				Config:      resCardlessConfig(r, "reconciler", ""),
				ExpectError: regexp.MustCompile(`(?s)Missing Attribute Configuration.*Exactly one of these attributes.*agent_card,interfaces`),
			},
		},
	})
	r.expectNoWrites(t)
}
