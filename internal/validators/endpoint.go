// Package validators holds the attribute validators shared by the provider's schemas.
package validators

import (
	"context"
	"fmt"
	"net/url"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// EndpointURL accepts an absolute http or https URL with a host and no query or fragment.
func EndpointURL() validator.String { return endpointURL{} }

type endpointURL struct{}

func (endpointURL) Description(context.Context) string {
	return "must be an absolute http:// or https:// URL, such as https://agentregistry.googleapis.com"
}

func (v endpointURL) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v endpointURL) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if err := CheckEndpointURL(req.ConfigValue.ValueString()); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Endpoint URL", err.Error())
	}
}

// CheckEndpointURL explains what is wrong with an endpoint URL, or returns nil.
// It is shared with the provider, which applies it to values from the environment.
func CheckEndpointURL(raw string) error {
	u, err := url.Parse(raw)
	switch {
	case err != nil:
		return fmt.Errorf("%q is not a URL: %v. Expected an absolute http:// or https:// URL, such as https://agentregistry.googleapis.com", raw, err)
	case u.Scheme != "http" && u.Scheme != "https":
		return fmt.Errorf("%q has scheme %q; expected http or https, such as https://agentregistry.googleapis.com or http://127.0.0.1:8787", raw, u.Scheme)
	case u.Host == "":
		return fmt.Errorf("%q has no host; expected an absolute URL such as http://127.0.0.1:8787", raw)
	case u.RawQuery != "" || u.Fragment != "":
		return fmt.Errorf("%q has a query or fragment; expected a base URL such as https://agentregistry.googleapis.com", raw)
	}
	return nil
}
