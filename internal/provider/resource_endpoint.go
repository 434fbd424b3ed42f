package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/resource"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/planmodifier"
	"github.com/hashicorp/terraform-plugin-framework/resource/schema/stringplanmodifier"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
)

// endpointSpecTypeNoSpec is the only endpointSpec type the API has: an
// endpoint is described by its interfaces alone.
const endpointSpecTypeNoSpec = "NO_SPEC"

// endpointNaming: an endpoint is the Service projects/{project}/locations/{location}/services/{service_id}.
var endpointNaming = serviceNaming("endpoint", "billing-api")

// NewEndpointResource returns the agentregistry_endpoint resource.
func NewEndpointResource() resource.Resource {
	return newServiceResource[endpointModel, *endpointModel](serviceKind[endpointModel]{
		naming: endpointNaming,
		title:  "Endpoint",
		schema: endpointSchema,
		fields: map[string]string{"endpoint_spec": "interfaces"},
		derivedID: func(ctx context.Context, c *registryclient.Client, name string) (string, error) {
			e, err := c.GetEndpoint(ctx, name)
			if err != nil {
				return "", err
			}
			return e.EndpointId, nil
		},
	})
}

type endpointModel struct {
	serviceModel
	EndpointID types.String `tfsdk:"endpoint_id"`
}

func endpointSchema(ctx context.Context) schema.Schema {
	interfaces := interfacesAttribute("How to reach the endpoint: at least one interface. The registry keeps " +
		"them in the order given.")
	interfaces.Optional, interfaces.Required = false, true
	interfaces.Validators = []validator.List{listvalidator.SizeAtLeast(1)}
	return serviceSchema(ctx, "endpoint", endpointDescription, 0, interfaces, map[string]schema.Attribute{
		"endpoint_id": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "The `endpointId` of the derived `Endpoint` record: its stable, globally unique URN, such as `urn:endpoint:projects-123:projects:123:locations:global:agentregistry:services:billing-api` (the bundled server writes the project id where Google writes the project number). A binding's `target` takes it.",
			PlanModifiers:       []planmodifier.String{stringplanmodifier.UseStateForUnknown()},
		},
	})
}

const endpointDescription = "Registers an endpoint in the Agent Registry: a `Service` whose `endpointSpec` is of " +
	"type `NO_SPEC`, described by its `interfaces` (URL and protocol binding) alone. Use it for an API that is " +
	"neither an A2A agent nor an MCP server, so that bindings and consumers can find it. The registry derives " +
	"a read-only `Endpoint` record from it, named by `registry_resource` (`.../endpoints/{id}`).\n\n" +
	"Every interface is checked at plan time (an absolute URL, a known protocol binding)."

func (m *endpointModel) service() *serviceModel         { return &m.serviceModel }
func (m *endpointModel) derivedRecordID() *types.String { return &m.EndpointID }

// An endpoint has no document, so nothing is derived from its attributes.
func (m *endpointModel) setDerived() diag.Diagnostics { return nil }
func (m *endpointModel) keepDerived(*endpointModel)   {}

// An endpoint has no document: its interfaces (shared) are all it is.
func (m *endpointModel) updateMask(*endpointModel) []string { return nil }

func (m *endpointModel) fill(svc *agentregistry.Service, _ outgoing) diag.Diagnostics { //nolint:unparam // kindModel.fill; an endpoint has no document to refuse
	svc.EndpointSpec = &agentregistry.EndpointSpec{Type: endpointSpecTypeNoSpec}
	return nil
}

func (m *endpointModel) refresh(*agentregistry.Service, bool, string) (outgoing, diag.Diagnostics) { //nolint:unparam // kindModel.refresh
	return outgoing{}, nil
}

// fromGoogle: an endpoint has no document; its interfaces are shared.
func (m *endpointModel) fromGoogle(*googleService) {}
