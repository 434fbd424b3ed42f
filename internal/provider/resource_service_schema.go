package provider

// The schema and model that every kind of Service registration shares
// (agentregistry_agent, agentregistry_mcp_server, agentregistry_endpoint),
// the `interfaces` attribute among them.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-timeouts/resource/timeouts"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/validators"
)

// serviceModel holds the attributes that every service resource shares: each
// manages one registry Service.
type serviceModel struct {
	ID               types.String   `tfsdk:"id"`
	Name             types.String   `tfsdk:"name"`
	ServiceID        types.String   `tfsdk:"service_id"`
	Project          types.String   `tfsdk:"project"`
	Location         types.String   `tfsdk:"location"`
	DisplayName      types.String   `tfsdk:"display_name"`
	Description      types.String   `tfsdk:"description"`
	Interfaces       types.List     `tfsdk:"interfaces"`
	RegistryResource types.String   `tfsdk:"registry_resource"`
	CreateTime       types.String   `tfsdk:"create_time"`
	UpdateTime       types.String   `tfsdk:"update_time"`
	Timeouts         timeouts.Value `tfsdk:"timeouts"`
}

// serviceSchema returns the schema of a service resource: the shared attributes
// (interfaces as the kind describes them) merged with the kind's own, and the
// timeouts block.
func serviceSchema(ctx context.Context, noun, description string, version int64, interfaces schema.ListNestedAttribute,
	own map[string]schema.Attribute) schema.Schema {
	attrs := serviceCommonAttributes(noun)
	attrs["interfaces"] = interfaces
	for k, v := range own {
		attrs[k] = v
	}
	return schema.Schema{
		MarkdownDescription: description + "\n\n" + recordCapsDoc,
		Version:             version,
		Attributes:          attrs,
		Blocks: map[string]schema.Block{
			"timeouts": timeouts.Block(ctx, timeouts.Opts{Create: true, Update: true, Delete: true}),
		},
	}
}

// serviceCommonAttributes returns the attributes that every service resource has.
func serviceCommonAttributes(noun string) map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "The service's resource name, the same as `name`.",
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"name": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "The service's resource name: `projects/{project}/locations/{location}/services/{service_id}`.",
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"service_id": schema.StringAttribute{
			Required: true,
			MarkdownDescription: "The id of the service, the last part of its name: 4 to 63 characters of lowercase " +
				"letters, digits and hyphens, starting with a letter. Changing it forces a new " + noun + ".",
			Validators:    []validator.String{validators.ServiceID()},
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace()},
		},
		"project": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "The project that owns the service. Defaults to the provider's `project`. " +
				"Changing it forces a new " + noun + ".",
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace(), stringplanmodifier.UseStateForUnknown()},
		},
		"location": schema.StringAttribute{
			Optional: true,
			Computed: true,
			MarkdownDescription: "The registry location of the service. Defaults to the provider's `location`. " +
				"Changing it forces a new " + noun + ".",
			PlanModifiers: []planmodifier.String{stringplanmodifier.RequiresReplace(), stringplanmodifier.UseStateForUnknown()},
		},
		"display_name": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "A display name for the service, at most 63 characters.",
			Validators:          []validator.String{stringvalidator.UTF8LengthAtMost(63)},
		},
		"description": schema.StringAttribute{
			Optional:            true,
			MarkdownDescription: "A description of the service, at most 2048 characters.",
			Validators:          []validator.String{stringvalidator.UTF8LengthAtMost(2048)},
		},
		"registry_resource": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "The name of the read-only record the registry derives from the service (`.../agents/{id}`, `.../mcpServers/{id}` or `.../endpoints/{id}`).",
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"create_time": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "When the service was created (RFC 3339).",
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
		"update_time": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "When the service was last updated (RFC 3339). Unchanged by an update that only reformats a document.",
		},
	}
}

// setComputed copies the registry's computed values after a create or a read.
func (m *serviceModel) setComputed(svc *agentregistry.Service) {
	m.ID = types.StringValue(svc.Name)
	m.Name = types.StringValue(svc.Name)
	if n, ok := parseServiceName(svc.Name); ok {
		m.ServiceID = types.StringValue(n.ID)
		m.Project = types.StringValue(n.Project)
		m.Location = types.StringValue(n.Location)
	}
	m.RegistryResource = types.StringValue(svc.RegistryResource)
	m.CreateTime = types.StringValue(svc.CreateTime)
	m.UpdateTime = types.StringValue(svc.UpdateTime)
}

// applyUpdated takes the registry's values after an update: the new update_time,
// and what the plan could not know yet.
func (m *serviceModel) applyUpdated(svc *agentregistry.Service) {
	m.UpdateTime = types.StringValue(svc.UpdateTime)
	if m.RegistryResource.IsUnknown() {
		m.RegistryResource = types.StringValue(svc.RegistryResource)
	}
	if m.CreateTime.IsUnknown() {
		m.CreateTime = types.StringValue(svc.CreateTime)
	}
}

