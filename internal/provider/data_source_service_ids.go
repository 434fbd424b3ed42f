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

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// serviceIDAttrTypes are the attributes a search result gains.
var serviceIDAttrTypes = map[string]attr.Type{
	"service_id": types.StringType,
	"project":    types.StringType,
	"location":   types.StringType,
}

// withServiceIDs adds service_id, project and location to the attribute
// types of a result.
func withServiceIDs(base map[string]attr.Type) map[string]attr.Type {
	out := make(map[string]attr.Type, len(base)+len(serviceIDAttrTypes))
	for k, v := range base {
		out[k] = v
	}
	for k, v := range serviceIDAttrTypes {
		out[k] = v
	}
	return out
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

// serviceIDValues are service_id, project and location of the record named
// name, registered by the service svcName ("" when unknown: then project and
// location come from the record's own name).
func serviceIDValues(name, svcName string) map[string]attr.Value {
	out := map[string]attr.Value{"service_id": types.StringNull(), "project": types.StringNull(), "location": types.StringNull()}
	from := name
	if svcName != "" {
		from = svcName
	}
	// projects/{project}/locations/{location}/{collection}/{id}
	parts := strings.Split(from, "/")
	if len(parts) == 6 && parts[0] == "projects" && parts[2] == "locations" {
		out["project"] = types.StringValue(parts[1])
		out["location"] = types.StringValue(parts[3])
		if svcName != "" && parts[4] == "services" {
			out["service_id"] = types.StringValue(parts[5])
		}
	}
	return out
}

// addServiceIDs is obj with the service attributes added.
func addServiceIDs(obj types.Object, attrTypes map[string]attr.Type, name, svcName string) (types.Object, diag.Diagnostics) {
	vals := make(map[string]attr.Value, len(attrTypes))
	for k, v := range obj.Attributes() {
		vals[k] = v
	}
	for k, v := range serviceIDValues(name, svcName) {
		vals[k] = v
	}
	return types.ObjectValue(attrTypes, vals)
}
