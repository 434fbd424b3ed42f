package provider

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/googleapi"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
)

var (
	_ datasource.DataSource                     = (*endpointDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*endpointDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*endpointDataSource)(nil)
)

// NewEndpointDataSource is the agentregistry_endpoint data source.
func NewEndpointDataSource() datasource.DataSource { return &endpointDataSource{} }

type endpointDataSource struct{ dataSourceBase }

var endpointLookup = derivedLookup{title: "Endpoint", noun: "endpoint", collection: "endpoints", plural: "agentregistry_endpoints",
	find: func(ctx context.Context, c *registryclient.Client, parent, filter string, limit int) ([]string, error) {
		return namesBy(func(r *agentregistry.Endpoint) string { return r.Name })(c.ListEndpoints(ctx, parent, filter, limit))
	}}

// endpointResultModel is one Endpoint record.
type endpointResultModel struct {
	Name        string `tfsdk:"name"`
	EndpointID  string `tfsdk:"endpoint_id"`
	URN         string `tfsdk:"urn"`
	DisplayName string `tfsdk:"display_name"`
	Description string `tfsdk:"description"`
	interfacesModel
	CreateTime string `tfsdk:"create_time"`
	UpdateTime string `tfsdk:"update_time"`
	attributesModel
}

var endpointResults = modelOf[endpointResultModel]()

// endpointResultAttributes are the attributes of one Endpoint record that the
// data sources return.
func endpointResultAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"name": schema.StringAttribute{Computed: true,
			MarkdownDescription: "Full resource name, `projects/{project}/locations/{location}/endpoints/{service_id}`, named after the service that registered it."},
		"endpoint_id":  schema.StringAttribute{Computed: true, MarkdownDescription: "The endpoint's `endpointId`, its stable, globally unique URN (the `endpoint_id` of the `agentregistry_endpoint` resource that registered it), which a binding's `target` takes."},
		"urn":          dsURNAttribute("endpoint", "endpoint_id", "google_agent_registry_endpoint"),
		"attributes":   dsAttributesAttribute("endpoint"),
		"display_name": schema.StringAttribute{Computed: true, MarkdownDescription: "Display name."},
		"description":  schema.StringAttribute{Computed: true, MarkdownDescription: "Description."},
		"urls": schema.ListAttribute{Computed: true, ElementType: types.StringType,
			MarkdownDescription: "The URLs of `interfaces`, in order."},
		"interfaces":      dsInterfacesAttribute("How to reach the endpoint."),
		"create_time":     schema.StringAttribute{Computed: true, MarkdownDescription: "When the endpoint was registered (RFC 3339)."},
		"update_time":     schema.StringAttribute{Computed: true, MarkdownDescription: "When the endpoint was last updated (RFC 3339)."},
		"attributes_json": dsAttributesJSONAttribute("endpoint"),
	}
}

func flattenEndpoint(e *agentregistry.Endpoint) endpointResultModel {
	return endpointResultModel{
		Name:            e.Name,
		EndpointID:      e.EndpointId,
		URN:             e.EndpointId,
		DisplayName:     e.DisplayName,
		Description:     e.Description,
		interfacesModel: flattenInterfaces(e.Interfaces),
		CreateTime:      e.CreateTime,
		UpdateTime:      e.UpdateTime,
		attributesModel: flattenAttributes(e.Attributes),
	}
}

func (d *endpointDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_endpoint"
}

func (d *endpointDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Reads one endpoint of the registry (the derived `Endpoint` record), by its resource name or " +
			"by the id of the service that registered it. A missing endpoint is an error (`Endpoint Not Found`); use " +
			"`agentregistry_endpoints` to test whether endpoints exist." +
			"\n\n" + pageCapsDoc + "\n\n" + resultCapsDoc,
		Attributes: endpointLookup.selectorAttributes(endpointResultAttributes()),
	}
}

func (d *endpointDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return endpointLookup.configValidators()
}

func (d *endpointDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	sel := readSelector(ctx, req.Config, &resp.Diagnostics)
	if resp.Diagnostics.HasError() || !d.configured(&resp.Diagnostics) {
		return
	}
	name := endpointLookup.resolve(ctx, d.data, sel, &resp.Diagnostics)
	if name == "" {
		return
	}
	e, err := d.data.Client.GetEndpoint(ctx, name)
	if err != nil {
		endpointLookup.readError(&resp.Diagnostics, name, err)
		return
	}
	result := flattenEndpoint(e)
	if !withinResultCaps(&resp.Diagnostics, name, result, "") {
		return
	}
	resp.Diagnostics.Append(setLookupResult(ctx, &resp.State, sel, endpointResults.Object(result))...)
}

// dsAttributesJSONAttribute is a record's output-only `attributes` map (such
// as agentregistry.googleapis.com/system/RuntimeReference) as canonical JSON.
func dsAttributesJSONAttribute(what string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true,
		MarkdownDescription: "The " + what + "'s output-only `attributes` (such as " +
			"`agentregistry.googleapis.com/system/RuntimeReference`, the resource hosting it), as canonical JSON; null " +
			"when it has none. `jsondecode` it for the values."}
}

// dsAttributesJSON is attributes as canonical JSON, null when empty.
func dsAttributesJSON(attrs map[string]googleapi.RawMessage) types.String {
	if len(attrs) == 0 {
		return types.StringNull()
	}
	b, err := json.Marshal(attrs)
	if err == nil {
		b, err = jsoncanon.Canonical(b)
	}
	if err != nil {
		return types.StringNull()
	}
	return types.StringValue(string(b))
}
