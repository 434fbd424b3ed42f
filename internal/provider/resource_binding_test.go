package provider

import (
	"context"
	"fmt"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
)

const (
	resPlannerURN = "urn:agent:acme:travel:planner"
	resFlightsURN = "urn:mcp:acme:travel:flights"
	resAuthProv   = "projects/test-project/locations/global/authProviders/oauth"
)

func resBindingConfig(r *testRegistry, id, body string) string {
	return r.config(fmt.Sprintf(`
resource "agentregistry_binding" "test" {
  binding_id = %q
  %s
}
`, id, body))
}

func resBindingBody(description, scopes string) string {
	return fmt.Sprintf(`display_name  = "Planner to flights"
  description   = %q
  source        = %q
  target        = %q
  auth_provider = %q
  scopes        = [%s]
  continue_uri  = "https://planner.example.com/continue"`, description, resPlannerURN, resFlightsURN, resAuthProv, scopes)
}

func resCheckBindingGone(r *testRegistry, name string) resource.TestCheckFunc {
	return func(*terraform.State) error {
		if _, err := r.client.GetBinding(context.Background(), name); !registryclient.IsNotFound(err) {
			return fmt.Errorf("binding %s should be gone, got err=%v", name, err)
		}
		return nil
	}
}

func TestAccBindingResource_lifecycle(t *testing.T) {
	r := startRegistry(t)
	const addr = "agentregistry_binding.test"
	name := testParent + "/bindings/planner-flights"
	cfgA := resBindingConfig(r, "planner-flights", resBindingBody("Books flights", `"flights.read"`))
	cfgB := resBindingConfig(r, "planner-flights", resBindingBody("Books flights", `"flights.read", "flights.write"`))
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		CheckDestroy:             resCheckBindingGone(r, name),
		Steps: []resource.TestStep{
			{
				Config: cfgA,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(name)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("source"), knownvalue.StringExact(resPlannerURN)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("scopes"), resStrings("flights.read")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("create_time"), knownvalue.NotNull()),
				},
			},
			{ // a new scope: one PATCH naming the auth provider binding alone
				PreConfig: r.srv.ResetRequests,
				Config:    cfgB,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{patchMaskCheck{r, []string{"authProviderBinding"}}},
			},
			{ResourceName: addr, ImportState: true, ImportStateId: name, ImportStateVerify: true},
			{ResourceName: addr, ImportState: true, ImportStateId: "planner-flights", ImportStateVerify: true},
			{Config: cfgB, PlanOnly: true},
			{ // drift: the description changed outside Terraform
				PreConfig: func() {
					b, err := r.client.GetBinding(context.Background(), name)
					if err != nil {
						t.Fatal(err)
					}
					b.Description = "changed"
					if _, err := r.client.UpdateBinding(context.Background(), b, []string{"description"}); err != nil {
						t.Fatal(err)
					}
				},
				Config:             cfgB,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{ // no source, no auth provider: in place, the mask names what changed
				PreConfig: r.srv.ResetRequests,
				Config:    resBindingConfig(r, "planner-flights", `target = "urn:endpoint:acme:travel:billing"`),
				ConfigStateChecks: []statecheck.StateCheck{
					patchMaskCheck{r, []string{"authProviderBinding", "description", "displayName", "source", "target"}},
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("source"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("scopes"), knownvalue.Null()),
				},
			},
			{
				Config:   resBindingConfig(r, "planner-flights", `target = "urn:endpoint:acme:travel:billing"`),
				PlanOnly: true,
			},
			{ // removed outside Terraform: planned again
				PreConfig: func() {
					if err := r.client.DeleteBinding(context.Background(), name); err != nil {
						t.Fatal(err)
					}
				},
				Config:             cfgA,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
		},
	})
}

func TestAccBindingResource_badInputRejectedAtPlan(t *testing.T) {
	r := startRegistry(t)
	cases := []struct{ id, body, want string }{
		{"ab", `target = "` + resFlightsURN + `"`, `binding_id`},
		{"Bad_Id", `target = "` + resFlightsURN + `"`, `binding_id`},
		{"planner-flights", `target = "flights"`, `must be urn:agent`},
		{"planner-flights", `target = "urn:skill:acme:x:y"`, `must be urn:agent`},
		{"planner-flights", "source = \"" + resFlightsURN + "\"\n  target = \"" + resFlightsURN + "\"", `must be an agent URN`},
		{"planner-flights", "target = \"" + resFlightsURN + "\"\n  auth_provider = \"oauth\"", `authProviders`},
		{"planner-flights", "target = \"" + resFlightsURN + "\"\n  scopes = [\"a\"]", `auth_provider`},
		{"planner-flights", "target = \"" + resFlightsURN + "\"\n  auth_provider = \"" + resAuthProv + "\"\n  scopes = [\"a b\"]", `without spaces`},
		{"planner-flights", "target = \"" + resFlightsURN + "\"\n  auth_provider = \"" + resAuthProv + "\"\n  continue_uri = \"/relative\"", `Invalid URL`},
	}
	steps := make([]resource.TestStep, 0, len(cases))
	for _, c := range cases {
		steps = append(steps, resource.TestStep{Config: resBindingConfig(r, c.id, c.body), ExpectError: regexp.MustCompile(c.want)})
	}
	resource.ParallelTest(t, resource.TestCase{ProtoV6ProviderFactories: testAccProviderFactories, Steps: steps})
	r.expectNoWrites(t)
}
