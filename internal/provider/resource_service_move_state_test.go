package provider

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/providerserver"
	"github.com/hashicorp/terraform-plugin-go/tfprotov6"
	"github.com/hashicorp/terraform-plugin-go/tftypes"
	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/googleapi"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/toollock"
)

// googleSampleState is the state the Google provider wrote for one A2A agent
// and one MCP server.
const googleSampleState = "testdata/google/sample-state.json"

// googleInstances reads the sample state's instances by resource name.
func googleInstances(t *testing.T) map[string]json.RawMessage {
	t.Helper()
	raw, err := os.ReadFile(googleSampleState)
	if err != nil {
		t.Fatal(err)
	}
	var st struct {
		Resources []struct {
			Name      string
			Instances []struct {
				Attributes json.RawMessage
			}
		}
	}
	if err := json.Unmarshal(raw, &st); err != nil {
		t.Fatal(err)
	}
	out := map[string]json.RawMessage{}
	for _, r := range st.Resources {
		out[r.Name] = r.Instances[0].Attributes
	}
	return out
}

// moveState asks the provider to take over a google_agent_registry_service
// state as target, and returns the target state's attributes as Go values.
func moveState(t *testing.T, target string, source json.RawMessage) (map[string]any, []*tfprotov6.Diagnostic) {
	t.Helper()
	s := providerserver.NewProtocol6(New("test")())()
	resp, err := s.MoveResourceState(context.Background(), &tfprotov6.MoveResourceStateRequest{
		SourceProviderAddress: "registry.opentofu.org/hashicorp/google",
		SourceTypeName:        "google_agent_registry_service",
		SourceSchemaVersion:   0,
		SourceState:           &tfprotov6.RawState{JSON: source},
		TargetTypeName:        target,
	})
	if err != nil {
		t.Fatal(err)
	}
	if resp.TargetState == nil {
		return nil, resp.Diagnostics
	}
	typ := resourceSchemas(t, s)[target].ValueType()
	v, err := resp.TargetState.Unmarshal(typ)
	if err != nil {
		t.Fatal(err)
	}
	return as[map[string]any](t, goValue(t, v)), resp.Diagnostics
}

// goValue converts a Terraform value to Go: objects to maps, lists to slices,
// strings and nulls as they are.
func goValue(t *testing.T, v tftypes.Value) any {
	t.Helper()
	if v.IsNull() {
		return nil
	}
	switch {
	case v.Type().Is(tftypes.Object{}) || v.Type().Is(tftypes.Map{}):
		var attrs map[string]tftypes.Value
		if err := v.As(&attrs); err != nil {
			t.Fatal(err)
		}
		out := map[string]any{}
		for k, a := range attrs {
			out[k] = goValue(t, a)
		}
		return out
	case v.Type().Is(tftypes.List{}):
		var elems []tftypes.Value
		if err := v.As(&elems); err != nil {
			t.Fatal(err)
		}
		out := []any{}
		for _, e := range elems {
			out = append(out, goValue(t, e))
		}
		return out
	}
	var s string
	if err := v.As(&s); err != nil {
		t.Fatalf("%s: %v", v.Type(), err)
	}
	return s
}

func TestMoveState_googleAgentToAgent(t *testing.T) {
	got, diags := moveState(t, "agentregistry_agent", googleInstances(t)["agent"])
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	want := map[string]any{
		"id":                "projects/demo-project/locations/global/services/currency-agent",
		"name":              "projects/demo-project/locations/global/services/currency-agent",
		"service_id":        "currency-agent",
		"project":           "demo-project",
		"location":          "global",
		"display_name":      "Currency Agent",
		"description":       "Converts currencies",
		"registry_resource": "projects/demo-project/locations/global/agents/currency-agent",
		"agent_id":          "currency-agent",
		"create_time":       "2026-11-30T08:26:29.204946947Z",
		"update_time":       "2026-11-30T08:26:29.204946947Z",
		"a2a_version":       "0.3",
		"version":           "2.1.0",
		"urls":              []any{"https://agents.example.net/reconciler"},
		"skill_ids":         []any{"match-invoice"},
		"timeouts":          nil,
	}
	for k, v := range want {
		if !reflect.DeepEqual(got[k], v) {
			t.Errorf("%s = %#v, want %#v", k, got[k], v)
		}
	}
	if card, _ := got["agent_card"].(string); !strings.Contains(card, `"id":"match-invoice"`) {
		t.Errorf("agent_card = %q, want the Google state's agent_spec content", card)
	}
}

