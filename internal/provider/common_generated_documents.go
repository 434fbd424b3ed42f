package provider

// The form in which a document is stored when nothing was configured yet (an
// import, a list result of `terraform query`): the exact string that
// Terraform's generated configuration evaluates to. Terraform writes a JSON
// string attribute into generated configuration as `jsonencode({...})` (its
// genconfig package decodes the JSON into an HCL value), and a configured
// attribute must plan as the configuration, so a stored string in any other
// form would plan an update on the first plan after the import. Storing what
// jsonencode produces (keys sorted, no spaces, <, > and & escaped, numbers
// in decimal) makes that plan empty. The conversion is go-cty's, the library
// Terraform itself uses for both steps.

import (
	"github.com/zclconf/go-cty/cty/function/stdlib"
	ctyjson "github.com/zclconf/go-cty/cty/json"
)

// generatedConfigForm is jsonencode(<doc as generated configuration>): the
// JSON decoded as Terraform's config generation decodes it, encoded again as
// Terraform's jsonencode encodes it.
func generatedConfigForm(doc []byte) ([]byte, error) {
	var v ctyjson.SimpleJSONValue
	if err := v.UnmarshalJSON(doc); err != nil {
		return nil, err
	}
	out, err := stdlib.JSONEncode(v.Value)
	if err != nil {
		return nil, err
	}
	return []byte(out.AsString()), nil
}
