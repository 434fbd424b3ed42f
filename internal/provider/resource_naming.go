package provider

// How each resource type names its records: one naming per resource (in the
// resource's file), from which come the full name, the parsing of import
// ids (a full name or a bare id resolved with the provider's project and
// location, as the Google provider's ParseImportId does), the identity schema
// and the identity of a record.

import (
	"context"
	"fmt"
	"regexp"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/identityschema"
	"github.com/hashicorp/terraform-plugin-framework/tfsdk"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/validators"
)

// recordName is a parsed resource name. For a resource named by its full
// name alone (an App Hub workload), ID is that name and the rest is empty.
type recordName struct {
	Project, Location, ID string
}

// naming is how one resource type names its records.
type naming struct {
	// typeSuffix is the resource type after "agentregistry_", such as "agent".
	typeSuffix string
	// collection is the name's collection segment, such as "services"; empty
	// for a resource named by a full name alone (wholeName).
	collection string
	// idAttr is the attribute, in the state and in the identity, that holds
	// the id: "service_id", or the full name for a wholeName resource.
	idAttr string
	// idPattern matches a valid id (for wholeName: a valid full name), and
	// idRule says in words what it is, for messages.
	idPattern *regexp.Regexp
	idRule    string
	// example is a bare id (for wholeName: a full name) for messages.
	example string
	// wholeName: the identity is the full name alone, with no project or
	// location of its own (App Hub workloads); shape is that name's form in
	// words, for messages.
	wholeName bool
	shape     string
}

// serviceNaming is the naming of a kind of Service registration.
func serviceNaming(suffix, example string) naming {
	return naming{typeSuffix: suffix, collection: "services", idAttr: "service_id",
		idPattern: validators.ServiceIDPattern, idRule: "4 to 63 lower-case letters, digits and hyphens, starting with a letter",
		example: example}
}

// parseServiceName splits a Service's full name, whatever its kind.
func parseServiceName(name string) (recordName, bool) {
	return naming{collection: "services"}.parse(name)
}

// typeName is the resource type, for messages.
func (n naming) typeName() string { return "agentregistry_" + n.typeSuffix }

// format is the full name of a record.
func (n naming) format(r recordName) string {
	if n.wholeName {
		return r.ID
	}
	return fmt.Sprintf("projects/%s/locations/%s/%s/%s", r.Project, r.Location, n.collection, r.ID)
}

// parse splits a full name; ok is false when it is not one of this
// resource's names (the id is not checked: the registry's names are taken as
// they come).
func (n naming) parse(name string) (recordName, bool) {
	if n.wholeName {
		return recordName{ID: name}, name != ""
	}
	parts := strings.Split(name, "/")
	if len(parts) != 6 || parts[0] != "projects" || parts[2] != "locations" || parts[4] != n.collection ||
		parts[1] == "" || parts[3] == "" || parts[5] == "" {
		return recordName{}, false
	}
	return recordName{Project: parts[1], Location: parts[3], ID: parts[5]}, true
}

// fullShape is the full name's form in words.
func (n naming) fullShape() string {
	if n.wholeName {
		return n.shape
	}
	return "projects/{project}/locations/{location}/" + n.collection + "/{" + n.idAttr + "}"
}

// importName reads an import's target: the import id (a full name, or a bare
// id resolved with the provider's project and location), or the identity
// (an id, and a project and location that default to the provider's).
func (n naming) importName(ctx context.Context, data *providerData, req resource.ImportStateRequest) (recordName, diag.Diagnostics) {
	if req.ID == "" && req.Identity != nil {
		return n.fromIdentity(ctx, data, req.Identity)
	}
	return n.fromImportID(data, strings.TrimSpace(req.ID))
}

