package provider

import (
	"context"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"
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
		{"agentregistry_agent", dataSourceSchemaType(t, NewAgentDataSource(), selector...), agentResultObjectType},
		{"agentregistry_agents", attrOf(NewAgentsDataSource(), "agents"), list(agentsResultObjectType)},
		{"agentregistry_mcp_server", dataSourceSchemaType(t, NewMcpServerDataSource(), selector...), mcpServerResultObjectType},
		{"agentregistry_mcp_servers", attrOf(NewMcpServersDataSource(), "mcp_servers"), list(mcpServersResultObjectType)},
		{"agentregistry_endpoint", dataSourceSchemaType(t, NewEndpointDataSource(), selector...), endpointResultObjectType},
		{"agentregistry_endpoints", attrOf(NewEndpointsDataSource(), "endpoints"), list(endpointResultObjectType)},
		{"agentregistry_bindings", attrOf(NewBindingsDataSource(), "bindings"), list(bindingResultObjectType)},
		{"agentregistry_available_bindings", attrOf(NewAvailableBindingsDataSource(), "bindings"), list(bindingResultObjectType)},
		{"agentregistry_skills", attrOf(NewSkillsDataSource(), "skills"), list(skillsResultObjectType)},
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

// A record with nothing set flattens to empty lists and maps, never null ones
// (a nil slice or map in a model is null), and to null for what the schema
// says is null when absent.
func TestDataSourceModels_emptyRecordIsEmptyNotNull(t *testing.T) {
	ctx := context.Background()
	tests := []struct {
		name     string
		typ      types.ObjectType
		model    any
		wantNull map[string]bool
	}{
		{"agent", agentResultObjectType, flattenAgent(&agentregistry.Agent{}), map[string]bool{"framework": true, "attributes_json": true}},
		{"agents result", agentsResultObjectType, agentsResultModel{flattenAgent(&agentregistry.Agent{}), serviceIDsOf("", "")},
			map[string]bool{"framework": true, "attributes_json": true, "service_id": true, "project": true, "location": true}},
		{"MCP server", mcpServerResultObjectType, flattenMcpServer(&agentregistry.McpServer{}), map[string]bool{"attributes_json": true}},
		{"endpoint", endpointResultObjectType, flattenEndpoint(&agentregistry.Endpoint{}), map[string]bool{"attributes_json": true}},
		{"binding", bindingResultObjectType, flattenBinding(&agentregistry.Binding{}), nil},
		{"standalone skill", skillsResultObjectType, flattenStandaloneSkill(&agentregistry.Skill{}),
			map[string]bool{"agent_name": true, "agent_id": true, "agent_display_name": true}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			obj, diags := types.ObjectValueFrom(ctx, tt.typ.AttrTypes, tt.model)
			if diags.HasError() {
				t.Fatal(diags)
			}
			for name, v := range obj.Attributes() {
				if v.IsNull() != tt.wantNull[name] {
					t.Errorf("%s is %s; want null: %v", name, v, tt.wantNull[name])
				}
			}
		})
	}
}
