package provider

// What the data sources return: every result model that more than one file
// uses, each with its schema attributes and how a registry record flattens
// into it. First the parts of records (a skill, a tool, a protocol, the
// attributes, the interfaces), then the records (an agent, an MCP server, an
// endpoint, a binding). A model's object type is derived from its struct
// (object_type.go), and data_source_models_test.go checks that each matches
// the schema attribute it fills.

import (
	"encoding/json"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"
	"google.golang.org/api/googleapi"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

// --- the parts of records ---------------------------------------------------

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

// skillObjectType and toolObjectType are also the element types of the lists
// the agent and MCP server resources kept at schema version 0.
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

// dsSkillsNestedAttribute is a computed list of skills (a2aSkillModel).
func dsSkillsNestedAttribute(desc string) schema.ListNestedAttribute {
	return schema.ListNestedAttribute{
		Computed:            true,
		MarkdownDescription: desc,
		NestedObject:        schema.NestedAttributeObject{Attributes: dsSkillAttributes()},
	}
}

// dsSkillAttributes are the attributes of one skill (a2aSkillModel).
func dsSkillAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"id":          schema.StringAttribute{Computed: true, MarkdownDescription: "Skill id, unique within its agent."},
		"name":        schema.StringAttribute{Computed: true, MarkdownDescription: "Skill name."},
		"description": schema.StringAttribute{Computed: true, MarkdownDescription: "What the skill does."},
		"tags":        schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Keywords of the skill."},
		"examples":    schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "Example prompts; empty when the card gives none."},
	}
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

// dsInterfacesAttribute is a computed list of interfaces (url, protocol_binding).
func dsInterfacesAttribute(description string) schema.ListNestedAttribute {
	return schema.ListNestedAttribute{
		Computed:            true,
		MarkdownDescription: description,
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"url":              schema.StringAttribute{Computed: true, MarkdownDescription: "Endpoint URL."},
			"protocol_binding": schema.StringAttribute{Computed: true, MarkdownDescription: "Protocol binding, such as `JSONRPC`; empty when unspecified."},
		}},
	}
}

// interfacesModel is how to reach an MCP server or an endpoint: its
// interfaces, and their URLs alone.
type interfacesModel struct {
	URLs       []string         `tfsdk:"urls"`
	Interfaces []interfaceModel `tfsdk:"interfaces"`
}

func flattenInterfaces(in []*agentregistry.Interface) interfacesModel {
	out := interfacesModel{URLs: []string{}, Interfaces: []interfaceModel{}}
	for _, i := range in {
		if i != nil {
			out.URLs = append(out.URLs, i.Url)
			out.Interfaces = append(out.Interfaces, interfaceModel{URL: types.StringValue(i.Url), ProtocolBinding: types.StringValue(i.ProtocolBinding)})
		}
	}
	return out
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

// dsAttributesJSONAttribute is a record's output-only `attributes` map (such
// as agentregistry.googleapis.com/system/RuntimeReference) as canonical JSON.
func dsAttributesJSONAttribute(what string) schema.StringAttribute {
	return schema.StringAttribute{Computed: true,
		MarkdownDescription: "The " + what + "'s output-only `attributes` (such as " +
			"`agentregistry.googleapis.com/system/RuntimeReference`, the resource hosting it), as canonical JSON; null " +
			"when it has none. `jsondecode` it for the values."}
}

// dsAttributesJSON is attributes as canonical JSON, null when empty.
func dsAttributesJSON(attrs map[string]googleapi.RawMessage) types.String {
	if len(attrs) == 0 {
		return types.StringNull()
	}
	b, err := json.Marshal(attrs)
	if err == nil {
		b, err = jsoncanon.Canonical(b)
	}
	if err != nil {
		return types.StringNull()
	}
	return types.StringValue(string(b))
}

// --- the records -------------------------------------------------------------

// agentResultModel is one Agent record, as agentregistry_agent returns it.
type agentResultModel struct {
	Name        string          `tfsdk:"name"`
	AgentID     string          `tfsdk:"agent_id"`
	URN         string          `tfsdk:"urn"`
	DisplayName string          `tfsdk:"display_name"`
	Description string          `tfsdk:"description"`
	Version     string          `tfsdk:"version"`
	Framework   types.String    `tfsdk:"framework"`
	URLs        []string        `tfsdk:"urls"`
	Protocols   []protocolModel `tfsdk:"protocols"`
	Skills      []a2aSkillModel `tfsdk:"skills"`
	CardJSON    string          `tfsdk:"card_json"`
	CreateTime  string          `tfsdk:"create_time"`
	UpdateTime  string          `tfsdk:"update_time"`
	attributesModel
}

var agentResults = modelOf[agentResultModel]()

// agentResultAttributes are the computed attributes of one agent, shared by
// agentregistry_agents (per element) and agentregistry_agent (top level).
func agentResultAttributes() map[string]schema.Attribute {
	return map[string]schema.Attribute{
		"name": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "Full resource name, `projects/{project}/locations/{location}/agents/{service_id}`, named after the service that registered it.",
		},
		"agent_id": schema.StringAttribute{
			Computed: true,
			MarkdownDescription: "The agent's `agentId`, its stable, globally unique URN (the `agent_id` of the " +
				"`agentregistry_agent` resource that registered it), which a binding's `source` and `target` take.",
		},
		"urn": dsURNAttribute("agent", "agent_id", "google_agent_registry_agent"),
		"framework": schema.StringAttribute{
			Computed: true,
			MarkdownDescription: "The agent framework the registry reports (the `framework` of the `" + frameworkKey +
				"` attribute, such as `google-adk` or `langchain`); null when it reports none, as for every agent of the bundled server.",
		},
		"protocols":       dsProtocolsAttribute(),
		"create_time":     schema.StringAttribute{Computed: true, MarkdownDescription: "When the agent was registered (RFC 3339)."},
		"update_time":     schema.StringAttribute{Computed: true, MarkdownDescription: "When the agent was last updated (RFC 3339)."},
		"attributes":      dsAttributesAttribute("agent"),
		"attributes_json": dsAttributesJSONAttribute("agent"),
		"display_name": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "Display name (the card's `name` when the agent has a card).",
		},
		"description": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "Description of the agent.",
		},
		"version": schema.StringAttribute{
			Computed:            true,
			MarkdownDescription: "The agent's version, from its card; empty when unknown.",
		},
		"urls": schema.ListAttribute{
			Computed:            true,
			ElementType:         types.StringType,
			MarkdownDescription: "Endpoint URLs of the agent: from the card (`url` and `additionalInterfaces` in A2A 0.3, `supportedInterfaces` in 1.0), else from the registration's interfaces.",
		},
		"skills":    dsSkillsNestedAttribute("The agent's A2A skills, in card order."),
		"card_json": schema.StringAttribute{Computed: true, MarkdownDescription: "The A2A Agent Card as a JSON string, as the registry returns it; empty when the agent has no card. Use `jsondecode()` to read it."},
	}
}