// refresh takes every shared attribute from the registry's copy on read, so that
// a display name, description or interface changed outside Terraform shows as
// drift; interfacesChanged tells the kind to re-derive what depends on them.
func (m *serviceModel) refresh(ctx context.Context, svc *agentregistry.Service) (interfacesChanged bool, diags diag.Diagnostics) {
	m.setComputed(svc)
	m.DisplayName = refreshString(m.DisplayName, svc.DisplayName)
	m.Description = refreshString(m.Description, svc.Description)
	if m.Interfaces.ElementType(ctx) == nil {
		// A model built from scratch (a moved or upgraded state) has the zero List.
		m.Interfaces = types.ListNull(interfaceObjectType)
	}
	interfaces, diags := refreshInterfaces(ctx, m.Interfaces, svc.Interfaces)
	interfacesChanged = !interfaces.Equal(m.Interfaces)
	m.Interfaces = interfaces
	return interfacesChanged, diags
}

// updateMask lists the shared fields that differ between plan (m) and state.
func (m *serviceModel) updateMask(ctx context.Context, state *serviceModel) []string {
	var mask []string
	if !sameString(m.DisplayName, state.DisplayName) {
		mask = append(mask, "displayName")
	}
	if !sameString(m.Description, state.Description) {
		mask = append(mask, "description")
	}
	if !sameInterfaces(ctx, m.Interfaces, state.Interfaces) {
		mask = append(mask, "interfaces")
	}
	return mask
}

// toService is the Service to send with the shared fields set. Display name and
// description are always sent, so that clearing one reaches the registry.
func (m *serviceModel) toService(ctx context.Context) (*agentregistry.Service, diag.Diagnostics) {
	interfaces, diags := interfacesFromList(ctx, m.Interfaces)
	return &agentregistry.Service{
		Name:            m.Name.ValueString(),
		DisplayName:     m.DisplayName.ValueString(),
		Description:     m.Description.ValueString(),
		Interfaces:      interfaces,
		ForceSendFields: []string{"DisplayName", "Description"},
	}, diags
}

// interfaceModel is one element of an `interfaces` attribute.
type interfaceModel struct {
	URL             types.String `tfsdk:"url"`
	ProtocolBinding types.String `tfsdk:"protocol_binding"`
}

var interfaceObjectType = objectTypeOf[interfaceModel]()

// interfacesAttribute is the `interfaces` attribute: how to reach what is registered.
func interfacesAttribute(description string) schema.ListNestedAttribute {
	return schema.ListNestedAttribute{
		Optional:            true,
		MarkdownDescription: description,
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"url": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "The absolute URL of the endpoint, such as `https://mcp.example.com/mcp`.",
				Validators:          []validator.String{validators.AbsoluteURL()},
			},
			"protocol_binding": schema.StringAttribute{
				Required:            true,
				MarkdownDescription: "The protocol binding: `JSONRPC`, `GRPC` or `HTTP_JSON`.",
				Validators:          []validator.String{stringvalidator.OneOf("JSONRPC", "GRPC", "HTTP_JSON")},
			},
		}},
	}
}

// sameInterfaces compares interface lists; null and empty are the same to the API.
func sameInterfaces(ctx context.Context, a, b types.List) bool {
	if a.IsUnknown() || b.IsUnknown() {
		return false
	}
	ia, da := interfacesFromList(ctx, a)
	ib, db := interfacesFromList(ctx, b)
	if da.HasError() || db.HasError() || len(ia) != len(ib) {
		return false
	}
	for i := range ia {
		if ia[i].Url != ib[i].Url || ia[i].ProtocolBinding != ib[i].ProtocolBinding {
			return false
		}
	}
	return true
}

func interfacesFromList(ctx context.Context, l types.List) ([]*agentregistry.Interface, diag.Diagnostics) {
	if l.IsNull() || l.IsUnknown() {
		return nil, nil
	}
	var models []interfaceModel
	diags := l.ElementsAs(ctx, &models, false)
	out := make([]*agentregistry.Interface, 0, len(models))
	for _, m := range models {
		out = append(out, &agentregistry.Interface{Url: m.URL.ValueString(), ProtocolBinding: m.ProtocolBinding.ValueString()})
	}
	return out, diags
}

// refreshInterfaces keeps the prior list when the registry's is the same, and
// a null prior list when the registry has none.
func refreshInterfaces(ctx context.Context, prior types.List, api []*agentregistry.Interface) (types.List, diag.Diagnostics) {
	if len(api) == 0 && (prior.IsNull() || len(prior.Elements()) == 0) {
		return prior, nil
	}
	models := make([]interfaceModel, 0, len(api))
	for _, in := range api {
		if in == nil {
			continue
		}
		models = append(models, interfaceModel{URL: types.StringValue(in.Url), ProtocolBinding: types.StringValue(in.ProtocolBinding)})
	}
	l, diags := types.ListValueFrom(ctx, interfaceObjectType, models)
	if !diags.HasError() && sameInterfaces(ctx, prior, l) {
		return prior, nil
	}
	return l, diags
}
