package provider

import (
	"context"
	"encoding/json"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
)

func TestAccAgentPropertiesDataSource(t *testing.T) {
	r := startRegistry(t, registryserver.Options{AppHubWritable: true})
	const addr = "data.agentregistry_agent_properties.test"
	// The entry is written behind Terraform, as Google's App Hub fills it.
	doc, _ := json.Marshal(resProperties("1.2.0"))
	if _, err := r.client.SetWorkloadMetadata(context.Background(), resWorkload, "apphub.googleapis.com/AgentProperties", doc, true); err != nil {
		t.Fatal(err)
	}
	config := r.config(`data "agentregistry_agent_properties" "test" { workload = "` + resWorkload + `" }`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("exists"), knownvalue.Bool(true)),
				// Canonical: keys sorted, no spacing.
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("properties_json"), knownvalue.StringRegexp(
					regexp.MustCompile(`^\{"agentCardUri":"https://invoices\.example\.test/\.well-known/agent-card\.json","description":`))),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("version"), knownvalue.StringExact("1.2.0")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("framework"), knownvalue.StringExact("google-adk")),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("skills"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"id": knownvalue.StringExact("lookup-invoice"), "tags": resStrings("billing")}),
				})),
			},
		}, {Config: config, PlanOnly: true}, {
			// A workload without the entry reads as absent, not as an error.
			PreConfig: func() {
				if _, err := r.client.SetWorkloadMetadata(context.Background(), resWorkload, "apphub.googleapis.com/AgentProperties", nil, false); err != nil {
					t.Fatal(err)
				}
			},
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("exists"), knownvalue.Bool(false)),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("properties_json"), knownvalue.Null()),
				statecheck.ExpectKnownValue(addr, tfjsonpath.New("skills"), knownvalue.ListSizeExact(0)),
			},
		}},
	})
}

func TestAccAgentPropertiesDataSource_errors(t *testing.T) {
	r := startRegistry(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config:      r.config(`data "agentregistry_agent_properties" "x" { workload = "projects/test-project/locations/us-central1/applications/billing/workloads/nope" }`),
			ExpectError: regexp.MustCompile(`Workload Not Found`),
		}, {
			Config:      r.config(`data "agentregistry_agent_properties" "x" { workload = "invoice-helper" }`),
			ExpectError: regexp.MustCompile(`workload must be\s+projects/`),
		}},
	})
}
