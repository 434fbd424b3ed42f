package provider

import (
	"context"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"
)

var (
	_ datasource.DataSource              = (*mcpServersDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*mcpServersDataSource)(nil)
)

// NewMcpServersDataSource is the agentregistry_mcp_servers data source.
func NewMcpServersDataSource() datasource.DataSource { return &mcpServersDataSource{} }

type mcpServersDataSource struct{ dataSourceBase }

type mcpServersDataSourceModel struct {
	Query      types.String `tfsdk:"query"`
	MaxResults types.Int64  `tfsdk:"max_results"`
	Project    types.String `tfsdk:"project"`
	Location   types.String `tfsdk:"location"`
	McpServers types.List   `tfsdk:"mcp_servers"`
}

// mcpServerResultModel is one McpServer record, as agentregistry_mcp_server
// returns it.
type mcpServerResultModel struct {
	Name        string `tfsdk:"name"`
	McpServerID string `tfsdk:"mcp_server_id"`
	URN         string `tfsdk:"urn"`
	DisplayName string `tfsdk:"display_name"`
	Description string `tfsdk:"description"`
	interfacesModel
	Tools      []toolModel `tfsdk:"tools"`
	CreateTime string      `tfsdk:"create_time"`
	UpdateTime string      `tfsdk:"update_time"`
	attributesModel
}

var mcpServerResults = modelOf[mcpServerResultModel]()

// mcpServersResultModel is one result of agentregistry_mcp_servers: an MCP
// server, and the service that registered it.
type mcpServersResultModel struct {
	mcpServerResultModel
	serviceIDsModel
}

var mcpServersResults = modelOf[mcpServersResultModel]()

func (d *mcpServersDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_mcp_servers"
}

func (d *mcpServersDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Searches the registry's MCP servers (`mcpServers:search`) and returns every match, " +
			"following page tokens to the end, ordered by name.\n\n" + dsSameConfigurationNote("MCP servers") +
			"\n\n" + pageCapsDoc + "\n\n" + resultCapsDoc,
		Attributes: map[string]schema.Attribute{
			"query": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: dsSearchGrammarDescription("MCP servers",
					"`mcpServerId`, `name`, `displayName`, `description`, `tools`, `tools.name`, `tools.description`", "tools.name:file* AND displayName:storage*") +
					" Omit it (or set it to null) to list every MCP server of `project` and `location` (`mcpServers.list`).",
			},
			"max_results": dsMaxResultsAttribute("MCP servers"),
			"project":     dsProjectAttribute(),
			"location":    dsLocationAttribute(),
			"mcp_servers": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The matching MCP servers, ordered by `name`; an empty list when nothing matches. " + dsIDsNote("mcp_server"),
				NestedObject:        schema.NestedAttributeObject{Attributes: withServiceIDAttributes(mcpServersResultAttributes(), "agentregistry_mcp_server")},
			},
		},
	}
}

