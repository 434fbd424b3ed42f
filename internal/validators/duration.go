package validators

import (
	"context"
	"fmt"
	"time"

	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// Duration accepts a positive Go duration string (such as 10s, 500ms or
// 1m30s) of at most maximum.
func Duration(maximum time.Duration) validator.String { return duration{maximum: maximum} }

type duration struct{ maximum time.Duration }

func (v duration) Description(context.Context) string {
	return "must be a positive duration of at most " + v.maximum.String() + ", such as 10s, 500ms or 1m30s"
}

func (v duration) MarkdownDescription(ctx context.Context) string { return v.Description(ctx) }

func (v duration) ValidateString(ctx context.Context, req validator.StringRequest, resp *validator.StringResponse) {
	if req.ConfigValue.IsNull() || req.ConfigValue.IsUnknown() {
		return
	}
	if _, err := ParseDuration(req.ConfigValue.ValueString(), v.maximum); err != nil {
		resp.Diagnostics.AddAttributeError(req.Path, "Invalid Timeout", fmt.Sprintf("%s: %v.", req.Path, err))
	}
}

// ParseDuration parses a positive duration of at most maximum, explaining
// what is wrong otherwise. The provider shares it for values taken from the
// environment.
func ParseDuration(s string, maximum time.Duration) (time.Duration, error) {
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 || d > maximum {
		return 0, fmt.Errorf("%q is not a positive duration of at most %s, such as 10s, 500ms or 1m30s", s, maximum)
	}
	return d, nil
}
