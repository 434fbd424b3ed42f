package provider

import (
	"testing"

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
	l.expectListed(t, "agentregistry_endpoint", map[string]string{"filter": "description:invoices"}, false, "billing-api")
	// files-mcp's description: an MCP server, not an endpoint.
	l.expectListed(t, "agentregistry_endpoint", map[string]string{"filter": "description:files"}, false)
	l.expectListed(t, "agentregistry_endpoint", map[string]string{"filter": "name:billing*"}, false, "billing-api")
}

func TestAccEndpointListResource_query(t *testing.T) {
	r := startRegistry(t)
	seedAdoptable(t, r)
	billing := queryfilter.ByResourceIdentity(serviceIdentity("billing-api"))
	queryTest(t, r, `
list "agentregistry_endpoint" "billing" {
  provider         = agentregistry
  include_resource = true
  config {
    filter = "display_name:billing"
  }
}
`,
		querycheck.ExpectLength("agentregistry_endpoint.billing", 1),
		querycheck.ExpectIdentity("agentregistry_endpoint.billing", serviceIdentity("billing-api")),
		querycheck.ExpectResourceDisplayName("agentregistry_endpoint.billing", billing, knownvalue.StringExact("Billing API")),
		querycheck.ExpectResourceKnownValues("agentregistry_endpoint.billing", billing, []querycheck.KnownValueCheck{
			{Path: tfjsonpath.New("interfaces"), KnownValue: knownvalue.ListExact([]knownvalue.Check{knownvalue.ObjectExact(
				map[string]knownvalue.Check{"url": knownvalue.StringExact("https://billing.example.com/v1"),
					"protocol_binding": knownvalue.StringExact("HTTP_JSON")})})},
			{Path: tfjsonpath.New("endpoint_id"), KnownValue: knownvalue.NotNull()},
		}),
	)
}
