package validators

import (
	"regexp"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
)

// ServiceIDPattern is the registry's rule for service ids.
var ServiceIDPattern = regexp.MustCompile(`^[a-z][a-z0-9-]{3,62}$`)

// ServiceID accepts the registry's service ids: 4-63 characters of [a-z0-9-], starting with a letter.
func ServiceID() validator.String {
	return stringvalidator.RegexMatches(ServiceIDPattern,
		"must be 4 to 63 characters of lowercase letters, digits and hyphens, starting with a letter (for example \"currency-agent\")")
}
