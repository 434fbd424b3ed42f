package provider

import (
	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

// Object types of the skills and tools that the data sources return (and that
// the resources' state kept at schema version 0, see service_state_upgrade.go).

var skillAttrTypes = map[string]attr.Type{
	"id":          types.StringType,
	"name":        types.StringType,
	"description": types.StringType,
	"tags":        types.ListType{ElemType: types.StringType},
	"examples":    types.ListType{ElemType: types.StringType},
}

var skillObjectType = types.ObjectType{AttrTypes: skillAttrTypes}

var toolAttrTypes = map[string]attr.Type{
	"name":             types.StringType,
	"title":            types.StringType,
	"description":      types.StringType,
	"read_only_hint":   types.BoolType,
	"destructive_hint": types.BoolType,
	"idempotent_hint":  types.BoolType,
	"open_world_hint":  types.BoolType,
}

var toolObjectType = types.ObjectType{AttrTypes: toolAttrTypes}

// skillValue converts one skill to its Terraform object (empty lists, never null,
// so that plans and state agree).
func skillValue(s spec.Skill) (types.Object, diag.Diagnostics) {
	return types.ObjectValue(skillAttrTypes, map[string]attr.Value{
		"id":          types.StringValue(s.ID),
		"name":        types.StringValue(s.Name),
		"description": types.StringValue(s.Description),
		"tags":        stringList(s.Tags),
		"examples":    stringList(s.Examples),
	})
}

// skillsValue converts skills to a list of skill objects.
func skillsValue(skills []spec.Skill) (types.List, diag.Diagnostics) {
	var diags diag.Diagnostics
	elems := make([]attr.Value, 0, len(skills))
	for _, s := range skills {
		obj, d := skillValue(s)
		diags.Append(d...)
		elems = append(elems, obj)
	}
	list, d := types.ListValue(skillObjectType, elems)
	diags.Append(d...)
	return list, diags
}

// toolsValue converts tools (MCP defaults already applied) to a list of tool objects.
func toolsValue(tools []spec.Tool) (types.List, diag.Diagnostics) {
	var diags diag.Diagnostics
	elems := make([]attr.Value, 0, len(tools))
	for _, t := range tools {
		obj, d := types.ObjectValue(toolAttrTypes, map[string]attr.Value{
			"name":             types.StringValue(t.Name),
			"title":            types.StringValue(t.Title),
			"description":      types.StringValue(t.Description),
			"read_only_hint":   types.BoolValue(t.ReadOnlyHint),
			"destructive_hint": types.BoolValue(t.DestructiveHint),
			"idempotent_hint":  types.BoolValue(t.IdempotentHint),
			"open_world_hint":  types.BoolValue(t.OpenWorldHint),
		})
		diags.Append(d...)
		elems = append(elems, obj)
	}
	list, d := types.ListValue(toolObjectType, elems)
	diags.Append(d...)
	return list, diags
}

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
