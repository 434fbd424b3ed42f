package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ datasource.DataSource              = (*bindingsDataSource)(nil)
	_ datasource.DataSourceWithConfigure = (*bindingsDataSource)(nil)
)

// NewBindingsDataSource is the agentregistry_bindings data source.
func NewBindingsDataSource() datasource.DataSource { return &bindingsDataSource{} }

type bindingsDataSource struct{ dataSourceBase }

type bindingsDataSourceModel struct {
	Filter     types.String `tfsdk:"filter"`
	MaxResults types.Int64  `tfsdk:"max_results"`
	Project    types.String `tfsdk:"project"`
	Location   types.String `tfsdk:"location"`
	Bindings   types.List   `tfsdk:"bindings"`
}

func (d *bindingsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_bindings"
}

func (d *bindingsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "Lists the registry's bindings (`bindings.list`), optionally narrowed by the API's `filter`, " +
			"following page tokens to the end, ordered by name." +
			"\n\n" + pageCapsDoc + "\n\n" + resultCapsDoc,
		Attributes: map[string]schema.Attribute{
			"filter": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: "The list filter (AIP-160), passed to the registry as is; every binding when unset. " +
					"Such as `target.identifier=\"urn:mcp:acme:travel:flights\"`. The bundled server takes the search " +
					"grammar over `name`, `displayName`, `description`, `source.identifier`, `target.identifier` and " +
					"`authProviderBinding.authProvider`.",
			},
			"max_results": dsMaxResultsAttribute("bindings"),
			"project":     dsProjectAttribute(),
			"location":    dsLocationAttribute(),
			"bindings":    dsBindingsAttribute("The bindings, ordered by `name`; an empty list when none matches."),
		},
	}
}

func (d *bindingsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m bindingsDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !d.configured(&resp.Diagnostics) {
		return
	}
	filter := m.Filter.ValueString()
	bs, err := d.data.Client.ListBindings(ctx, d.data.parent(m.Project, m.Location), filter, int(m.MaxResults.ValueInt64()))
	if err != nil {
		addSearchError(&resp.Diagnostics, "bindings", filter, err, "`max_results`, `source`, `target` or `filter`")
		return
	}
	var ok bool
	if m.Bindings, ok = dsBindingsValue(&resp.Diagnostics, bs, "`max_results`, `source`, `target` or `filter`"); !ok {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
