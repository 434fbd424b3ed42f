package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"regexp"
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

const resWorkload = "projects/test-project/locations/us-central1/applications/billing/workloads/invoice-helper"

func resProperties(version string) map[string]any {
	return map[string]any{
		"displayName":  "Invoice Helper",
		"description":  "Answers questions about invoices.",
		"version":      version,
		"framework":    "google-adk",
		"agentCardUri": "https://invoices.example.test/.well-known/agent-card.json",
		"skills": []any{map[string]any{
			"id": "lookup-invoice", "name": "Look up an invoice", "description": "Finds an invoice.",
			"tags": []string{"billing"}, "examples": []string{"Where is invoice 7?"},
		}},
	}
}

func resPropertiesConfig(r *testRegistry, workload, propertiesExpr string) string {
	return resPropertiesModeConfig(r, workload, propertiesExpr, "")
}

// resPropertiesModeConfig sets mode unless it is "" (the default, verify).
func resPropertiesModeConfig(r *testRegistry, workload, propertiesExpr, mode string) string {
	modeLine := ""
	if mode != "" {
		modeLine = fmt.Sprintf("mode       = %q", mode)
	}
	return r.config(fmt.Sprintf(`
resource "agentregistry_agent_properties" "test" {
  workload   = %q
  properties = %s
  %s
}
`, workload, propertiesExpr, modeLine))
}

// resWorkloadEntries reads the workload's extendedMetadata entries.
func resWorkloadEntries(r *testRegistry) (map[string]string, error) {
	w, err := r.client.GetWorkload(context.Background(), resWorkload)
	if err != nil {
		return nil, err
	}
	out := map[string]string{}
	if w.WorkloadProperties != nil {
		for k, v := range w.WorkloadProperties.ExtendedMetadata {
			out[k] = string(v.MetadataStruct)
		}
	}
	return out, nil
}

func resSetEntry(t *testing.T, r *testRegistry, key string, value []byte) {
	t.Helper()
	if _, err := r.client.SetWorkloadMetadata(context.Background(), resWorkload, key, value, true); err != nil {
		t.Fatalf("set %s behind Terraform's back: %v", key, err)
	}
}

// mode = "write", against a registry that accepts the write.
func TestAccAgentPropertiesResource_lifecycle(t *testing.T) {
	r := startRegistry(t, registryserver.Options{AppHubWritable: true})
	const addr = "agentregistry_agent_properties.test"
	propsA, propsB := resProperties("1.0.0"), resProperties("1.1.0")
	cfgA := resPropertiesModeConfig(r, resWorkload, "jsonencode("+resJSON(propsA)+")", "write")
	cfgB := resPropertiesModeConfig(r, resWorkload, "jsonencode("+resJSON(propsB)+")", "write")
	cfgBReformatted := resPropertiesModeConfig(r, resWorkload, resHeredoc(resReformatted(propsB)), "write")

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		// Destroy removes only the AgentProperties entry; the workload stays.
		// (The bundled server accepts no other extendedMetadata key, so keeping
		// other entries is covered by the client's tests.)
		CheckDestroy: func(*terraform.State) error {
			entries, err := resWorkloadEntries(r)
			if err != nil {
				return fmt.Errorf("the workload should remain after destroy: %w", err)
			}
			if _, ok := entries[registryclient.AgentPropertiesKey]; ok {
				return fmt.Errorf("the AgentProperties entry should be removed, got %v", entries)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{ // create (the workload does not exist yet: allowMissing creates it)
				Config: cfgA,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(resWorkload)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(resWorkload)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("properties"), knownvalue.StringExact(resJSON(propsA))),
				},
				Check: func(*terraform.State) error {
					entries, err := resWorkloadEntries(r)
					if err != nil {
						return err
					}
					if !jsondoc.SemanticallyEqual(entries[registryclient.AgentPropertiesKey], resJSON(propsA)) {
						return fmt.Errorf("unexpected workload metadata %v", entries)
					}
					return nil
				},
			},
			{
				PreConfig: r.srv.ResetRequests,
				Config:    cfgB,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{sawPatchCheck{r}},
			},
			// An import takes the default mode, verify.
			{ResourceName: addr, ImportState: true, ImportStateId: resWorkload, ImportStateVerify: true, ImportStateVerifyIgnore: []string{"mode"}},
			{Config: cfgB, PlanOnly: true},
			{ // reformatted: no PATCH
				PreConfig: r.srv.ResetRequests,
				Config:    cfgBReformatted,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{noPatchCheck{r}},
			},
			{ // the registry sends the entry back re-ordered and re-spaced: no drift
				PreConfig: func() {
					var v any
					_ = json.Unmarshal([]byte(resJSON(propsB)), &v)
					indented, _ := json.MarshalIndent(v, "", "\t")
					resSetEntry(t, r, registryclient.AgentPropertiesKey, indented)
				},
				Config:   cfgBReformatted,
				PlanOnly: true,
			},
			{ // drift
				PreConfig: func() { resSetEntry(t, r, registryclient.AgentPropertiesKey, []byte(resJSON(propsA))) },
				Config:    cfgBReformatted,
				PlanOnly:  true, ExpectNonEmptyPlan: true,
			},
			{
				Config: cfgBReformatted,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
			},
			{ // the entry removed outside Terraform
				PreConfig: func() {
					if _, err := r.client.SetWorkloadMetadata(context.Background(), resWorkload, registryclient.AgentPropertiesKey, nil, false); err != nil {
						t.Fatalf("remove entry: %v", err)
					}
				},
				Config:   cfgBReformatted,
				PlanOnly: true, ExpectNonEmptyPlan: true,
			},
			{
				Config: cfgBReformatted,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
				}},
			},
		},
	})
}

func TestAccAgentPropertiesResource_invalidRejectedAtPlan(t *testing.T) {
	r := startRegistry(t)
	props := `{
  "displayName": "Invoice Helper",
  "sklls": []
}`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      resPropertiesConfig(r, resWorkload, resHeredoc(props)),
				ExpectError: regexp.MustCompile(`(?s)Invalid AgentProperties Document.*line\s+3,\s+column\s+\d+.*sklls`),
			},
			{
				Config:      resPropertiesConfig(r, "projects/p/workloads/w", "jsonencode("+resJSON(resProperties("1.0.0"))+")"),
				ExpectError: regexp.MustCompile(`(?s)full App Hub workload name`),
			},
		},
	})
	r.expectNoWrites(t)
}
