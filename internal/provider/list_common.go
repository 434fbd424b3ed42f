package provider

// What every list resource shares (`terraform query`, Terraform 1.14+): the
// provider data, the config attributes (project, location, filter, and query
// for the kinds the registry searches), the limit, the stream of results, and
// how a registry error becomes a diagnostic of the list block. Each kind is
// one list_*.go file. A result carries the resource's identity (its naming,
// resource_naming.go), a display name, and, with include_resource, the
// resource object exactly as Read stores it after an import, so that the
// configuration Terraform generates from it plans no change.

import (
	"context"
	"errors"
	"fmt"
	"iter"
	"net/http"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/list/schema"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-go/tftypes"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/termsafe"
)

// listPageSize is the registry's largest page.
const listPageSize = 100

// listBase is embedded by every list resource: the resource's base gives it
// the provider data (Configure), the naming and the type name (Metadata).
type listBase struct {
	resourceBase
	// plural names the records in messages, such as "agents".
	plural string
	// query is the search grammar of the `query` attribute, and search the
	// method that runs it ("agents:search"); nil and "" for a kind the
	// registry does not search.
	query  *searchquery.Schema
	search string
}

// listSchema is a list block's config: project, location and filter, and
// query for a kind the registry searches.
func (b *listBase) listSchema(description, filterDoc string) schema.Schema {
	attrs := map[string]schema.Attribute{
		"project": schema.StringAttribute{Optional: true,
			MarkdownDescription: "The project to list. Defaults to the provider's `project`."},
		"location": schema.StringAttribute{Optional: true,
			MarkdownDescription: "The registry location to list. Defaults to the provider's `location`."},
		"filter": schema.StringAttribute{Optional: true, MarkdownDescription: filterDoc +
			" The registry checks it: a field it does not filter on is an error of the list block, and nothing is listed."},
	}
	if b.query != nil {
		attrs["query"] = schema.StringAttribute{Optional: true, MarkdownDescription: "Lists only the " + b.plural +
			" that this search selects (`" + b.search + "`), in the grammar of the `agentregistry_" +
			b.naming.typeSuffix + "s` data source: bare words, `field:value`, `field=value`, a trailing `*`, `AND`, " +
			"`OR`, `NOT` and parentheses, over " + fieldList(b.query) + ". Checked before anything is sent, limits " +
			"included (" + fmt.Sprint(searchquery.MaxLength) + " characters, " + fmt.Sprint(searchquery.MaxTerms) +
			" terms, " + fmt.Sprint(searchquery.MaxDepth) + " levels of nesting). Combined with `filter`, both apply."}
	}
	return schema.Schema{MarkdownDescription: description + "\n\n" + pageCapsDoc + " With `include_resource`, " +
		"the lookup of each result's derived record is a paged read with the same caps.\n\n" + recordCapsDoc, Attributes: attrs}
}

// fieldList is a search grammar's fields in backticks.
func fieldList(s *searchquery.Schema) string {
	names := s.Names()
	for i, n := range names {
		names[i] = "`" + n + "`"
	}
	return strings.Join(names, ", ")
}

// ValidateListResourceConfig checks a known query against the search grammar,
// so that a malformed one fails before any request.
func (b *listBase) ValidateListResourceConfig(ctx context.Context, req list.ValidateConfigRequest, resp *list.ValidateConfigResponse) {
	if b.query == nil {
		return
	}
	var q types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("query"), &q)...)
	if q.IsNull() || q.IsUnknown() || q.ValueString() == "" {
		return
	}
	if _, err := searchquery.Parse(q.ValueString(), b.query); err != nil {
		resp.Diagnostics.AddAttributeError(path.Root("query"), "Invalid Search Query",
			invalidQueryDetail(q.ValueString(), err))
	}
}

// listConfig is a list block's config.
type listConfig struct {
	parent string
	filter string
	query  string
}

// readConfig decodes the list block's config; query is read only where the
// schema has it.
func (b *listBase) readConfig(ctx context.Context, cfg tfsdk.Config, diags *diag.Diagnostics) listConfig {
	var project, location, filter, query types.String
	diags.Append(cfg.GetAttribute(ctx, path.Root("project"), &project)...)
	diags.Append(cfg.GetAttribute(ctx, path.Root("location"), &location)...)
	diags.Append(cfg.GetAttribute(ctx, path.Root("filter"), &filter)...)
	if b.query != nil {
		diags.Append(cfg.GetAttribute(ctx, path.Root("query"), &query)...)
	}
	if diags.HasError() || b.data == nil {
		return listConfig{}
	}
	return listConfig{parent: b.data.parent(project, location), filter: filter.ValueString(), query: query.ValueString()}
}

// listStream is one List call: it turns records into results until the
// limit is reached or Terraform stops reading.
type listStream struct {
	ctx  context.Context
	req  list.ListRequest
	push func(list.ListResult) bool
	// left is how many more results Terraform expects.
	left   int64
	naming naming
}

// emit sends the result for the record with this full name; fill, called
// only with include_resource and a record within the caps of what a read
// keeps (record_caps.go), sets the resource object. It reports whether the
// stream wants more.
func (s *listStream) emit(name, displayName string, record any, fill func(*tfsdk.Resource) diag.Diagnostics) bool {
	result := s.req.NewListResult(s.ctx)
	// The registry's strings reach the terminal that `terraform query` prints
	// to: no control character or escape sequence of theirs goes through.
	result.DisplayName = termsafe.Line(displayName)
	if result.DisplayName == "" {
		result.DisplayName = termsafe.Line(lastSegment(name))
	}
	result.Diagnostics.Append(s.naming.setIdentityOf(s.ctx, result.Identity, name)...)
	if s.req.IncludeResource && !result.Diagnostics.HasError() && withinRecordCaps(&result.Diagnostics, name, record) {
		result.Resource.Raw = allNull(result.Resource.Raw.Type())
		result.Diagnostics.Append(fill(result.Resource)...)
	}
	s.left--
	return s.push(result) && s.left > 0 && !result.Diagnostics.HasError()
}

