package provider

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"google.golang.org/api/agentregistry/v1"
)

// resToolSpec is a tools/list result; the first tool has annotations, the
// second relies on the MCP defaults.
func resToolSpec(forecastDescription string) map[string]any {
	return map[string]any{
		"tools": []any{
			map[string]any{
				"name":        "get_forecast",
				"title":       "Get forecast",
				"description": forecastDescription,
				"inputSchema": map[string]any{
					"type":       "object",
					"properties": map[string]any{"city": map[string]any{"type": "string"}, "days": map[string]any{"type": "integer", "maximum": 10}},
					"required":   []string{"city"},
				},
				"annotations": map[string]any{"readOnlyHint": true, "destructiveHint": false, "idempotentHint": true, "openWorldHint": true},
			},
			map[string]any{
				"name":        "set_alert",
				"description": "Sets a weather alert",
				"inputSchema": map[string]any{"type": "object"},
			},
		},
	}
}

func resMcpConfig(r *testRegistry, serviceID, description, interfaces, toolSpecExpr string) string {
	toolSpec := ""
	if toolSpecExpr != "" {
		toolSpec = "tool_spec = " + toolSpecExpr
	}
	return r.config(fmt.Sprintf(`
resource "agentregistry_mcp_server" "test" {
  service_id  = %q
  description = %q
  interfaces  = [%s]
  %s
}
`, serviceID, description, interfaces, toolSpec))
}

const resJSONRPCInterface = `{ url = "https://mcp.example.com/weather", protocol_binding = "JSONRPC" }`

func resToolChecks() knownvalue.Check { return resStrings("get_forecast", "set_alert") }

func TestAccMcpServerResource_lifecycle(t *testing.T) {
	r := startRegistry(t)
	const addr = "agentregistry_mcp_server.test"
	name := testParent + "/services/weather-mcp"
	specA := resToolSpec("Returns the forecast")
	specB := resToolSpec("Returns the forecast for up to ten days")
	cfgA := resMcpConfig(r, "weather-mcp", "Weather tools", resJSONRPCInterface, "jsonencode("+resJSON(specA)+")")
	twoInterfaces := resJSONRPCInterface + `, { url = "https://mcp.example.com/weather-grpc", protocol_binding = "GRPC" }`
	cfgB := resMcpConfig(r, "weather-mcp", "Weather tools", twoInterfaces, "jsonencode("+resJSON(specB)+")")
	cfgBReformatted := resMcpConfig(r, "weather-mcp", "Weather tools", twoInterfaces, resHeredoc(resReformatted(specB)))

	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		CheckDestroy:             resCheckServicesGone(r, name, testParent+"/services/weather-mcp-v2"),
		Steps: []resource.TestStep{
			{ // create; tools known at plan, MCP defaults applied
				Config: cfgA,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("tool_names"), resToolChecks()),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(name)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("registry_resource"), knownvalue.StringExact(testParent+"/mcpServers/weather-mcp")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("mcp_server_id"), knownvalue.StringExact("weather-mcp")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("tool_names"), resToolChecks()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("interfaces"), knownvalue.ListExact([]knownvalue.Check{
						knownvalue.ObjectExact(map[string]knownvalue.Check{
							"url":              knownvalue.StringExact("https://mcp.example.com/weather"),
							"protocol_binding": knownvalue.StringExact("JSONRPC"),
						}),
					})),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("display_name"), knownvalue.Null()),
				},
			},
			{ // update in place: tool spec and interfaces
				PreConfig: r.srv.ResetRequests,
				Config:    cfgB,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("tool_names"), resToolChecks()),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("update_time")),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					patchMaskCheck{r, []string{"interfaces", "mcpServerSpec"}},
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("interfaces"), knownvalue.ListSizeExact(2)),
				},
			},
			{ResourceName: addr, ImportState: true, ImportStateId: name, ImportStateVerify: true},
			{ResourceName: addr, ImportState: true, ImportStateId: "weather-mcp", ImportStateVerify: true},
			{Config: cfgB, PlanOnly: true},
			{ // reformatted tool spec: no PATCH
				PreConfig: r.srv.ResetRequests,
				Config:    cfgBReformatted,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("update_time"), knownvalue.NotNull()),
				}},
				ConfigStateChecks: []statecheck.StateCheck{noPatchCheck{r}},
			},
			{ // the registry re-encodes numbers: no drift
				PreConfig: func() {
					resSetServiceContent(t, r, name, func(svc *agentregistry.Service) []string {
						c := strings.Replace(string(svc.McpServerSpec.Content), `"maximum":10`, `"maximum":10.0`, 1)
						if c == string(svc.McpServerSpec.Content) {
							t.Fatalf("fixture: no maximum in %s", c)
						}
						svc.McpServerSpec.Content = []byte(c)
						return []string{"mcpServerSpec"}
					})
				},
				Config:   cfgBReformatted,
				PlanOnly: true,
			},
			{ // drift
				PreConfig: func() {
					resSetServiceContent(t, r, name, func(svc *agentregistry.Service) []string {
						svc.McpServerSpec.Content = []byte(resJSON(specA))
						return []string{"mcpServerSpec"}
					})
				},
				Config:             cfgBReformatted,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				Config: cfgBReformatted,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
			},
			{ // removed outside Terraform
				PreConfig: func() {
					if err := r.client.DeleteService(context.Background(), name); err != nil {
						t.Fatalf("delete behind Terraform's back: %v", err)
					}
				},
				Config:             cfgBReformatted,
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{
				Config: cfgBReformatted,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
				}},
			},
			{ // dropping tool_spec changes the spec type to NO_SPEC: replacement
				Config: resMcpConfig(r, "weather-mcp", "Weather tools", twoInterfaces, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("tool_names"), knownvalue.ListExact([]knownvalue.Check{})),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("tool_spec"), knownvalue.Null()),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("tool_names"), knownvalue.ListExact([]knownvalue.Check{})),
				},
			},
			{ // no tool_spec, only a new description: in place, and the mask names it alone
				PreConfig: r.srv.ResetRequests,
				Config:    resMcpConfig(r, "weather-mcp", "Weather tools (no spec)", twoInterfaces, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{patchMaskCheck{r, []string{"description"}}},
			},
			{ // a new service_id replaces the server
				Config: resMcpConfig(r, "weather-mcp-v2", "Weather tools (no spec)", twoInterfaces, ""),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionReplace),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("name"), knownvalue.StringExact(testParent+"/services/weather-mcp-v2")),
				},
				Check: resCheckServicesGone(r, name),
			},
		},
	})
}

func TestAccMcpServerResource_invalidToolSpecRejectedAtPlan(t *testing.T) {
	r := startRegistry(t)
	spec := `{
  "tools": [
    {"name": "no_schema"},
    {"name": "bad", "inputSchema": {"type": "string"}}
  ]
}`
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config:      resMcpConfig(r, "broken-mcp", "Broken", resJSONRPCInterface, resHeredoc(spec)),
			ExpectError: regexp.MustCompile(`(?s)Invalid MCP Tool Spec.*line\s+3,\s+column\s+\d+:\s+/tools/0`),
		}},
	})
	r.expectNoWrites(t)
}

func TestAccMcpServerResource_invalidProtocolBinding(t *testing.T) {
	r := startRegistry(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config:      resMcpConfig(r, "broken-mcp", "Broken", `{ url = "https://mcp.example.com", protocol_binding = "SOAP" }`, ""),
			ExpectError: regexp.MustCompile(`(?s)protocol_binding.*JSONRPC`),
		}},
	})
	r.expectNoWrites(t)
}