func (d *mcpServersDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m mcpServersDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !d.configured(&resp.Diagnostics) {
		return
	}
	query := m.Query.ValueString()
	parent := d.data.parent(m.Project, m.Location)
	var servers []*agentregistry.McpServer
	var err error
	if query == "" {
		servers, err = d.data.Client.ListMcpServers(ctx, parent, "", int(m.MaxResults.ValueInt64()))
	} else {
		servers, err = d.data.Client.SearchMcpServers(ctx, parent, query, int(m.MaxResults.ValueInt64()))
	}
	if err != nil {
		addSearchError(&resp.Diagnostics, "MCP servers", query, err, "`max_results` or a narrower `query`")
		return
	}
	services := map[string]string{}
	if len(servers) > 0 {
		if services, err = d.serviceIndex(ctx, parent); err != nil {
			addSearchError(&resp.Diagnostics, "MCP servers", query, err, "`max_results` or a narrower `query`")
			return
		}
	}
	sort.SliceStable(servers, func(i, j int) bool { return servers[i].Name < servers[j].Name })
	results := make([]mcpServersResultModel, 0, len(servers))
	for _, s := range servers {
		results = append(results, mcpServersResultModel{flattenMcpServer(s), serviceIDsOf(s.Name, services[s.Name])})
	}
	if !withinResultCaps(&resp.Diagnostics, "MCP servers", results, "`max_results` or a narrower `query`") {
		return
	}
	m.McpServers = mcpServersResults.List(results)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

func flattenMcpServer(s *agentregistry.McpServer) mcpServerResultModel {
	tools := []toolModel{}
	for _, t := range s.Tools {
		if t != nil {
			tools = append(tools, flattenTool(t))
		}
	}
	return mcpServerResultModel{
		Name:            s.Name,
		McpServerID:     s.McpServerId,
		URN:             s.McpServerId,
		DisplayName:     s.DisplayName,
		Description:     s.Description,
		interfacesModel: flattenInterfaces(s.Interfaces),
		Tools:           tools,
		CreateTime:      s.CreateTime,
		UpdateTime:      s.UpdateTime,
		attributesModel: flattenAttributes(s.Attributes),
	}
}

// mcpServerResultAttributes are the attributes of one MCP server that the
// data sources return (each of agentregistry_mcp_servers, and the singular
// agentregistry_mcp_server).
func mcpServerResultAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"name": schema.StringAttribute{Computed: true,
			MarkdownDescription: "Full resource name, `projects/{project}/locations/{location}/mcpServers/{service_id}`, named after the service that registered it."},
		"mcp_server_id": schema.StringAttribute{Computed: true, MarkdownDescription: "The MCP server's `mcpServerId`, its stable, globally unique URN (the `mcp_server_id` of the `agentregistry_mcp_server` resource that registered it), which a binding's `target` takes."},
		"urn":           dsURNAttribute("MCP server", "mcp_server_id", "google_agent_registry_mcp_server"),
		"attributes":    dsAttributesAttribute("MCP server"),
		"display_name":  schema.StringAttribute{Computed: true, MarkdownDescription: "Display name."},
		"description":   schema.StringAttribute{Computed: true, MarkdownDescription: "Description."},
		"urls": schema.ListAttribute{Computed: true, ElementType: types.StringType,
			MarkdownDescription: "The URLs of `interfaces`, in order."},
		"interfaces":      dsInterfacesAttribute("Endpoints of the MCP server."),
		"create_time":     schema.StringAttribute{Computed: true, MarkdownDescription: "When the MCP server was registered (RFC 3339)."},
		"update_time":     schema.StringAttribute{Computed: true, MarkdownDescription: "When the MCP server was last updated (RFC 3339)."},
		"attributes_json": dsAttributesJSONAttribute("MCP server"),
		"tools": schema.ListNestedAttribute{
			Computed:            true,
			MarkdownDescription: "The server's MCP tools, in tool-spec order.",
			NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
				"name":             schema.StringAttribute{Computed: true, MarkdownDescription: "Tool name."},
				"title":            schema.StringAttribute{Computed: true, MarkdownDescription: "Human-readable title (`annotations.title`); empty when absent."},
				"description":      schema.StringAttribute{Computed: true, MarkdownDescription: "What the tool does."},
				"read_only_hint":   schema.BoolAttribute{Computed: true, MarkdownDescription: "`annotations.readOnlyHint` (MCP default `false`)."},
				"destructive_hint": schema.BoolAttribute{Computed: true, MarkdownDescription: "`annotations.destructiveHint` (MCP default `true`)."},
				"idempotent_hint":  schema.BoolAttribute{Computed: true, MarkdownDescription: "`annotations.idempotentHint` (MCP default `false`)."},
				"open_world_hint":  schema.BoolAttribute{Computed: true, MarkdownDescription: "`annotations.openWorldHint` (MCP default `true`)."},
			}},
		},
	}
}

// dsInterfacesAttribute is a computed list of interfaces (url, protocol_binding).
func dsInterfacesAttribute(description string) schema.ListNestedAttribute {
	return schema.ListNestedAttribute{
		Computed:            true,
		MarkdownDescription: description,
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"url":              schema.StringAttribute{Computed: true, MarkdownDescription: "Endpoint URL."},
			"protocol_binding": schema.StringAttribute{Computed: true, MarkdownDescription: "Protocol binding, such as `JSONRPC`; empty when unspecified."},
		}},
	}
}

// interfacesModel is how to reach an MCP server or an endpoint: its
// interfaces, and their URLs alone.
type interfacesModel struct {
	URLs       []string         `tfsdk:"urls"`
	Interfaces []interfaceModel `tfsdk:"interfaces"`
}

func flattenInterfaces(in []*agentregistry.Interface) interfacesModel {
	out := interfacesModel{URLs: []string{}, Interfaces: []interfaceModel{}}
	for _, i := range in {
		if i != nil {
			out.URLs = append(out.URLs, i.Url)
			out.Interfaces = append(out.Interfaces, interfaceModel{URL: types.StringValue(i.Url), ProtocolBinding: types.StringValue(i.ProtocolBinding)})
		}
	}
	return out
}

// mcpServersResultAttributes are the attributes of one MCP server of the
// search, with the record's name described as what it is.
func mcpServersResultAttributes() map[string]schema.Attribute {
	attrs := mcpServerResultAttributes()
	attrs["name"] = schema.StringAttribute{Computed: true, MarkdownDescription: dsRecordNameDescription("MCP server", "mcpServers")}
	return attrs
}