func TestMoveState_googleMcpServerToMcpServer(t *testing.T) {
	got, diags := moveState(t, "agentregistry_mcp_server", googleInstances(t)["mcp"])
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	want := map[string]any{
		"service_id":    "files-mcp",
		"display_name":  nil, // "" in the Google provider's state
		"description":   nil,
		"mcp_server_id": "files-mcp",
		"tool_names":    []any{"read_file"},
		"tool_digests":  map[string]any{"read_file": toolDigestOf(t, got["tool_spec"], "read_file")},
		"interfaces":    []any{map[string]any{"url": "https://mcp.example.com/mcp", "protocol_binding": "JSONRPC"}},
	}
	for k, v := range want {
		if !reflect.DeepEqual(got[k], v) {
			t.Errorf("%s = %#v, want %#v", k, got[k], v)
		}
	}
	if spec, _ := got["tool_spec"].(string); !strings.Contains(spec, `"name":"read_file"`) {
		t.Errorf("tool_spec = %q, want the Google state's mcp_server_spec content", spec)
	}
}

func TestMoveState_googleServiceOfAnotherKindIsRefused(t *testing.T) {
	instances := googleInstances(t)
	for _, c := range []struct{ target, source, want string }{
		{"agentregistry_agent", "mcp", "is an MCP server (mcpServerSpec), not an agent (agentSpec): move it to agentregistry_mcp_server"},
		{"agentregistry_mcp_server", "agent", "is an agent (agentSpec), not an MCP server (mcpServerSpec): move it to agentregistry_agent"},
	} {
		got, diags := moveState(t, c.target, instances[c.source])
		if got != nil || len(diags) != 1 || !strings.Contains(diags[0].Detail, c.want) {
			t.Errorf("%s from %s: state %v, diagnostics %v; want one error saying %q", c.target, c.source, got, diags, c.want)
		}
	}
}

func TestMoveState_googleEndpointToEndpoint(t *testing.T) {
	source := json.RawMessage(`{
  "name": "projects/demo-project/locations/global/services/billing-api",
  "service_id": "billing-api", "project": "demo-project", "location": "global",
  "display_name": "", "description": "Billing",
  "registry_resource": "projects/demo-project/locations/global/endpoints/billing-api",
  "create_time": "2026-11-30T08:26:29Z", "update_time": "2026-11-30T08:26:29Z",
  "agent_spec": [], "mcp_server_spec": [], "endpoint_spec": [{"type": "NO_SPEC", "content": ""}],
  "interfaces": [{"url": "https://billing.example.com/v1", "protocol_binding": "HTTP_JSON"}]
}`)
	got, diags := moveState(t, "agentregistry_endpoint", source)
	if len(diags) > 0 {
		t.Fatalf("diagnostics: %v", diags)
	}
	want := map[string]any{
		"service_id":   "billing-api",
		"display_name": nil,
		"description":  "Billing",
		"endpoint_id":  "billing-api",
		"interfaces":   []any{map[string]any{"url": "https://billing.example.com/v1", "protocol_binding": "HTTP_JSON"}},
	}
	for k, v := range want {
		if !reflect.DeepEqual(got[k], v) {
			t.Errorf("%s = %#v, want %#v", k, got[k], v)
		}
	}
}

func TestMoveState_googleBindingToBinding(t *testing.T) {
	s := providerserver.NewProtocol6(New("test")())()
	source := `{
  "id": "projects/demo-project/locations/global/bindings/planner-flights",
  "name": "projects/demo-project/locations/global/bindings/planner-flights",
  "binding_id": "planner-flights", "project": "demo-project", "location": "global",
  "display_name": "", "description": "Flights", "deletion_policy": "DELETE",
  "create_time": "2026-11-30T08:26:29Z", "update_time": "2026-11-30T08:26:29Z",
  "source": [{"identifier": "urn:agent:acme:travel:planner"}],
  "target": [{"identifier": "urn:mcp:acme:travel:flights"}],
  "auth_provider_binding": [{"auth_provider": "projects/demo-project/locations/global/authProviders/oauth", "scopes": ["flights.read"], "continue_uri": ""}]
}`
	resp, err := s.MoveResourceState(context.Background(), &tfprotov6.MoveResourceStateRequest{
		SourceProviderAddress: "registry.terraform.io/hashicorp/google",
		SourceTypeName:        "google_agent_registry_binding",
		SourceState:           &tfprotov6.RawState{JSON: []byte(source)},
		TargetTypeName:        "agentregistry_binding",
	})
	if err != nil || len(resp.Diagnostics) > 0 || resp.TargetState == nil {
		t.Fatalf("move: %v %v", err, resp.Diagnostics)
	}
	v, err := resp.TargetState.Unmarshal(resourceSchemas(t, s)["agentregistry_binding"].ValueType())
	if err != nil {
		t.Fatal(err)
	}
	got := as[map[string]any](t, goValue(t, v))
	want := map[string]any{
		"binding_id": "planner-flights", "project": "demo-project", "location": "global",
		"display_name": nil, "description": "Flights",
		"source": "urn:agent:acme:travel:planner", "target": "urn:mcp:acme:travel:flights",
		"auth_provider": "projects/demo-project/locations/global/authProviders/oauth",
		"scopes":        []any{"flights.read"}, "continue_uri": nil,
	}
	for k, w := range want {
		if !reflect.DeepEqual(got[k], w) {
			t.Errorf("%s = %#v, want %#v", k, got[k], w)
		}
	}
}

