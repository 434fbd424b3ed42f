package provider

// Value helpers shared by resources and data sources.

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/types"
)

// stringList is a list of strings, empty (never null) for none. Built directly:
// types.ListValueFrom reflects over the slice, which showed in the profile of
// a plan of many agents (skills have tags and examples).
func stringList(ss []string) types.List {
	elems := make([]attr.Value, len(ss))
	for i, s := range ss {
		elems[i] = types.StringValue(s)
	}
	return types.ListValueMust(types.StringType, elems)
}
