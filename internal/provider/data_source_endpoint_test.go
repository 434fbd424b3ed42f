package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// resEndpointsFixture registers two endpoints and an MCP server.
const resEndpointsFixture = `
resource "agentregistry_endpoint" "billing" {
  service_id   = "billing-api"
  display_name = "Billing API"
  interfaces   = [{ url = "https://billing.example.com/v1", protocol_binding = "HTTP_JSON" }]
}
resource "agentregistry_endpoint" "search" {
  service_id   = "search-api"
  display_name = "Search API"
  interfaces   = [{ url = "https://search.example.com/grpc", protocol_binding = "GRPC" }]
}
resource "agentregistry_mcp_server" "files" {
  service_id  = "files-mcp"
  description = "File tools"
  interfaces  = [{ url = "https://mcp.example.com/files", protocol_binding = "JSONRPC" }]
  tool_spec   = jsonencode({ tools = [{ name = "read_file", inputSchema = { type = "object" } }] })
}
`

func TestAccEndpointDataSources(t *testing.T) {
	r := startRegistry(t)
	config := r.config(resEndpointsFixture + `
data "agentregistry_endpoint" "by_name" {
  name = agentregistry_endpoint.billing.registry_resource
}
data "agentregistry_endpoint" "by_service" {
  service_id = agentregistry_endpoint.search.service_id
}
data "agentregistry_endpoints" "all" {
  depends_on = [agentregistry_endpoint.billing, agentregistry_endpoint.search]
}
data "agentregistry_endpoints" "filtered" {
  filter     = "displayName=\"Search API\""
  depends_on = [agentregistry_endpoint.billing, agentregistry_endpoint.search]
}
data "agentregistry_mcp_server" "by_service" {
  service_id = agentregistry_mcp_server.files.service_id
}
data "agentregistry_mcp_server" "by_name" {
  name = agentregistry_mcp_server.files.registry_resource
}
`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: config,
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("data.agentregistry_endpoint.by_name", tfjsonpath.New("endpoint_id"), knownvalue.StringExact("billing-api")),
				statecheck.ExpectKnownValue("data.agentregistry_endpoint.by_name", tfjsonpath.New("urls"), resStrings("https://billing.example.com/v1")),
				statecheck.ExpectKnownValue("data.agentregistry_endpoint.by_service", tfjsonpath.New("name"), knownvalue.StringExact(testParent+"/endpoints/search-api")),
				statecheck.ExpectKnownValue("data.agentregistry_endpoint.by_service", tfjsonpath.New("interfaces"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectExact(map[string]knownvalue.Check{
						"url": knownvalue.StringExact("https://search.example.com/grpc"), "protocol_binding": knownvalue.StringExact("GRPC"),
					}),
				})),
				statecheck.ExpectKnownValue("data.agentregistry_endpoints.all", tfjsonpath.New("endpoints"), knownvalue.ListSizeExact(2)),
				statecheck.ExpectKnownValue("data.agentregistry_endpoints.filtered", tfjsonpath.New("endpoints"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"endpoint_id": knownvalue.StringExact("search-api")}),
				})),
				statecheck.ExpectKnownValue("data.agentregistry_mcp_server.by_service", tfjsonpath.New("mcp_server_id"), knownvalue.StringExact("files-mcp")),
				statecheck.ExpectKnownValue("data.agentregistry_mcp_server.by_service", tfjsonpath.New("tools"), knownvalue.ListExact([]knownvalue.Check{
					knownvalue.ObjectPartial(map[string]knownvalue.Check{"name": knownvalue.StringExact("read_file"), "destructive_hint": knownvalue.Bool(true)}),
				})),
				statecheck.ExpectKnownValue("data.agentregistry_mcp_server.by_name", tfjsonpath.New("description"), knownvalue.StringExact("File tools")),
			},
		}, {Config: config, PlanOnly: true}},
	})
}

func TestAccEndpointDataSources_errors(t *testing.T) {
	r := startRegistry(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      r.config(`data "agentregistry_endpoint" "x" { name = "projects/test-project/locations/global/endpoints/nope" }`),
				ExpectError: regexp.MustCompile(`Endpoint Not Found`),
			},
			{
				Config:      r.config(resEndpointsFixture + `data "agentregistry_endpoint" "x" { service_id = agentregistry_mcp_server.files.service_id }`),
				ExpectError: regexp.MustCompile(`(?s)Endpoint Not Found.*registers\s+no endpoint`),
			},
			{
				Config:      r.config(`data "agentregistry_mcp_server" "x" { name = "projects/p/locations/global/agents/a" }`),
				ExpectError: regexp.MustCompile(`must be a full MCP server name`),
			},
			{
				Config:      r.config(`data "agentregistry_mcp_server" "x" {}`),
				ExpectError: regexp.MustCompile(`Exactly one of these attributes must be configured`),
			},
			{
				Config:      r.config(`data "agentregistry_endpoints" "x" { filter = "nosuchfield:x" }`),
				ExpectError: regexp.MustCompile(`Invalid Search Query`),
			},
		},
	})
}
