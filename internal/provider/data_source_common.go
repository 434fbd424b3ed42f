package provider

// What the data sources share: provider data, common attributes, search errors,
// and the agent result object of agentregistry_agents and agentregistry_agent.

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/hashicorp/terraform-plugin-framework-validators/int64validator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/termsafe"
)

// dataSourceBase receives the provider's data in Configure.
type dataSourceBase struct {
	data *providerData
}

func (b *dataSourceBase) Configure(_ context.Context, req datasource.ConfigureRequest, resp *datasource.ConfigureResponse) {
	if data := providerDataFrom(req.ProviderData, &resp.Diagnostics); data != nil {
		b.data = data
	}
}

func (b *dataSourceBase) configured(diags *diag.Diagnostics) bool {
	if b.data == nil || b.data.Client == nil {
		addNotConfigured(diags, "this data source")
		return false
	}
	return true
}

func dsSearchGrammarDescription(kind, fields, example string) string {
	return "Search string in the registry's grammar: bare words (searched in every field), `field:value` " +
		"(the value's words occur in the field), `field=value` (the whole value, case-insensitively), a trailing " +
		"`*` for a prefix, `AND` (or juxtaposition), `OR`, `NOT` and parentheses. Searchable fields of " + kind +
		": " + fields + ". Example: `" + example + "`."
}

func dsMaxResultsAttribute(what string) schema.Int64Attribute {
	return schema.Int64Attribute{
		Optional:            true,
		MarkdownDescription: "Return at most this many " + what + " (at least 1). Without it, every match is returned.",
		Validators:          []validator.Int64{int64validator.AtLeast(1)},
	}
}

func dsProjectAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional:            true,
		MarkdownDescription: "Project to search. Defaults to the provider's `project`.",
	}
}

func dsLocationAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional:            true,
		MarkdownDescription: "Location to search. Defaults to the provider's `location`.",
	}
}

// addSearchError turns a failed search into a diagnostic: a rejected query is
// "Invalid Search Query" with the registry's explanation, and a read stopped
// at a page cap says which attributes narrow it (narrow).
func addSearchError(diags *diag.Diagnostics, what, query string, err error, narrow string) {
	if addPageLimitError(diags, what, err, narrow) {
		return
	}
	var ae *registryclient.APIError
	if errors.As(err, &ae) && (ae.Status == "INVALID_ARGUMENT" || (ae.Status == "" && ae.Code == 400)) {
		diags.AddError("Invalid Search Query",
			fmt.Sprintf("The registry rejected the search query %q: %s\n\nFix the query: bare words, field:value, "+
				"field=value, a trailing *, AND, OR, NOT and parentheses.", query, ae.Message))
		return
	}
	detail := fmt.Sprintf("Searching %s for %q failed: %s", what, query, termsafe.Text(err.Error()))
	if hint := errorHint("search", what, err); hint != "" {
		detail += "\n\n" + hint
	}
	diags.AddError("Cannot Search "+dsTitle(what), detail)
}

func dsTitle(what string) string {
	switch what {
	case "agents":
		return "Agents"
	case "skills":
		return "Skills"
	case "MCP servers":
		return "MCP Servers"
	case "endpoints":
		return "Endpoints"
	case "bindings":
		return "Bindings"
	}
	return what
}

func dsSortAgents(agents []*agentregistry.Agent) {
	sort.SliceStable(agents, func(i, j int) bool { return agents[i].Name < agents[j].Name })
}

// --- one agent as a Terraform object ----------------------------------------

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
