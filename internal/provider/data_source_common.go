package provider

// What the data sources share: provider data, common attributes and
// descriptions, search errors. What they return is in data_source_models.go.

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/termsafe"
)

// dataSourceBase receives the provider's data in Configure.
type dataSourceBase struct {
	data *providerData
}

func (b *dataSourceBase) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if data := providerDataFrom(req.ProviderData, &resp.Diagnostics); data != nil {
		b.data = data
	}
}

func (b *dataSourceBase) configured(diags *diag.Diagnostics) bool {
	if b.data == nil || b.data.Client == nil {
		addNotConfigured(diags, "this data source")
		return false
	}
	return true
}

func dsSearchGrammarDescription(kind, fields, example string) string {
	return "Search string in the registry's grammar: bare words (searched in every field), `field:value` " +
		"(the value's words occur in the field), `field=value` (the whole value, case-insensitively), a trailing " +
		"`*` for a prefix, `AND` (or juxtaposition), `OR`, `NOT` and parentheses. Searchable fields of " + kind +
		": " + fields + ". Example: `" + example + "`."
}

func dsMaxResultsAttribute(what string) schema.Int64Attribute {
	return schema.Int64Attribute{
		Optional:            true,
		MarkdownDescription: "Return at most this many " + what + " (at least 1). Without it, every match is returned.",
		Validators:          []validator.Int64{int64validator.AtLeast(1)},
	}
}

func dsProjectAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional:            true,
		MarkdownDescription: "Project to search. Defaults to the provider's `project`.",
	}
}

func dsLocationAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional:            true,
		MarkdownDescription: "Location to search. Defaults to the provider's `location`.",
	}
}

// addSearchError turns a failed search into a diagnostic: a rejected query is
// "Invalid Search Query" with the registry's explanation, and a read stopped
// at a page cap says which attributes narrow it (narrow).
func addSearchError(diags *diag.Diagnostics, what, query string, err error, narrow string) {
	if addPageLimitError(diags, what, err, narrow) {
		return
	}
	var ae *registryclient.APIError
	if errors.As(err, &ae) && (ae.Status == "INVALID_ARGUMENT" || (ae.Status == "" && ae.Code == 400)) {
		diags.AddError("Invalid Search Query",
			fmt.Sprintf("The registry rejected the search query %q: %s\n\nFix the query: bare words, field:value, "+
				"field=value, a trailing *, AND, OR, NOT and parentheses.", query, ae.Message))
		return
	}
	detail := fmt.Sprintf("Searching %s for %q failed: %s", what, query, termsafe.Text(err.Error()))
	if hint := errorHint("search", what, err); hint != "" {
		detail += "\n\n" + hint
	}
	diags.AddError("Cannot Search "+dsTitle(what), detail)
}

func dsTitle(what string) string {
	switch what {
	case "agents":
		return "Agents"
	case "skills":
		return "Skills"
	case "MCP servers":
		return "MCP Servers"
	case "endpoints":
		return "Endpoints"
	case "bindings":
		return "Bindings"
	}
	return what
}

func dsSortAgents(agents []*agentregistry.Agent) {
	sort.SliceStable(agents, func(i, j int) bool { return agents[i].Name < agents[j].Name })
}

// dsSameConfigurationNote is the part of a search data source's page that
// says when to use it and when provider::agentregistry::search_cards.
func dsSameConfigurationNote(what string) string {
	own := "search its own cards with the function `provider::agentregistry::search_cards` instead: the same " +
		"grammar, evaluated by the same code as the registry's search, with a result known at plan. "
	if what != "agents" {
		own = "filter its own resources instead (a `for` expression over them: their `tool_names`, `display_name` " +
			"and ids are known at plan). "
	}
	return "**For what other configurations registered.** To find among the " + what + " that this configuration " +
		"registers itself, " + own +
		"A data source that reads what the same configuration registers needs `depends_on` on those resources (without " +
		"it, the first apply reads before they exist and finds nothing), and `depends_on` defers the read to apply " +
		"time whenever one of them has a pending change: its result is then unknown at plan, so it **cannot drive " +
		"`for_each` or `count`** (\"Invalid for_each argument\"), and every resource that uses it plans an update that " +
		"does nothing (`(known after apply)`), which a drift job reports as a change. Read " + what + " registered " +
		"by another root module with a data source and no `depends_on`: the read then runs at plan and changes only " +
		"when the registry does."
}

// dsRecordNameDescription describes the name of a derived record.
func dsRecordNameDescription(noun, collection string) string {
	return "The " + noun + "'s resource name, `projects/{project}/locations/{location}/" + collection + "/{id}`: the " +
		"read-only record the registry derives from the service that registered it (that service's " +
		"`registryResource`). Its `{id}` is the registry's: the bundled server uses the service id, Google's registry " +
		"may not; an import or a reference to the registering resource takes `service_id`."
}

// dsIDsNote says how the ids of a search result relate.
func dsIDsNote(kind string) string {
	return "Each result names its record three ways: `service_id` (with `project` and `location`) is the service " +
		"that registered it, the `service_id` of the `agentregistry_" + kind + "` resource and of its import identity; " +
		"`name` is the derived record's resource name (that resource's `registry_resource`); `" + kind + "_id` (also " +
		"`urn`) is the registry's URN, the resource's `" + kind + "_id`, which a binding's `source` and `target` take."
}

func invalidQueryDetail(query string, err error) string {
	var qe *searchquery.Error
	msg := err.Error()
	if errors.As(err, &qe) {
		msg = qe.Error()
	}
	return fmt.Sprintf("The search query %q is malformed: %s\n\nThe grammar: bare words, field:value, field=value, "+
		"a trailing * for a prefix, AND, OR, NOT and parentheses.", query, msg)
}