// allNull is an object of the type with every attribute null, which a model
// is read from and then filled in as Read fills in the state an import left.
func allNull(t tftypes.Type) tftypes.Value {
	obj, ok := t.(tftypes.Object)
	if !ok { // not reached: a resource's type is an object
		return tftypes.NewValue(t, nil)
	}
	vals := make(map[string]tftypes.Value, len(obj.AttributeTypes))
	for name, at := range obj.AttributeTypes {
		vals[name] = tftypes.NewValue(at, nil)
	}
	return tftypes.NewValue(obj, vals)
}

// fillFrom is the fill of a model read from the null resource, set up by
// setup as ImportState leaves it, and refreshed by refresh as Read does.
func fillFrom[M any](ctx context.Context, setup func(*M), refresh func(*M) diag.Diagnostics) func(*tfsdk.Resource) diag.Diagnostics {
	return func(res *tfsdk.Resource) diag.Diagnostics {
		m := new(M)
		diags := res.Get(ctx, m)
		if diags.HasError() {
			return diags
		}
		setup(m)
		diags.Append(refresh(m)...)
		if !diags.HasError() {
			diags.Append(res.Set(ctx, m)...)
		}
		return diags
	}
}

// run starts the List call: it checks the provider and the limit, decodes
// the config, and streams what walk emits. walk returns the registry's error,
// which ends the stream as a diagnostic of the list block.
func (b *listBase) run(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream,
	walk func(s *listStream, cfg listConfig) error) {
	var diags diag.Diagnostics
	if b.data == nil || b.data.Client == nil {
		addNotConfigured(&diags, "this list resource")
	}
	if req.Limit < 0 {
		diags.AddError("Invalid List Limit", fmt.Sprintf("The list of %s was asked for at most %d results; the "+
			"limit must be 0 or more. Set the list block's limit to a positive number, or leave it out.", b.plural, req.Limit))
	}
	cfg := b.readConfig(ctx, req.Config, &diags)
	if diags.HasError() {
		stream.Results = list.ListResultsStreamDiagnostics(diags)
		return
	}
	if req.Limit == 0 {
		stream.Results = list.NoListResults // Terraform reads nothing
		return
	}
	stream.Results = func(push func(list.ListResult) bool) {
		s := &listStream{ctx: ctx, req: req, push: push, left: req.Limit, naming: b.naming}
		if err := walk(s, cfg); err != nil {
			push(list.ListResult{Diagnostics: b.listError(cfg, err)})
		}
	}
}

// emitPages emits the records of every page until the stream wants no more;
// emit sends one record (or skips it) and says whether to go on. The error is
// the registry's.
func emitPages[T any](seq iter.Seq2[[]T, error], emit func(T) (more bool, err error)) error {
	for page, err := range seq {
		if err != nil {
			return err
		}
		for _, item := range page {
			if more, err := emit(item); err != nil || !more {
				return err
			}
		}
	}
	return nil
}

// pageSize is the page to ask for: the registry's largest, or less when
// fewer results are expected.
func (s *listStream) pageSize() int64 { return min(s.left, listPageSize) }

// listError is the diagnostic of a list the registry refused or could not
// answer, with what to do about it.
func (b *listBase) listError(cfg listConfig, err error) diag.Diagnostics {
	var diags diag.Diagnostics
	narrow := "the list block's `limit` or `filter`"
	if b.query != nil {
		narrow = "the list block's `limit`, `filter` or `query`"
	}
	if addPageLimitError(&diags, "the "+b.plural+" of "+cfg.parent, err, narrow) {
		return diags
	}
	var ae *registryclient.APIError
	isAPI := errors.As(err, &ae)
	field := ""
	if isAPI && len(ae.FieldViolations) > 0 {
		field = ae.FieldViolations[0].Field
	}
	badInput := isAPI && ae.Code == http.StatusBadRequest && (field == "filter" || field == "search_string" || field == "searchString")
	switch {
	case badInput && (field == "filter" || cfg.query == ""):
		diags.AddError("Invalid List Filter", fmt.Sprintf("The registry refused the filter %q of the list of %s: %s\n\n"+
			"Fix the list block's filter (its fields are in the list resource's documentation), or leave it out. "+
			"Nothing was listed.", cfg.filter, b.plural, ae.Message))
	case badInput:
		diags.AddError("Invalid Search Query", fmt.Sprintf("The registry refused the query %q of the list of %s: %s\n\n"+
			"Fix the list block's query. Nothing was listed.", cfg.query, b.plural, ae.Message))
	case isAPI && ae.Code == http.StatusNotFound:
		diags.AddError("Registry Location Not Found", fmt.Sprintf("The registry has no %s (%s), so it has no %s "+
			"to list: %s\n\nCheck the list block's project and location, or the provider's (`project`, `location`, "+
			"AGENTREGISTRY_PROJECT, AGENTREGISTRY_LOCATION).", cfg.parent, ae.Status, b.plural, ae.Message))
	default:
		diags.AddError("Cannot List "+dsTitle(b.plural), apiErrorDetail("list the "+b.plural+" of", cfg.parent, err))
	}
	return diags
}
