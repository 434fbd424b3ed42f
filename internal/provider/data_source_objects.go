package provider

import (
	"encoding/json"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/googleapi"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

// The skills and tools that the data sources return (and that the resources'
// state kept at schema version 0, see service_state_upgrade.go).

// a2aSkillModel is one A2A skill: of an agent's card, of agent properties, of a
// card that search_cards matched.
type a2aSkillModel struct {
	ID          string   `tfsdk:"id"`
	Name        string   `tfsdk:"name"`
	Description string   `tfsdk:"description"`
	Tags        []string `tfsdk:"tags"`
	Examples    []string `tfsdk:"examples"`
}

var a2aSkills = modelOf[a2aSkillModel]()

var skillObjectType = a2aSkills.ObjectType()

// flattenSkill is the model of one skill (empty lists, never null, so that
// plans and state agree).
func flattenSkill(s spec.Skill) a2aSkillModel {
	return a2aSkillModel{ID: s.ID, Name: s.Name, Description: s.Description, Tags: orEmpty(s.Tags), Examples: orEmpty(s.Examples)}
}

func flattenSkills(skills []spec.Skill) []a2aSkillModel {
	out := make([]a2aSkillModel, 0, len(skills))
	for _, s := range skills {
		out = append(out, flattenSkill(s))
	}
	return out
}

// toolModel is one tool of an MCP server.
type toolModel struct {
	Name            string `tfsdk:"name"`
	Title           string `tfsdk:"title"`
	Description     string `tfsdk:"description"`
	ReadOnlyHint    bool   `tfsdk:"read_only_hint"`
	DestructiveHint bool   `tfsdk:"destructive_hint"`
	IdempotentHint  bool   `tfsdk:"idempotent_hint"`
	OpenWorldHint   bool   `tfsdk:"open_world_hint"`
}

var toolObjectType = objectTypeOf[toolModel]()

// flattenTool is the model of one tool of an McpServer record, with the MCP
// defaults for a tool without annotations.
func flattenTool(t *agentregistry.Tool) toolModel {
	m := toolModel{Name: t.Name, Description: t.Description, DestructiveHint: true, OpenWorldHint: true}
	if a := t.Annotations; a != nil {
		m.Title = a.Title
		m.ReadOnlyHint, m.DestructiveHint = a.ReadOnlyHint, a.DestructiveHint
		m.IdempotentHint, m.OpenWorldHint = a.IdempotentHint, a.OpenWorldHint
	}
	return m
}

// orEmpty is s, or an empty slice for nil: the model of a list that is
// empty, not null (see object_type.go).
func orEmpty[T any](s []T) []T {
	if s == nil {
		return []T{}
	}
	return s
}

// --- what the Google provider's agent-registry data sources expose -----------

// frameworkKey is the attribute in which the registry reports an agent's framework.
const frameworkKey = "agentregistry.googleapis.com/system/Framework"

// protocolModel is one protocol of an Agent record.
type protocolModel struct {
	Type            string           `tfsdk:"type"`
	ProtocolVersion string           `tfsdk:"protocol_version"`
	Interfaces      []interfaceModel `tfsdk:"interfaces"`
}

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

func flattenProtocols(ps []*agentregistry.Protocol) []protocolModel {
	out := []protocolModel{}
	for _, p := range ps {
		if p != nil {
			out = append(out, protocolModel{Type: p.Type, ProtocolVersion: p.ProtocolVersion, Interfaces: flattenInterfaces(p.Interfaces).Interfaces})
		}
	}
	return out
}

// dsAttributesAttribute is a record's attributes as the Google provider gives
// them: each value as canonical JSON.
func dsAttributesAttribute(what string) schema.MapAttribute {
	return schema.MapAttribute{Computed: true, ElementType: types.StringType,
		MarkdownDescription: "The " + what + "'s output-only `attributes`, by key (such as " +
			"`agentregistry.googleapis.com/system/RuntimeReference`), each value as canonical JSON, as the Google provider " +
			"gives them: `jsondecode(...[\"agentregistry.googleapis.com/system/RuntimeReference\"]).uri`. Empty when it has none."}
}

// attributesModel is a record's output-only attributes, by key and as a
// whole (dsAttributesAttribute, dsAttributesJSONAttribute).
type attributesModel struct {
	Attributes     map[string]string `tfsdk:"attributes"`
	AttributesJSON types.String      `tfsdk:"attributes_json"`
}

// flattenAttributes is attrs by key, each as canonical JSON (an empty map for
// none), and as a whole (null for none).
func flattenAttributes(attrs map[string]googleapi.RawMessage) attributesModel {
	out := attributesModel{Attributes: map[string]string{}, AttributesJSON: dsAttributesJSON(attrs)}
	for k, v := range attrs {
		if b, err := jsoncanon.Canonical(v); err == nil {
			out.Attributes[k] = string(b)
		}
	}
	return out
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
