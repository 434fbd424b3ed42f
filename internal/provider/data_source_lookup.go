package provider

// The singular data sources of derived records (agentregistry_agent,
// agentregistry_mcp_server, agentregistry_endpoint) look a record up by its
// full name, by the id of the service that registered it, or by a filter
// that selects exactly one record (as the Google provider's
// google_agent_registry_* data sources do); this is that lookup, and the
// attributes that select the record.

import (
	"context"
	"fmt"
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
)

// derivedLookup describes one kind of derived record to the lookup.
type derivedLookup struct {
	title      string // "MCP Server"
	noun       string // "MCP server"
	collection string // "mcpServers"
	plural     string // the list data source, for messages
	// find lists the names of (at most limit) records of parent that
	// match filter, with the collection's list method.
	find func(ctx context.Context, c *registryclient.Client, parent, filter string, limit int) ([]string, error)
}

// namesBy turns the result of a list call into the names of its records.
func namesBy[T any](name func(T) string) func([]T, error) ([]string, error) {
	return func(recs []T, err error) ([]string, error) {
		out := make([]string, len(recs))
		for i, r := range recs {
			out[i] = name(r)
		}
		return out, err
	}
}

// namePattern is the shape of the record's full name.
func (l derivedLookup) namePattern() *regexp.Regexp {
	return regexp.MustCompile(`^projects/[^/]+/locations/[^/]+/` + l.collection + `/[^/]+$`)
}

// selectorAttributes adds name, service_id, project and location to attrs
// (the record's own attributes, all computed).
func (l derivedLookup) selectorAttributes(attrs map[string]schema.Attribute) map[string]schema.Attribute {
	shape := "projects/{project}/locations/{location}/" + l.collection + "/{id}"
	attrs["name"] = schema.StringAttribute{
		Optional: true,
		Computed: true,
		MarkdownDescription: "Full resource name of the derived record, `" + shape + "`, such as the `registry_resource` " +
			"of the resource that registered it. Its `{id}` is the registry's: the bundled server uses the id of the " +
			"service that registered the record, Google's registry may not, so look a record up by `service_id` when " +
			"you know the service. Exactly one of `name`, `service_id` and `filter` is required.",
		Validators: []validator.String{stringvalidator.RegexMatches(l.namePattern(), "must be a full "+l.noun+" name, "+shape)},
	}
	attrs["service_id"] = schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "Id of the service that registered the record; the record is the service's `registryResource`. " +
			"Looked up in `project` and `location`. Exactly one of `name`, `service_id` and `filter` is required.",
	}
	attrs["filter"] = schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "A filter of the " + l.collection + ".list method that identifies exactly one " + l.noun + ", as the Google " +
			"provider's `filter` does, such as `displayName=\"Billing API\"`; looked up in `project` and `location`. No match, or " +
			"more than one, is an error. Exactly one of `name`, `service_id` and `filter` is required.",
		Validators: []validator.String{stringvalidator.LengthAtLeast(1)},
	}
	attrs["project"] = schema.StringAttribute{
		Optional:            true,
		MarkdownDescription: "Project of the service named by `service_id`, or searched by `filter`. Defaults to the provider's `project`.",
	}
	attrs["location"] = schema.StringAttribute{
		Optional:            true,
		MarkdownDescription: "Location of the service named by `service_id`, or searched by `filter`. Defaults to the provider's `location`.",
	}
	return attrs
}

func (l derivedLookup) configValidators() []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.ExactlyOneOf(path.MatchRoot("name"), path.MatchRoot("service_id"), path.MatchRoot("filter")),
	}
}

// lookupSelector is the configuration that selects the record.
type lookupSelector struct {
	Name      types.String `tfsdk:"name"`
	ServiceID types.String `tfsdk:"service_id"`
	Filter    types.String `tfsdk:"filter"`
	Project   types.String `tfsdk:"project"`
	Location  types.String `tfsdk:"location"`
}

