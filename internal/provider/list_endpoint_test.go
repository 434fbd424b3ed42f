package provider

import (
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// The endpoint list takes the services.list filter and lists only endpoints,
// whatever else the filter matches.
func TestEndpointListResource_filter(t *testing.T) {
	r := startRegistry(t)
	seedAdoptable(t, r)
	l := newListRPC(t, r.URL)
	for filter, want := range map[string][]string{
		"description:invoices": {"billing-api"},
		"description:files":    nil, // files-mcp's description: an MCP server, not an endpoint
		"name:billing*":        {"billing-api"},
	} {
		got := l.list("agentregistry_endpoint", map[string]string{"filter": filter}, false, 100, 0)
		if ids := ids(got); !slices.Equal(ids, want) || len(errorsOf(got)) > 0 {
			t.Errorf("filter %q: %v, errors %v; want %v", filter, ids, errorsOf(got), want)
		}
	}
}

func TestAccEndpointListResource_query(t *testing.T) {
	r := startRegistry(t)
	seedAdoptable(t, r)
	billing := queryfilter.ByResourceIdentity(serviceIdentity("billing-api"))
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   requires(capQuery),
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{Config: r.config("")},
			{
				Query: true,
				Config: `
list "agentregistry_endpoint" "billing" {
  provider         = agentregistry
  include_resource = true
  config {
    filter = "display_name:billing"
  }
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("agentregistry_endpoint.billing", 1),
					querycheck.ExpectIdentity("agentregistry_endpoint.billing", serviceIdentity("billing-api")),
					querycheck.ExpectResourceDisplayName("agentregistry_endpoint.billing", billing, knownvalue.StringExact("Billing API")),
					querycheck.ExpectResourceKnownValues("agentregistry_endpoint.billing", billing, []querycheck.KnownValueCheck{
						{Path: tfjsonpath.New("interfaces"), KnownValue: knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(
							map[string]knownvalue.Check{"url": knownvalue.StringExact("https://billing.example.com/v1"),
								"protocol_binding": knownvalue.StringExact("HTTP_JSON")})})},
						{Path: tfjsonpath.New("endpoint_id"), KnownValue: knownvalue.NotNull()},
					}),
				},
			},
		},
	})
}
