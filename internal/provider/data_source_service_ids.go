package provider

// What the search data sources (agentregistry_agents,
// agentregistry_mcp_servers) add to each result: the service that registered
// the record (service_id, project, location), which an import block by
// identity takes. The registry names the derived record in the service's
// registryResource; the record itself does not name its service, so the
// services of the parent are listed once per read (only when there are
// results) and matched by that name.

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// serviceIDsModel is what a search result gains; a result model embeds it.
type serviceIDsModel struct {
	ServiceID types.String `tfsdk:"service_id"`
	Project   types.String `tfsdk:"project"`
	Location  types.String `tfsdk:"location"`
}

// withServiceIDAttributes adds the schema of service_id, project and
// location to the attributes of a result of kind (the resource type that
// registers it, "agentregistry_agent").
func withServiceIDAttributes(attrs map[string]schema.Attribute, resourceType string) map[string]schema.Attribute {
	attrs["service_id"] = schema.StringAttribute{Computed: true,
		MarkdownDescription: "Id of the service that registered the record (the service whose `registryResource` is `name`): " +
			"the `service_id` of the `" + resourceType + "` resource, which an `import` block by identity takes. Null " +
			"when no service of `project` and `location` names the record."}
	attrs["project"] = schema.StringAttribute{Computed: true,
		MarkdownDescription: "Project of the service (and of the record), as the registry names it: the `project` of the `" + resourceType + "` identity."}
	attrs["location"] = schema.StringAttribute{Computed: true,
		MarkdownDescription: "Location of the service (and of the record): the `location` of the `" + resourceType + "` identity."}
	return attrs
}

// serviceIndex maps the name of each derived record under parent to the
// name of the service that registered it.
func (b *dataSourceBase) serviceIndex(ctx context.Context, parent string) (map[string]string, error) {
	index := map[string]string{}
	for page, err := range b.data.Client.ServicePages(ctx, parent, "", 100) {
		if err != nil {
			return nil, err
		}
		for _, svc := range page {
			if svc != nil && svc.RegistryResource != "" {
				index[svc.RegistryResource] = svc.Name
			}
		}
	}
	return index, nil
}

// serviceIDsOf are service_id, project and location of the record named
// name, registered by the service svcName ("" when unknown: then project and
// location come from the record's own name).
func serviceIDsOf(name, svcName string) serviceIDsModel {
	out := serviceIDsModel{ServiceID: types.StringNull(), Project: types.StringNull(), Location: types.StringNull()}
	from := name
	if svcName != "" {
		from = svcName
	}
	// projects/{project}/locations/{location}/{collection}/{id}
	parts := strings.Split(from, "/")
	if len(parts) == 6 && parts[0] == "projects" && parts[2] == "locations" {
		out.Project = types.StringValue(parts[1])
		out.Location = types.StringValue(parts[3])
		if svcName != "" && parts[4] == "services" {
			out.ServiceID = types.StringValue(parts[5])
		}
	}
	return out
}