func flattenAgent(a *agentregistry.Agent) agentResultModel {
	card := dsAgentCard(a)
	cardJSON := ""
	if a.Card != nil {
		cardJSON = string(a.Card.Content)
	}
	return agentResultModel{
		Name:            a.Name,
		AgentID:         a.AgentId,
		URN:             a.AgentId,
		DisplayName:     a.DisplayName,
		Description:     a.Description,
		Version:         dsAgentVersion(a, card),
		Framework:       dsFramework(a.Attributes),
		URLs:            dsAgentURLs(a, card),
		Protocols:       flattenProtocols(a.Protocols),
		Skills:          flattenSkills(dsAgentSkills(a, card)),
		CardJSON:        cardJSON,
		CreateTime:      a.CreateTime,
		UpdateTime:      a.UpdateTime,
		attributesModel: flattenAttributes(a.Attributes),
	}
}

// dsAgentCard parses the card of an agent record (nil when it has none or it
// does not parse).
func dsAgentCard(a *agentregistry.Agent) *spec.AgentCard {
	if a.Card == nil || len(a.Card.Content) == 0 {
		return nil
	}
	card, err := spec.ParseAgentCard([]byte(a.Card.Content))
	if err != nil {
		return nil
	}
	return card
}

// dsAgentSkills returns the skills of an agent record, falling back to its card.
func dsAgentSkills(a *agentregistry.Agent, card *spec.AgentCard) []spec.Skill {
	if len(a.Skills) == 0 && card != nil {
		return card.Skills
	}
	out := make([]spec.Skill, 0, len(a.Skills))
	for _, s := range a.Skills {
		if s == nil {
			continue
		}
		out = append(out, spec.Skill{ID: s.Id, Name: s.Name, Description: s.Description, Tags: s.Tags, Examples: s.Examples})
	}
	return out
}

// dsAgentURLs are the endpoint URLs of an agent: its card's, else its protocols' interfaces.
func dsAgentURLs(a *agentregistry.Agent, card *spec.AgentCard) []string {
	if card != nil && len(card.URLs) > 0 {
		return card.URLs
	}
	out := []string{}
	seen := map[string]bool{}
	for _, p := range a.Protocols {
		if p == nil {
			continue
		}
		for _, i := range p.Interfaces {
			if i != nil && i.Url != "" && !seen[i.Url] {
				seen[i.Url] = true
				out = append(out, i.Url)
			}
		}
	}
	return out
}