// `moved` from the Google provider's resources through the real CLI: a state
// written by google_agent_registry_service (the sample state) and
// google_agent_registry_binding, the Google provider served by a stand-in
// with its real schemas, and `moved` blocks to this provider's resources. The
// plan moves each and changes nothing, the apply writes nothing to the
// registry, and the next plan is empty. OpenTofu names the source provider
// by its bare name ("google"), Terraform by its full address: both must work.
func TestAccMove_fromTheGoogleProviderThroughTheCLI(t *testing.T) {
	google := newGoogleStandIn(t)
	instances := googleInstances(t)
	h := newCLIHarness(t, google)
	skipUnless(t, capMoveAcrossProviders)
	r := startRegistry(t)
	agent, mcp := googleAttrs(t, instances["agent"]), googleAttrs(t, instances["mcp"])
	seedFromGoogleState(t, r, agent, mcp)
	binding := `{"id": "projects/demo-project/locations/global/bindings/planner-flights",
  "name": "projects/demo-project/locations/global/bindings/planner-flights", "binding_id": "planner-flights",
  "project": "demo-project", "location": "global", "display_name": "", "description": "Flights",
  "deletion_policy": "DELETE", "create_time": "", "update_time": "", "timeouts": null,
  "source": [{"identifier": "` + resPlannerURN + `"}], "target": [{"identifier": "` + resFlightsURN + `"}],
  "auth_provider_binding": []}`
	if _, err := r.client.CreateBinding(context.Background(), "projects/demo-project/locations/global", "planner-flights",
		&agentregistry.Binding{Description: "Flights", Source: &agentregistry.Source{Identifier: resPlannerURN},
			Target: &agentregistry.Target{Identifier: resFlightsURN}}); err != nil {
		t.Fatal(err)
	}
	r.srv.ResetRequests()

	googleAddr := `provider[\"` + h.host + `/hashicorp/google\"]`
	h.write(t, "terraform.tfstate", fmt.Sprintf(`{"version": 4, "terraform_version": "1.10.0", "serial": 1,
  "lineage": "5e3c9d2e-0000-4000-8000-000000000001", "outputs": {}, "resources": [
  {"mode": "managed", "type": "google_agent_registry_service", "name": "agent", "provider": "%[1]s",
   "instances": [{"schema_version": 0, "attributes": %[2]s}]},
  {"mode": "managed", "type": "google_agent_registry_service", "name": "mcp", "provider": "%[1]s",
   "instances": [{"schema_version": 0, "attributes": %[3]s}]},
  {"mode": "managed", "type": "google_agent_registry_binding", "name": "flights", "provider": "%[1]s",
   "instances": [{"schema_version": 0, "attributes": %[4]s}]}]}`,
		googleAddr, instances["agent"], instances["mcp"], binding))
	h.write(t, "main.tf", `
terraform {
  required_providers {
    agentregistry = { source = "agentregistry/agentregistry" }
    google        = { source = "hashicorp/google" }
  }
}
provider "agentregistry" {
  endpoint = "`+r.URL+`"
  project  = "demo-project"
}
moved {
  from = google_agent_registry_service.agent
  to   = agentregistry_agent.agent
}
moved {
  from = google_agent_registry_service.mcp
  to   = agentregistry_mcp_server.mcp
}
moved {
  from = google_agent_registry_binding.flights
  to   = agentregistry_binding.flights
}
resource "agentregistry_agent" "agent" {
  service_id   = "currency-agent"
  display_name = "Currency Agent"
  description  = "Converts currencies"
  agent_card   = `+hclString(agent.AgentSpec[0].Content)+`
}
resource "agentregistry_mcp_server" "mcp" {
  service_id = "files-mcp"
  interfaces = [{ url = "https://mcp.example.com/mcp", protocol_binding = "JSONRPC" }]
  tool_spec  = `+hclString(mcp.McpServerSpec[0].Content)+`
}
resource "agentregistry_binding" "flights" {
  binding_id  = "planner-flights"
  description = "Flights"
  source      = "`+resPlannerURN+`"
  target      = "`+resFlightsURN+`"
}
`)
	h.mustRun(t, "init", "-input=false")
	out := h.mustRun(t, "plan", "-input=false")
	for _, want := range []string{
		"google_agent_registry_service.agent has moved to agentregistry_agent.agent",
		"google_agent_registry_service.mcp has moved to agentregistry_mcp_server.mcp",
		"google_agent_registry_binding.flights has moved to agentregistry_binding.flights",
		"0 to add, 0 to change, 0 to destroy",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("plan does not say %q:\n%s", want, out)
		}
	}
	h.mustRun(t, "apply", "-auto-approve", "-input=false")
	r.expectNoWrites(t)
	h.mustRun(t, "plan", "-detailed-exitcode", "-input=false")
	attrs, _ := h.state(t).instance(t, "agentregistry_agent", "agent")
	if attrs["skill_ids"] == nil || attrs["name"] != "projects/demo-project/locations/global/services/currency-agent" {
		t.Errorf("the moved agent's state is not the registry's: %v", attrs)
	}
}

