package validators

import (
	"context"
	"fmt"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/googlecreds"
)

// GoogleCredentials checks a credentials value given as JSON content (it
// starts with "{"): a Google credentials file of an accepted type. A path is
// read at plan, not here: a pull-request check may validate without the
// file. Its messages never quote the value, which holds secrets.
func GoogleCredentials() validator.String { return googleCredentials{} }

type googleCredentials struct{}

func (googleCredentials) Description(context.Context) string {
	return "must be the path of a Google credentials file, or its JSON content"
}

func (v googleCredentials) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (googleCredentials) ValidateString(_ context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	value := strings.TrimSpace(req.ConfigValue.ValueString())
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() || !strings.HasPrefix(value, "{") {
		return
	}
	if err := googlecreds.Check([]byte(value)); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Credentials", fmt.Sprintf("The provider's credentials: %v. "+
			"Expected the JSON content of a Google credentials file (or its path). The value is not shown: it holds secrets.", err))
	}
}