// readSelector reads the selecting attributes of the configuration.
func readSelector(ctx context.Context, config tfsdk.Config, diags *diag.Diagnostics) lookupSelector {
	var sel lookupSelector
	diags.Append(config.GetAttribute(ctx, path.Root("name"), &sel.Name)...)
	diags.Append(config.GetAttribute(ctx, path.Root("service_id"), &sel.ServiceID)...)
	diags.Append(config.GetAttribute(ctx, path.Root("filter"), &sel.Filter)...)
	diags.Append(config.GetAttribute(ctx, path.Root("project"), &sel.Project)...)
	diags.Append(config.GetAttribute(ctx, path.Root("location"), &sel.Location)...)
	return sel
}

// resolve returns the record's full name: the configured name, the
// registryResource of the service named by service_id, or the one record
// filter selects ("" after an error).
func (l derivedLookup) resolve(ctx context.Context, data *providerData, sel lookupSelector, diags *diag.Diagnostics) string {
	if name := sel.Name.ValueString(); name != "" {
		return name
	}
	if filter := sel.Filter.ValueString(); filter != "" {
		return l.resolveFilter(ctx, data, sel, filter, diags)
	}
	svcName := data.parent(sel.Project, sel.Location) + "/services/" + sel.ServiceID.ValueString()
	svc, err := data.Client.GetService(ctx, svcName)
	if registryclient.IsNotFound(err) {
		diags.AddAttributeError(path.Root("service_id"), l.title+" Not Found",
			fmt.Sprintf("No service %q exists. Check service_id, project and location.", svcName))
		return ""
	}
	if err != nil {
		diags.AddError("Cannot Read Service", apiErrorDetail("read", svcName, err))
		return ""
	}
	if !l.namePattern().MatchString(svc.RegistryResource) {
		diags.AddAttributeError(path.Root("service_id"), l.title+" Not Found",
			fmt.Sprintf("Service %q registers no %s (its registryResource is %q): it registers another kind of record.",
				svcName, l.noun, svc.RegistryResource))
		return ""
	}
	return svc.RegistryResource
}

// resolveFilter returns the name of the one record of the selector's
// project and location that filter selects.
func (l derivedLookup) resolveFilter(ctx context.Context, data *providerData, sel lookupSelector, filter string, diags *diag.Diagnostics) string {
	parent := data.parent(sel.Project, sel.Location)
	names, err := l.find(ctx, data.Client, parent, filter, 2)
	switch {
	case err != nil:
		addSearchError(diags, l.noun+"s", filter, err, "a narrower `filter`, or `name` or `service_id`")
	case len(names) == 0:
		diags.AddAttributeError(path.Root("filter"), l.title+" Not Found",
			fmt.Sprintf("No %s of %s matches the filter %q. Check the filter, project and location, or list the %ss with %s.",
				l.noun, parent, filter, l.noun, l.plural))
	case len(names) > 1:
		diags.AddAttributeError(path.Root("filter"), "Filter Matches More Than One "+l.title,
			fmt.Sprintf("The filter %q matches more than one %s of %s (%s and %s at least); it must identify exactly one. "+
				"Narrow the filter, or use %s for several.", filter, l.noun, parent, names[0], names[1], l.plural))
	default:
		return names[0]
	}
	return ""
}

// readError reports a record the registry does not have, or another error.
func (l derivedLookup) readError(diags *diag.Diagnostics, name string, err error) {
	if registryclient.IsNotFound(err) {
		diags.AddError(l.title+" Not Found",
			fmt.Sprintf("The registry has no %s %q. Check the name, or look for it with %s.", l.noun, name, l.plural))
		return
	}
	diags.AddError("Cannot Read "+l.title, apiErrorDetail("read", name, err))
}

// setLookupResult writes the selector and the record's attributes (obj) to state.
func setLookupResult(ctx context.Context, state interface {
	SetAttribute(context.Context, path.Path, interface{}) diag.Diagnostics
}, sel lookupSelector, obj types.Object) diag.Diagnostics {
	var diags diag.Diagnostics
	diags.Append(state.SetAttribute(ctx, path.Root("service_id"), sel.ServiceID)...)
	diags.Append(state.SetAttribute(ctx, path.Root("filter"), sel.Filter)...)
	diags.Append(state.SetAttribute(ctx, path.Root("project"), sel.Project)...)
	diags.Append(state.SetAttribute(ctx, path.Root("location"), sel.Location)...)
	for k, v := range obj.Attributes() {
		diags.Append(state.SetAttribute(ctx, path.Root(k), v)...)
	}
	return diags
}