// googleAttrs decodes the attributes of a google_agent_registry_service state.
func googleAttrs(t *testing.T, raw json.RawMessage) googleService {
	t.Helper()
	var g googleService
	if err := json.Unmarshal(raw, &g); err != nil {
		t.Fatal(err)
	}
	return g
}

// seedFromGoogleState registers the services as the Google provider had.
func seedFromGoogleState(t *testing.T, r *testRegistry, services ...googleService) {
	t.Helper()
	for _, g := range services {
		svc := &agentregistry.Service{DisplayName: g.DisplayName, Description: g.Description}
		for _, in := range g.Interfaces {
			svc.Interfaces = append(svc.Interfaces, &agentregistry.Interface{Url: in.URL, ProtocolBinding: in.ProtocolBinding})
		}
		if len(g.AgentSpec) > 0 {
			svc.AgentSpec = &agentregistry.AgentSpec{Type: g.AgentSpec[0].Type, Content: googleapi.RawMessage(g.AgentSpec[0].Content)}
		}
		if len(g.McpServerSpec) > 0 {
			svc.McpServerSpec = &agentregistry.McpServerSpec{Type: g.McpServerSpec[0].Type, Content: googleapi.RawMessage(g.McpServerSpec[0].Content)}
		}
		if _, err := r.client.CreateService(context.Background(), "projects/"+g.Project+"/locations/"+g.Location, g.ServiceID, svc); err != nil {
			t.Fatalf("registering %s: %v", g.Name, err)
		}
	}
}

// Every form of the Google providers' address that a CLI sends is accepted,
// and nothing else.
func TestIsGoogleProvider(t *testing.T) {
	for address, want := range map[string]bool{
		"registry.terraform.io/hashicorp/google":      true, // Terraform
		"registry.opentofu.org/hashicorp/google":      true, // OpenTofu with a required_providers entry
		"google":                                      true, // OpenTofu, the implied provider
		"google-beta":                                 true,
		"hashicorp/google-beta":                       true,
		"registry.terraform.io/-/google":              true, // a legacy (0.12) state
		"registry.terraform.io/acme/google":           false,
		"registry.terraform.io/hashicorp/googleworks": false,
		"registry.terraform.io/hashicorp/aws":         false,
		"":                                            false,
		"not an address!":                             false,
	} {
		if got := isGoogleProvider(address); got != want {
			t.Errorf("isGoogleProvider(%q) = %v, want %v", address, got, want)
		}
	}
}

// toolDigestOf is the digest of one tool of a tool spec, computed as the
// resource page defines it (see TestToolDigestsEqualAnIndependentComputation).
func toolDigestOf(t *testing.T, spec any, name string) string {
	t.Helper()
	s, _ := spec.(string)
	digests, err := toollock.Digests([]byte(s))
	if err != nil || digests[name] == "" {
		t.Fatalf("no digest of %s in %q: %v", name, s, err)
	}
	return digests[name]
}