func dsAgentVersion(a *agentregistry.Agent, card *spec.AgentCard) string {
	if a.Version == "" && card != nil {
		return card.Version
	}
	return a.Version
}

// mcpServerResultModel is one McpServer record, as agentregistry_mcp_server
// returns it.
type mcpServerResultModel struct {
	Name        string `tfsdk:"name"`
	McpServerID string `tfsdk:"mcp_server_id"`
	URN         string `tfsdk:"urn"`
	DisplayName string `tfsdk:"display_name"`
	Description string `tfsdk:"description"`
	interfacesModel
	Tools      []toolModel `tfsdk:"tools"`
	CreateTime string      `tfsdk:"create_time"`
	UpdateTime string      `tfsdk:"update_time"`
	attributesModel
}

var mcpServerResults = modelOf[mcpServerResultModel]()

// mcpServerResultAttributes are the attributes of one MCP server that the
// data sources return (each of agentregistry_mcp_servers, and the singular
// agentregistry_mcp_server).
func mcpServerResultAttributes() map[string]schema.Attribute {
	attrs := dsRegistrationAttributes("MCP server", "mcpServers", "mcp_server", "mcpServerId", "Endpoints of the MCP server.")
	attrs["tools"] = schema.ListNestedAttribute{
		Computed:            true,
		MarkdownDescription: "The server's MCP tools, in tool-spec order.",
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"name":             schema.StringAttribute{Computed: true, MarkdownDescription: "Tool name."},
			"title":            schema.StringAttribute{Computed: true, MarkdownDescription: "Human-readable title (`annotations.title`); empty when absent."},
			"description":      schema.StringAttribute{Computed: true, MarkdownDescription: "What the tool does."},
			"read_only_hint":   schema.BoolAttribute{Computed: true, MarkdownDescription: "`annotations.readOnlyHint` (MCP default `false`)."},
			"destructive_hint": schema.BoolAttribute{Computed: true, MarkdownDescription: "`annotations.destructiveHint` (MCP default `true`)."},
			"idempotent_hint":  schema.BoolAttribute{Computed: true, MarkdownDescription: "`annotations.idempotentHint` (MCP default `false`)."},
			"open_world_hint":  schema.BoolAttribute{Computed: true, MarkdownDescription: "`annotations.openWorldHint` (MCP default `true`)."},
		}},
	}
	return attrs
}

func flattenMcpServer(s *agentregistry.McpServer) mcpServerResultModel {
	tools := []toolModel{}
	for _, t := range s.Tools {
		if t != nil {
			tools = append(tools, flattenTool(t))
		}
	}
	return mcpServerResultModel{
		Name:            s.Name,
		McpServerID:     s.McpServerId,
		URN:             s.McpServerId,
		DisplayName:     s.DisplayName,
		Description:     s.Description,
		interfacesModel: flattenInterfaces(s.Interfaces),
		Tools:           tools,
		CreateTime:      s.CreateTime,
		UpdateTime:      s.UpdateTime,
		attributesModel: flattenAttributes(s.Attributes),
	}
}

// endpointResultModel is one Endpoint record.
type endpointResultModel struct {
	Name        string `tfsdk:"name"`
	EndpointID  string `tfsdk:"endpoint_id"`
	URN         string `tfsdk:"urn"`
	DisplayName string `tfsdk:"display_name"`
	Description string `tfsdk:"description"`
	interfacesModel
	CreateTime string `tfsdk:"create_time"`
	UpdateTime string `tfsdk:"update_time"`
	attributesModel
}

var endpointResults = modelOf[endpointResultModel]()

// endpointResultAttributes are the attributes of one Endpoint record that the
// data sources return.
func endpointResultAttributes() map[string]schema.Attribute {
	return dsRegistrationAttributes("endpoint", "endpoints", "endpoint", "endpointId", "How to reach the endpoint.")
}

// dsRegistrationAttributes are the attributes that an MCP server and an
// endpoint record share: what the record is called (what), its collection in
// the resource name, its kind as Terraform names it (mcp_server: the
// mcp_server_id attribute, the agentregistry_ and google_agent_registry_
// resource types), its URN field in the API, and what its interfaces are.
func dsRegistrationAttributes(what, collection, kind, urnField, interfaces string) map[string]schema.Attribute {
	idAttr := kind + "_id"
	return map[string]schema.Attribute{
		"name": schema.StringAttribute{Computed: true,
			MarkdownDescription: "Full resource name, `projects/{project}/locations/{location}/" + collection + "/{service_id}`, named after the service that registered it."},
		idAttr: schema.StringAttribute{Computed: true, MarkdownDescription: "The " + what + "'s `" + urnField + "`, its stable, globally unique URN (the `" + idAttr +
			"` of the `agentregistry_" + kind + "` resource that registered it), which a binding's `target` takes."},
		"urn":          dsURNAttribute(what, idAttr, "google_agent_registry_"+kind),
		"attributes":   dsAttributesAttribute(what),
		"display_name": schema.StringAttribute{Computed: true, MarkdownDescription: "Display name."},
		"description":  schema.StringAttribute{Computed: true, MarkdownDescription: "Description."},
		"urls": schema.ListAttribute{Computed: true, ElementType: types.StringType,
			MarkdownDescription: "The URLs of `interfaces`, in order."},
		"interfaces":      dsInterfacesAttribute(interfaces),
		"create_time":     schema.StringAttribute{Computed: true, MarkdownDescription: "When the " + what + " was registered (RFC 3339)."},
		"update_time":     schema.StringAttribute{Computed: true, MarkdownDescription: "When the " + what + " was last updated (RFC 3339)."},
		"attributes_json": dsAttributesJSONAttribute(what),
	}
}

