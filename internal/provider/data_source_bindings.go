package provider

import (
	"context"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"
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

// bindingResultModel is one Binding record.
type bindingResultModel struct {
	Name         string   `tfsdk:"name"`
	BindingID    string   `tfsdk:"binding_id"`
	DisplayName  string   `tfsdk:"display_name"`
	Description  string   `tfsdk:"description"`
	Source       string   `tfsdk:"source"`
	Target       string   `tfsdk:"target"`
	AuthProvider string   `tfsdk:"auth_provider"`
	Scopes       []string `tfsdk:"scopes"`
	ContinueURI  string   `tfsdk:"continue_uri"`
	CreateTime   string   `tfsdk:"create_time"`
	UpdateTime   string   `tfsdk:"update_time"`
}

var bindingResults = modelOf[bindingResultModel]()

// dsBindingsAttribute is the computed list of bindings the binding data sources return.
func dsBindingsAttribute(description string) schema.ListNestedAttribute {
	str := func(d string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: d}
	}
	return schema.ListNestedAttribute{
		Computed:            true,
		MarkdownDescription: description,
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"name":          str("Full resource name, `projects/{project}/locations/{location}/bindings/{binding_id}`."),
			"binding_id":    str("The binding's id, the last segment of `name`."),
			"display_name":  str("Display name."),
			"description":   str("Description."),
			"source":        str("The source agent's URN; empty when the binding is available to every agent."),
			"target":        str("The target agent's, MCP server's or endpoint's URN."),
			"auth_provider": str("The auth provider's name; empty when the binding has none."),
			"scopes":        schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "The OAuth 2.0 scopes, in order."},
			"continue_uri":  str("The auth provider's continue URI; empty when unset."),
			"create_time":   str("When the binding was created (RFC 3339)."),
			"update_time":   str("When the binding was last updated (RFC 3339)."),
		}},
	}
}

// dsBindingsValue converts bindings, sorted by name, to their list; ok is
// false when they pass the result caps (an error in diags says which, and
// narrow what narrows the read).
func dsBindingsValue(diags *diag.Diagnostics, bs []*agentregistry.Binding, narrow string) (list types.List, ok bool) {
	sort.SliceStable(bs, func(i, j int) bool { return bs[i].Name < bs[j].Name })
	models := make([]bindingResultModel, 0, len(bs))
	for _, b := range bs {
		models = append(models, flattenBinding(b))
	}
	if !withinResultCaps(diags, "bindings", models, narrow) {
		return list, false
	}
	return bindingResults.List(models), true
}

func flattenBinding(b *agentregistry.Binding) bindingResultModel {
	m := bindingResultModel{Name: b.Name, BindingID: lastSegment(b.Name), DisplayName: b.DisplayName, Description: b.Description,
		Scopes: []string{}, CreateTime: b.CreateTime, UpdateTime: b.UpdateTime}
	if b.Source != nil {
		m.Source = b.Source.Identifier
	}
	if b.Target != nil {
		m.Target = b.Target.Identifier
	}
	if a := b.AuthProviderBinding; a != nil {
		m.AuthProvider, m.Scopes, m.ContinueURI = a.AuthProvider, orEmpty(a.Scopes), a.ContinueUri
	}
	return m
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
