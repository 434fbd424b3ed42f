package provider

import (
	"context"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ datasource.DataSource              = (*endpointsDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*endpointsDataSource)(nil)
)

// NewEndpointsDataSource is the agentregistry_endpoints data source.
func NewEndpointsDataSource() datasource.DataSource { return &endpointsDataSource{} }

type endpointsDataSource struct{ dataSourceBase }

type endpointsDataSourceModel struct {
	Filter     types.String `tfsdk:"filter"`
	MaxResults types.Int64  `tfsdk:"max_results"`
	Project    types.String `tfsdk:"project"`
	Location   types.String `tfsdk:"location"`
	Endpoints  types.List   `tfsdk:"endpoints"`
}

func (d *endpointsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_endpoints"
}

func (d *endpointsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the registry's endpoints (`endpoints.list`), optionally narrowed by the API's " +
			"`filter`, following page tokens to the end, ordered by name." +
			"\n\n" + pageCapsDoc + "\n\n" + resultCapsDoc,
		Attributes: map[string]schema.Attribute{
			"filter": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "The list filter (AIP-160), passed to the registry as is; every endpoint when unset. " +
					"Such as `displayName=\"Billing API\"`. The bundled server takes the search grammar over " +
					"`endpointId`, `name`, `displayName`, `description`, `interfaces.url` and `interfaces.protocolBinding`.",
			},
			"max_results": dsMaxResultsAttribute("endpoints"),
			"project":     dsProjectAttribute(),
			"location":    dsLocationAttribute(),
			"endpoints": schema.ListNestedAttribute{
				Computed:            true,
				MarkdownDescription: "The endpoints, ordered by `name`; an empty list when none matches.",
				NestedObject:        schema.NestedAttributeObject{Attributes: endpointResultAttributes()},
			},
		},
	}
}

func (d *endpointsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m endpointsDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !d.configured(&resp.Diagnostics) {
		return
	}
	filter := m.Filter.ValueString()
	eps, err := d.data.Client.ListEndpoints(ctx, d.data.parent(m.Project, m.Location), filter, int(m.MaxResults.ValueInt64()))
	if err != nil {
		addSearchError(&resp.Diagnostics, "endpoints", filter, err, "`max_results` or a narrower `filter`")
		return
	}
	sort.SliceStable(eps, func(i, j int) bool { return eps[i].Name < eps[j].Name })
	results := make([]endpointResultModel, 0, len(eps))
	for _, e := range eps {
		results = append(results, flattenEndpoint(e))
	}
	if !withinResultCaps(&resp.Diagnostics, "endpoints", results, "`max_results` or a narrower `filter`") {
		return
	}
	m.Endpoints = endpointResults.List(results)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