func (n naming) fromImportID(data *providerData, id string) (recordName, diag.Diagnostics) {
	var diags diag.Diagnostics
	if r, ok := n.parse(id); ok && n.idPattern.MatchString(r.ID) {
		return r, nil
	}
	if !n.wholeName && n.idPattern.MatchString(id) && data != nil {
		return recordName{Project: data.Project, Location: data.Location, ID: id}, nil
	}
	detail := fmt.Sprintf("Cannot import %s %q: expected a full name %s or a bare %s such as %q (%s), resolved with the "+
		"provider's project and location.", n.typeName(), id, n.fullShape(), n.idAttr, n.example, n.idRule)
	if n.wholeName {
		detail = fmt.Sprintf("Cannot import %s %q: expected the workload's full name, %s.", n.typeName(), id, n.shape)
	}
	diags.AddError("Invalid Import ID", detail)
	return recordName{}, diags
}

// identityModel is the identity of a record named by project, location and id.
func (n naming) fromIdentity(ctx context.Context, data *providerData, identity *tfsdk.ResourceIdentity) (recordName, diag.Diagnostics) {
	var id, project, location types.String
	diags := identity.GetAttribute(ctx, path.Root(n.idAttr), &id)
	if !n.wholeName {
		diags.Append(identity.GetAttribute(ctx, path.Root("project"), &project)...)
		diags.Append(identity.GetAttribute(ctx, path.Root("location"), &location)...)
	}
	if diags.HasError() {
		return recordName{}, diags
	}
	if !n.idPattern.MatchString(id.ValueString()) {
		diags.AddAttributeError(path.Root(n.idAttr), "Invalid Import Identity",
			fmt.Sprintf("Cannot import %s: identity attribute %s is %q, expected %s, such as %q.",
				n.typeName(), n.idAttr, id.ValueString(), n.idRule, n.example))
		return recordName{}, diags
	}
	if n.wholeName {
		return recordName{ID: id.ValueString()}, diags
	}
	if data == nil {
		addNotConfigured(&diags, "an import by identity")
		return recordName{}, diags
	}
	return data.resolve(project, location, id.ValueString()), diags
}

// identitySchema is the resource's identity: the id (required for import)
// and, but for a wholeName resource, the project and location (optional: the
// provider's by default).
func (n naming) identitySchema() identityschema.Schema {
	attrs := map[string]identityschema.Attribute{
		n.idAttr: identityschema.StringAttribute{RequiredForImport: true,
			Description: "The " + n.idAttr + " of the " + n.typeName() + " (" + n.idRule + ")."},
	}
	if !n.wholeName {
		attrs["project"] = identityschema.StringAttribute{OptionalForImport: true,
			Description: "The project; the provider's `project` when not given."}
		attrs["location"] = identityschema.StringAttribute{OptionalForImport: true,
			Description: "The registry location; the provider's `location` when not given."}
	}
	return identityschema.Schema{Attributes: attrs}
}

// setIdentity writes a record's identity; identity is nil for a resource
// call that carries none (a CLI without identity support).
func (n naming) setIdentity(ctx context.Context, identity *tfsdk.ResourceIdentity, r recordName) diag.Diagnostics {
	if identity == nil {
		return nil
	}
	diags := identity.SetAttribute(ctx, path.Root(n.idAttr), r.ID)
	if !n.wholeName {
		diags.Append(identity.SetAttribute(ctx, path.Root("project"), r.Project)...)
		diags.Append(identity.SetAttribute(ctx, path.Root("location"), r.Location)...)
	}
	return diags
}

// setIdentityOf writes the identity of the record with this full name.
func (n naming) setIdentityOf(ctx context.Context, identity *tfsdk.ResourceIdentity, name string) diag.Diagnostics {
	r, ok := n.parse(name)
	if !ok {
		var diags diag.Diagnostics
		diags.AddError("Unexpected Resource Name", fmt.Sprintf("The registry named a %s %q, which is not of the form %s. "+
			"This is a bug in the registry or the provider; please report it.", n.typeName(), name, n.fullShape()))
		return diags
	}
	return n.setIdentity(ctx, identity, r)
}

// parent is the record's projects/{project}/locations/{location}.
func (r recordName) parent() string {
	return "projects/" + r.Project + "/locations/" + r.Location
}
