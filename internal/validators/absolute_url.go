package validators

import (
	"context"
	"fmt"
	"net/url"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// AbsoluteURL checks that a string is an absolute http or https URL with a
// host (such as https://mcp.example.com/mcp), the rule the registry applies
// to a service's interfaces[].url: a javascript: or file: URL never reaches it.
func AbsoluteURL() validator.String { return absoluteURL{} }

type absoluteURL struct{}

func (absoluteURL) Description(context.Context) string {
	return "must be an absolute URL with the http or https scheme and a host, such as https://mcp.example.com/mcp"
}

func (v absoluteURL) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v absoluteURL) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	raw := req.ConfigValue.ValueString()
	if u, err := url.Parse(raw); err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid URL",
			fmt.Sprintf("Attribute %s %s, got: %q", req.Path, v.Description(ctx), raw))
	}
}