func flattenEndpoint(e *agentregistry.Endpoint) endpointResultModel {
	return endpointResultModel{
		Name:            e.Name,
		EndpointID:      e.EndpointId,
		URN:             e.EndpointId,
		DisplayName:     e.DisplayName,
		Description:     e.Description,
		interfacesModel: flattenInterfaces(e.Interfaces),
		CreateTime:      e.CreateTime,
		UpdateTime:      e.UpdateTime,
		attributesModel: flattenAttributes(e.Attributes),
	}
}

// bindingResultModel is one Binding record.
type bindingResultModel struct {
	Name         string   `tfsdk:"name"`
	BindingID    string   `tfsdk:"binding_id"`
	DisplayName  string   `tfsdk:"display_name"`
	Description  string   `tfsdk:"description"`
	Source       string   `tfsdk:"source"`
	Target       string   `tfsdk:"target"`
	AuthProvider string   `tfsdk:"auth_provider"`
	Scopes       []string `tfsdk:"scopes"`
	ContinueURI  string   `tfsdk:"continue_uri"`
	CreateTime   string   `tfsdk:"create_time"`
	UpdateTime   string   `tfsdk:"update_time"`
}

var bindingResults = modelOf[bindingResultModel]()

// dsBindingsAttribute is the computed list of bindings the binding data sources return.
func dsBindingsAttribute(description string) schema.ListNestedAttribute {
	str := func(d string) schema.StringAttribute {
		return schema.StringAttribute{Computed: true, MarkdownDescription: d}
	}
	return schema.ListNestedAttribute{
		Computed:            true,
		MarkdownDescription: description,
		NestedObject: schema.NestedAttributeObject{Attributes: map[string]schema.Attribute{
			"name":          str("Full resource name, `projects/{project}/locations/{location}/bindings/{binding_id}`."),
			"binding_id":    str("The binding's id, the last segment of `name`."),
			"display_name":  str("Display name."),
			"description":   str("Description."),
			"source":        str("The source agent's URN; empty when the binding is available to every agent."),
			"target":        str("The target agent's, MCP server's or endpoint's URN."),
			"auth_provider": str("The auth provider's name; empty when the binding has none."),
			"scopes":        schema.ListAttribute{Computed: true, ElementType: types.StringType, MarkdownDescription: "The OAuth 2.0 scopes, in order."},
			"continue_uri":  str("The auth provider's continue URI; empty when unset."),
			"create_time":   str("When the binding was created (RFC 3339)."),
			"update_time":   str("When the binding was last updated (RFC 3339)."),
		}},
	}
}

// dsBindingsValue converts bindings, sorted by name, to their list; ok is
// false when they pass the result caps (an error in diags says which, and
// narrow what narrows the read).
func dsBindingsValue(diags *diag.Diagnostics, bs []*agentregistry.Binding, narrow string) (list types.List, ok bool) {
	sort.SliceStable(bs, func(i, j int) bool { return bs[i].Name < bs[j].Name })
	models := make([]bindingResultModel, 0, len(bs))
	for _, b := range bs {
		models = append(models, flattenBinding(b))
	}
	if !withinResultCaps(diags, "bindings", models, narrow) {
		return list, false
	}
	return bindingResults.List(models), true
}

func flattenBinding(b *agentregistry.Binding) bindingResultModel {
	m := bindingResultModel{Name: b.Name, BindingID: lastSegment(b.Name), DisplayName: b.DisplayName, Description: b.Description,
		Scopes: []string{}, CreateTime: b.CreateTime, UpdateTime: b.UpdateTime}
	if b.Source != nil {
		m.Source = b.Source.Identifier
	}
	if b.Target != nil {
		m.Target = b.Target.Identifier
	}
	if a := b.AuthProviderBinding; a != nil {
		m.AuthProvider, m.Scopes, m.ContinueURI = a.AuthProvider, orEmpty(a.Scopes), a.ContinueUri
	}
	return m
}
