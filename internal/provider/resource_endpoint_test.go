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

func resEndpointConfig(r *testRegistry, serviceID, description, interfaces string) string {
	return r.config(fmt.Sprintf(`
resource "agentregistry_endpoint" "test" {
  service_id   = %q
  display_name = "Billing API"
  description  = %q
  interfaces   = [%s]
}
`, serviceID, description, interfaces))
}

const resHTTPInterface = `{ url = "https://billing.example.com/v1", protocol_binding = "HTTP_JSON" }`

func TestAccEndpointResource_lifecycle(t *testing.T) {
	r := startRegistry(t)
	const addr = "agentregistry_endpoint.test"
	name := testParent + "/services/billing-api"
	cfgA := resEndpointConfig(r, "billing-api", "Invoices and payments", resHTTPInterface)
	two := resHTTPInterface + `, { url = "https://billing.example.com/grpc", protocol_binding = "GRPC" }`
	cfgB := resEndpointConfig(r, "billing-api", "Invoices and payments", two)

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		CheckDestroy:             resCheckServicesGone(r, name),
		Steps: []resource.TestStep{
			{
				Config: cfgA,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(name)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("registry_resource"), knownvalue.StringExact(testParent+"/endpoints/billing-api")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("endpoint_id"), knownvalue.StringExact("billing-api")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("interfaces"), knownvalue.ListSizeExact(1)),
				},
			},
			{ // a second interface: one PATCH naming interfaces alone
				PreConfig: r.srv.ResetRequests,
				Config:    cfgB,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					patchMaskCheck{r, []string{"interfaces"}},
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("interfaces"), knownvalue.ListSizeExact(2)),
				},
			},
			{ResourceName: addr, ImportState: true, ImportStateId: name, ImportStateVerify: true},
			{ResourceName: addr, ImportState: true, ImportStateId: "billing-api", ImportStateVerify: true},
			{Config: cfgB, PlanOnly: true},
			{ // drift: an interface and the description changed outside Terraform
				PreConfig: func() {
					resSetServiceContent(t, r, name, func(svc *agentregistry.Service) []string {
						svc.Interfaces = svc.Interfaces[:1]
						svc.Description = "changed"
						return []string{"interfaces", "description"}
					})
				},
				Config:             cfgB,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				PreConfig: r.srv.ResetRequests,
				Config:    cfgB,
				ConfigStateChecks: []statecheck.StateCheck{
					patchMaskCheck{r, []string{"interfaces", "description"}},
				},
			},
			{ // a new service_id replaces the endpoint
				Config: resEndpointConfig(r, "billing-api-v2", "Invoices and payments", two),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace),
				}},
				Check: resCheckServicesGone(r, name),
			},
		},
	})
}

func TestAccEndpointResource_badInputRejectedAtPlan(t *testing.T) {
	r := startRegistry(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      resEndpointConfig(r, "billing-api", "x", `{ url = "billing.example.com/v1", protocol_binding = "HTTP_JSON" }`),
				ExpectError: regexp.MustCompile(`Invalid URL`),
			},
			{
				Config:      resEndpointConfig(r, "billing-api", "x", ""),
				ExpectError: regexp.MustCompile(`(?s)interfaces.*at least 1`),
			},
			{
				Config:      resEndpointConfig(r, "Billing_API", "x", resHTTPInterface),
				ExpectError: regexp.MustCompile(`service_id`),
			},
		},
	})
	r.expectNoWrites(t)
}
