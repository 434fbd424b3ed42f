package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

var (
	_ datasource.DataSource                     = (*availableBindingsDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*availableBindingsDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*availableBindingsDataSource)(nil)
)

// NewAvailableBindingsDataSource is the agentregistry_available_bindings data source.
func NewAvailableBindingsDataSource() datasource.DataSource { return &availableBindingsDataSource{} }

type availableBindingsDataSource struct{ dataSourceBase }

type availableBindingsDataSourceModel struct {
	Source     types.String `tfsdk:"source"`
	Target     types.String `tfsdk:"target"`
	MaxResults types.Int64  `tfsdk:"max_results"`
	Project    types.String `tfsdk:"project"`
	Location   types.String `tfsdk:"location"`
	Bindings   types.List   `tfsdk:"bindings"`
}

func (d *availableBindingsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_available_bindings"
}

func (d *availableBindingsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resp.Schema = schema.Schema{
		MarkdownDescription: "The bindings available to a source agent, optionally towards one target " +
			"(`bindings:fetchAvailable`), following page tokens to the end, ordered by name. The bundled server " +
			"returns the bindings whose source is the given agent or unset, narrowed to `target` when given." +
			"\n\n" + pageCapsDoc + "\n\n" + resultCapsDoc,
		Attributes: map[string]schema.Attribute{
			"source": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "The source agent, " + agentURNShape + ". At least one of `source` and `target` is required.",
				Validators:          []validator.String{stringvalidator.RegexMatches(agentURNRE, "must be "+agentURNShape)},
			},
			"target": schema.StringAttribute{
				Optional:            true,
				MarkdownDescription: "The target, " + targetURNShape + ".",
				Validators:          []validator.String{stringvalidator.RegexMatches(targetURNRE, "must be "+targetURNShape)},
			},
			"max_results": dsMaxResultsAttribute("bindings"),
			"project":     dsProjectAttribute(),
			"location":    dsLocationAttribute(),
			"bindings":    dsBindingsAttribute("The available bindings, ordered by `name`; an empty list when none is."),
		},
	}
}

func (d *availableBindingsDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{datasourcevalidator.AtLeastOneOf(path.MatchRoot("source"), path.MatchRoot("target"))}
}

func (d *availableBindingsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m availableBindingsDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !d.configured(&resp.Diagnostics) {
		return
	}
	bs, err := d.data.Client.FetchAvailableBindings(ctx, d.data.parent(m.Project, m.Location),
		m.Source.ValueString(), m.Target.ValueString(), int(m.MaxResults.ValueInt64()))
	if err != nil && addPageLimitError(&resp.Diagnostics, "available bindings", err, "`max_results`, or a `source` or `target` that selects fewer") {
		return
	}
	if err != nil {
		resp.Diagnostics.AddError("Cannot Fetch Available Bindings", apiErrorDetail("fetch available bindings in",
			d.data.parent(m.Project, m.Location), err))
		return
	}
	var ok bool
	if m.Bindings, ok = dsBindingsValue(&resp.Diagnostics, bs, "`max_results`, or a `source` or `target` that selects fewer"); !ok {
		return
	}
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}
