package provider

import (
	"context"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/googleapi"
)

// dataSourceSchemaType is the object type of every attribute of a data
// source's schema, without the attributes named in leave.
func dataSourceSchemaType(t *testing.T, ds datasource.DataSource, leave ...string) types.ObjectType {
	t.Helper()
	var resp datasource.SchemaResponse
	ds.Schema(context.Background(), datasource.SchemaRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	out := map[string]attr.Type{}
	for name, a := range resp.Schema.Attributes {
		out[name] = a.GetType()
	}
	for _, name := range leave {
		delete(out, name)
	}
	return types.ObjectType{AttrTypes: out}
}

// Each model's derived object type is the type of the schema attribute it
// fills, so that a field added to one and not the other fails here rather
// than at a user's read.
func TestDataSourceModels_matchTheirSchemas(t *testing.T) {
	list := func(elem attr.Type) attr.Type { return types.ListType{ElemType: elem} }
	attrOf := func(ds datasource.DataSource, name string) attr.Type {
		return dataSourceSchemaType(t, ds).AttrTypes[name]
	}
	// A lookup data source's top level is the record plus its selector.
	selector := []string{"service_id", "filter", "project", "location"}
	tests := []struct {
		name         string
		schema, want attr.Type
	}{
		{"agentregistry_agent", dataSourceSchemaType(t, NewAgentDataSource(), selector...), agentResults.ObjectType()},
		{"agentregistry_agents", attrOf(NewAgentsDataSource(), "agents"), list(agentsResults.ObjectType())},
		{"agentregistry_mcp_server", dataSourceSchemaType(t, NewMcpServerDataSource(), selector...), mcpServerResults.ObjectType()},
		{"agentregistry_mcp_servers", attrOf(NewMcpServersDataSource(), "mcp_servers"), list(mcpServersResults.ObjectType())},
		{"agentregistry_endpoint", dataSourceSchemaType(t, NewEndpointDataSource(), selector...), endpointResults.ObjectType()},
		{"agentregistry_endpoints", attrOf(NewEndpointsDataSource(), "endpoints"), list(endpointResults.ObjectType())},
		{"agentregistry_bindings", attrOf(NewBindingsDataSource(), "bindings"), list(bindingResults.ObjectType())},
		{"agentregistry_available_bindings", attrOf(NewAvailableBindingsDataSource(), "bindings"), list(bindingResults.ObjectType())},
		{"agentregistry_skills", attrOf(NewSkillsDataSource(), "skills"), list(skillsResults.ObjectType())},
		{"agentregistry_agent_properties", attrOf(NewAgentPropertiesDataSource(), "skills"), list(skillObjectType)},
		{"search_cards", searchCardsReturnType(t), types.MapType{ElemType: searchCardsResultObjectType}},
		{"the resources' interfaces", interfacesAttribute("").GetType(), list(interfaceObjectType)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.schema == nil || !tt.schema.Equal(tt.want) {
				t.Fatalf("the schema's type is\n%s\nthe model's is\n%s", tt.schema, tt.want)
			}
		})
	}
}

func searchCardsReturnType(t *testing.T) attr.Type {
	t.Helper()
	var resp function.DefinitionResponse
	NewSearchCardsFunction().Definition(context.Background(), function.DefinitionRequest{}, &resp)
	if resp.Diagnostics.HasError() {
		t.Fatal(resp.Diagnostics)
	}
	return resp.Definition.Return.GetType()
}

// modelCase is the value a model converts a record's flatten to, and the
// value the framework's reflection makes of it.
type modelCase struct {
	name              string
	object, framework types.Object
	diags             diag.Diagnostics
	wantNull          []string
}

func newModelCase[T any](name string, m model[T], v T, wantNull ...string) modelCase {
	framework, diags := types.ObjectValueFrom(context.Background(), m.ObjectType().AttrTypes, v)
	return modelCase{name: name, object: m.Object(v), framework: framework, diags: diags, wantNull: wantNull}
}

// A record with nothing set flattens to empty lists and maps, never null ones
// (a nil slice or map in a model is null), and to null for what the schema
// says is null when absent; a model builds the value the framework would.
func TestDataSourceModels_emptyRecordIsEmptyNotNull(t *testing.T) {
	tests := []modelCase{
		newModelCase("agent", agentResults, flattenAgent(&agentregistry.Agent{}), "framework", "attributes_json"),
		newModelCase("agents result", agentsResults, agentsResultModel{flattenAgent(&agentregistry.Agent{}), serviceIDsOf("", "")},
			"framework", "attributes_json", "service_id", "project", "location"),
		newModelCase("MCP server", mcpServerResults, flattenMcpServer(&agentregistry.McpServer{}), "attributes_json"),
		newModelCase("endpoint", endpointResults, flattenEndpoint(&agentregistry.Endpoint{}), "attributes_json"),
		newModelCase("binding", bindingResults, flattenBinding(&agentregistry.Binding{})),
		newModelCase("standalone skill", skillsResults, flattenStandaloneSkill(&agentregistry.Skill{}), "agent_name", "agent_id", "agent_display_name"),
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.diags.HasError() || !tt.object.Equal(tt.framework) {
				t.Fatalf("the model builds\n%s\nthe framework (%v)\n%s", tt.object, tt.diags, tt.framework)
			}
			for name, v := range tt.object.Attributes() {
				if want := slices.Contains(tt.wantNull, name); v.IsNull() != want {
					t.Errorf("%s is %s; want null: %v", name, v, want)
				}
			}
		})
	}
}

// benchAgentCard is an A2A 0.3 card with two interfaces and two skills.
const benchAgentCard = `{"name":"Travel","description":"Books trips","version":"1.2.3","protocolVersion":"0.3.0",
"url":"https://t.example.com/a2a","additionalInterfaces":[{"url":"https://t.example.com/a2a","transport":"JSONRPC"},
{"url":"https://t.example.com/grpc","transport":"GRPC"}],"capabilities":{},"defaultInputModes":["text"],
"defaultOutputModes":["text"],"skills":[{"id":"book","name":"Book","description":"Books","tags":["travel","fx"],
"examples":["book a flight"]},{"id":"cancel","name":"Cancel","description":"Cancels","tags":["travel"]}]}`

// The results of agentregistry_agents for 200 agents, built by the model
// and, for comparison, by the framework's reflection (object_type.go).
func BenchmarkAgentsResults(b *testing.B) {
	a := &agentregistry.Agent{Name: "projects/p/locations/l/agents/a1", AgentId: "urn:a1", DisplayName: "A1",
		Card:       &agentregistry.Card{Content: googleapi.RawMessage(benchAgentCard)},
		Attributes: map[string]googleapi.RawMessage{frameworkKey: googleapi.RawMessage(`{"framework":"google-adk"}`)},
		Protocols: []*agentregistry.Protocol{{Type: "A2A_AGENT", ProtocolVersion: "0.3",
			Interfaces: []*agentregistry.Interface{{Url: "https://t.example.com/a2a", ProtocolBinding: "JSONRPC"}}}}}
	results := make([]agentsResultModel, 200)
	for i := range results {
		results[i] = agentsResultModel{flattenAgent(a), serviceIDsOf(a.Name, "projects/p/locations/l/services/s")}
	}
	b.Run("model", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			agentsResults.List(results)
		}
	})
	b.Run("ListValueFrom", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			if _, diags := types.ListValueFrom(context.Background(), agentsResults.ObjectType(), results); diags.HasError() {
				b.Fatal(diags)
			}
		}
	})
}
