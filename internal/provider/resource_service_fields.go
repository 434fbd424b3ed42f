package provider

// Errors of a registry write, attached to the attribute they concern.

import (
	"errors"
	"strconv"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
)

// commonFields maps the API fields every kind shares to their attributes.
var commonFields = map[string]string{
	"display_name": "display_name", "description": "description", "service_id": "service_id", "interfaces": "interfaces",
}

// addAPIError reports a write the registry refused. When the registry names
// the field at fault, the error is attached to its attribute, so that the CLI
// points at that line of the configuration rather than at the resource block.
func (k serviceKind[M]) addAPIError(diags *diag.Diagnostics, summary, detail string, err error) {
	var ae *registryclient.APIError
	if errors.As(err, &ae) {
		for _, v := range ae.FieldViolations {
			if p, ok := k.attributeOf(v.Field); ok {
				diags.AddAttributeError(p, summary, detail)
				return
			}
		}
	}
	diags.AddError(summary, detail)
}

// attributeOf returns the attribute an API field concerns: "agent_spec.content"
// is agent_card, "interfaces[1].url" is interfaces[1].url.
func (k serviceKind[M]) attributeOf(field string) (path.Path, bool) {
	field = strings.TrimPrefix(field, "service.")
	head, rest, _ := strings.Cut(field, ".")
	name, index, indexed := strings.Cut(head, "[")
	attr, ok := commonFields[name]
	if !ok {
		attr, ok = k.fields[name]
	}
	if !ok {
		return path.Empty(), false
	}
	p := path.Root(attr)
	if i, err := strconv.Atoi(strings.TrimSuffix(index, "]")); indexed && err == nil {
		p = p.AtListIndex(i)
		if rest == "url" || rest == "protocol_binding" {
			p = p.AtName(rest)
		}
	}
	return p, true
}
