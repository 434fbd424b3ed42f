package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"google.golang.org/api/agentregistry/v1"

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
