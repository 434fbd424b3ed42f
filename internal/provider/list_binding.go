package provider

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/list"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"
)

// NewBindingListResource returns the agentregistry_binding list resource.
func NewBindingListResource() list.ListResource {
	return &bindingList{listBase{resourceBase: resourceBase{naming: bindingNaming}, plural: "bindings"}}
}

type bindingList struct{ listBase }

var _ list.ListResourceWithConfigure = (*bindingList)(nil)

func (l *bindingList) ListResourceConfigSchema(_ context.Context, _ list.ListResourceSchemaRequest, resp *list.ListResourceSchemaResponse) {
	resp.Schema = l.listSchema(bindingListDescription, "Lists only the bindings that match this filter of "+
		"`bindings.list` (AIP-160) over `name`, `display_name`, `description`, `source.identifier`, `target.identifier` and "+
		"`auth_provider_binding.auth_provider`, such as `target.identifier=\"urn:mcp:acme:tools:files\"`.")
}

const bindingListDescription = "Lists the bindings of the Agent Registry for `terraform query` (Terraform 1.14 and " +
	"later; OpenTofu has no `query` yet): each result has the `agentregistry_binding` identity (`binding_id`, " +
	"`project`, `location`) and the binding's display name, else its id. With `include_resource = true`, or with " +
	"`-generate-config-out`, each result is the whole resource as a read after an import stores it, so that the " +
	"generated configuration plans no change. See the guide *Adopt an existing registry*."

func (l *bindingList) List(ctx context.Context, req list.ListRequest, stream *list.ListResultsStream) {
	l.run(ctx, req, stream, func(s *listStream, cfg listConfig) error {
		return emitPages(l.data.Client.BindingPages(ctx, cfg.parent, cfg.filter, s.pageSize()), func(b *agentregistry.Binding) (bool, error) {
			return s.emit(b.Name, b.DisplayName, b, fillFrom(ctx,
				func(m *bindingModel) { m.ID, m.Name = types.StringValue(b.Name), types.StringValue(b.Name) },
				func(m *bindingModel) diag.Diagnostics { m.refresh(ctx, b); return nil })), nil
		})
	})
}
