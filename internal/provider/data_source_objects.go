package provider

import (
	"context"
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/attr"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/googleapi"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
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

// --- what the Google provider's agent-registry data sources expose -----------

// frameworkKey is the attribute in which the registry reports an agent's framework.
const frameworkKey = "agentregistry.googleapis.com/system/Framework"

var protocolObjectType = types.ObjectType{AttrTypes: map[string]attr.Type{
	"type":             types.StringType,
	"protocol_version": types.StringType,
	"interfaces":       types.ListType{ElemType: types.ObjectType{AttrTypes: dsInterfaceAttrTypes}},
}}

// dsURNAttribute is a record's id under the name the Google provider gives it.
func dsURNAttribute(what, idAttr, googleType string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true,
		MarkdownDescription: "The " + what + "'s URN, the same value as `" + idAttr + "`, under the name the Google provider's `" +
			googleType + "` gives it."}
}

func dsProtocolsAttribute() schema.ListNestedAttribute {
	return schema.ListNestedAttribute{
		Computed:            true,
		MarkdownDescription: "The agent's protocols as the registry derives them: an A2A agent's card gives one `A2A_AGENT` protocol; an agent registered by its interfaces alone has one `CUSTOM` protocol.",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"type":             schema.StringAttribute{Computed: true, MarkdownDescription: "`A2A_AGENT` or `CUSTOM`."},
			"protocol_version": schema.StringAttribute{Computed: true, MarkdownDescription: "The protocol's version, such as the card's A2A version; empty when unknown."},
			"interfaces":       dsInterfacesAttribute("How to reach the agent over this protocol."),
		}},
	}
}

func dsProtocolsValue(ps []*agentregistry.Protocol) (types.List, diag.Diagnostics) {
	var diags diag.Diagnostics
	elems := []attr.Value{}
	for _, p := range ps {
		if p == nil {
			continue
		}
		_, ifaces, d := dsInterfacesValue(context.Background(), p.Interfaces)
		diags.Append(d...)
		obj, d := types.ObjectValue(protocolObjectType.AttrTypes, map[string]attr.Value{
			"type":             types.StringValue(p.Type),
			"protocol_version": types.StringValue(p.ProtocolVersion),
			"interfaces":       ifaces,
		})
		diags.Append(d...)
		elems = append(elems, obj)
	}
	list, d := types.ListValue(protocolObjectType, elems)
	diags.Append(d...)
	return list, diags
}

// dsAttributesAttribute is a record's attributes as the Google provider gives
// them: each value as canonical JSON.
func dsAttributesAttribute(what string) schema.MapAttribute {
	return schema.MapAttribute{Computed: true, ElementType: types.StringType,
		MarkdownDescription: "The " + what + "'s output-only `attributes`, by key (such as " +
			"`agentregistry.googleapis.com/system/RuntimeReference`), each value as canonical JSON, as the Google provider " +
			"gives them: `jsondecode(...[\"agentregistry.googleapis.com/system/RuntimeReference\"]).uri`. Empty when it has none."}
}

func dsAttributesValue(attrs map[string]googleapi.RawMessage) (types.Map, diag.Diagnostics) {
	vals := map[string]attr.Value{}
	for k, v := range attrs {
		if b, err := jsoncanon.Canonical(v); err == nil {
			vals[k] = types.StringValue(string(b))
		}
	}
	return types.MapValue(types.StringType, vals)
}

// dsFramework is the framework the registry reports for an agent, null when none.
func dsFramework(attrs map[string]googleapi.RawMessage) types.String {
	var v struct {
		Framework string `json:"framework"`
	}
	if json.Unmarshal(attrs[frameworkKey], &v) != nil || v.Framework == "" {
		return types.StringNull()
	}
	return types.StringValue(v.Framework)
}
