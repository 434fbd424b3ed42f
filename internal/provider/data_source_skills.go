package provider

import (
	"context"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework-validators/datasourcevalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/listvalidator"
	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/path"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

var (
	_ datasource.DataSource                     = (*skillsDataSource)(nil)
	_ datasource.DataSourceWithConfigure        = (*skillsDataSource)(nil)
	_ datasource.DataSourceWithConfigValidators = (*skillsDataSource)(nil)
	_ datasource.DataSourceWithValidateConfig   = (*skillsDataSource)(nil)
)

// NewSkillsDataSource is the agentregistry_skills data source.
func NewSkillsDataSource() datasource.DataSource { return &skillsDataSource{} }

type skillsDataSource struct{ dataSourceBase }

type skillsDataSourceModel struct {
	Query      types.String `tfsdk:"query"`
	Source     types.String `tfsdk:"source"`
	SearchType types.String `tfsdk:"search_type"`
	Tags       types.List   `tfsdk:"tags"`
	MaxResults types.Int64  `tfsdk:"max_results"`
	Project    types.String `tfsdk:"project"`
	Location   types.String `tfsdk:"location"`
	Skills     types.List   `tfsdk:"skills"`
}

// skillsResultModel is one result of agentregistry_skills: a skill, of an
// agent's card or standalone, and where it comes from.
type skillsResultModel struct {
	a2aSkillModel
	AgentName        types.String `tfsdk:"agent_name"`
	AgentID          types.String `tfsdk:"agent_id"`
	AgentDisplayName types.String `tfsdk:"agent_display_name"`
	AgentURLs        []string     `tfsdk:"agent_urls"`
	Source           string       `tfsdk:"source"`
	SkillName        types.String `tfsdk:"skill_name"`
}

var skillsResults = modelOf[skillsResultModel]()

func (d *skillsDataSource) Metadata(_ context.Context, req datasource.MetadataRequest, resp *datasource.MetadataResponse) {
	resp.TypeName = req.ProviderTypeName + "_skills"
}

func (d *skillsDataSource) Schema(_ context.Context, _ datasource.SchemaRequest, resp *datasource.SchemaResponse) {
	resultAttrs := dsSkillAttributes()
	resultAttrs["agent_name"] = schema.StringAttribute{Computed: true,
		MarkdownDescription: "Full resource name of the agent that offers the skill, `projects/{project}/locations/{location}/agents/{agent_id}`."}
	resultAttrs["agent_id"] = schema.StringAttribute{Computed: true, MarkdownDescription: "Id of the agent that offers the skill."}
	resultAttrs["agent_display_name"] = schema.StringAttribute{Computed: true, MarkdownDescription: "Display name of the agent."}
	resultAttrs["agent_urls"] = schema.ListAttribute{Computed: true, ElementType: types.StringType,
		MarkdownDescription: "Endpoint URLs of the agent, from its A2A Agent Card, in card order: where to call the skill."}
	addStandaloneResultAttributes(resultAttrs)

	resp.Schema = schema.Schema{
		MarkdownDescription: "Finds **skills** across the registry's agents. The registry's search selects agents; the " +
			"provider then keeps each skill of those agents that the query matches on its own (the skill's fields plus " +
			"its agent's `agentId`, `name`, `displayName` and `description`) and that carries every tag in `tags`. So " +
			"`displayName:currency` returns every skill of the matching agents, while `skills.tags=fx` returns only the " +
			"skills tagged `fx`, even when their agent has others. Results follow page tokens to the end and are " +
			"ordered by agent name, then by the skill's position in the card, so repeated plans are stable. At least " +
			"one of `query` and `tags` is required. With `source`, it also (or only) searches the registry's " +
			"standalone skills (`agentregistry_skill`) through `skills:search`.\n\n" +
			dsSameConfigurationNote("agents") +
			"\n\n" + pageCapsDoc + "\n\n" + resultCapsDoc,
		Attributes: map[string]schema.Attribute{
			"query": schema.StringAttribute{
				Optional: true,
				MarkdownDescription: dsSearchGrammarDescription("agents",
					"`agentId`, `name`, `displayName`, `description`, `skills` (any skill field), `skills.id`, `skills.name`, "+
						"`skills.description`, `skills.tags`, `skills.examples`", "skills.tags=fx AND displayName:currency*") + " Bare words search every field, skills included.",
			},
			"tags": schema.ListAttribute{
				Optional:    true,
				ElementType: types.StringType,
				MarkdownDescription: "Keep only skills that carry **every** one of these tags (compared case-insensitively, " +
					"like `skills.tags=...`). Combined with `query` by AND.",
				Validators: []validator.List{listvalidator.ValueStringsAre(stringvalidator.LengthAtLeast(1))},
			},
			"source":      skillsSourceAttribute(),
			"search_type": skillsSearchTypeAttribute(),
			"max_results": dsMaxResultsAttribute("skills"),
			"project":     dsProjectAttribute(),
			"location":    dsLocationAttribute(),
			"skills": schema.ListNestedAttribute{
				Computed: true,
				MarkdownDescription: "The matching skills, one element per skill (an agent with three matching skills " +
					"gives three elements), ordered by agent name and then card order; an empty list when nothing matches.",
				NestedObject: schema.NestedAttributeObject{Attributes: resultAttrs},
			},
		},
	}
}

func (d *skillsDataSource) ConfigValidators(context.Context) []datasource.ConfigValidator {
	return []datasource.ConfigValidator{
		datasourcevalidator.AtLeastOneOf(path.MatchRoot("query"), path.MatchRoot("tags")),
	}
}

// ValidateConfig rejects a malformed query before any request, when it is known.
func (d *skillsDataSource) ValidateConfig(ctx context.Context, req datasource.ValidateConfigRequest, resp *datasource.ValidateConfigResponse) {
	var q types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("query"), &q)...)
	if q.IsNull() || q.IsUnknown() {
		return
	}
	if strings.TrimSpace(q.ValueString()) == "" {
		// A blank query matches everything: with no tags it would select every
		// skill in the registry, which "at least one of query and tags" rules out.
		var tags types.List
		resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("tags"), &tags)...)
		if !tags.IsUnknown() && len(tags.Elements()) == 0 {
			resp.Diagnostics.AddAttributeError(path.Root("query"), "Invalid Search Query",
				"The search query is empty and no tags are set, so it would select every skill in the registry. "+
					"Set query to a search such as \"skills.tags=fx\", or set tags (and omit query rather than setting it to \"\").")
		}
		return
	}
	var source types.String
	resp.Diagnostics.Append(req.Config.GetAttribute(ctx, path.Root("source"), &source)...)
	if source.IsUnknown() {
		return
	}
	for _, schema := range skillsQuerySchemas(source.ValueString()) {
		if _, err := searchquery.Parse(q.ValueString(), schema); err != nil {
			resp.Diagnostics.AddAttributeError(path.Root("query"), "Invalid Search Query", invalidQueryDetail(q.ValueString(), err)+schemaHint(schema))
			return
		}
	}
}

func (d *skillsDataSource) Read(ctx context.Context, req datasource.ReadRequest, resp *datasource.ReadResponse) {
	var m skillsDataSourceModel
	resp.Diagnostics.Append(req.Config.Get(ctx, &m)...)
	if resp.Diagnostics.HasError() || !d.configured(&resp.Diagnostics) {
		return
	}
	var tags []string
	if !m.Tags.IsNull() {
		resp.Diagnostics.Append(m.Tags.ElementsAs(ctx, &tags, false)...)
		if resp.Diagnostics.HasError() {
			return
		}
	}
	query := m.Query.ValueString()
	limit := int(m.MaxResults.ValueInt64())
	results := []skillsResultModel{}
	if src := m.Source.ValueString(); src == skillsSourceAgents || src == skillsSourceAll || src == "" {
		results = append(results, d.agentSkills(ctx, &m, query, tags, limit, &resp.Diagnostics)...)
	}
	if src := m.Source.ValueString(); !resp.Diagnostics.HasError() && (src == skillsSourceStandalone || src == skillsSourceAll) {
		results = append(results, d.standaloneSkills(ctx, &m, query, tags, limit-len(results), &resp.Diagnostics)...)
	}
	if resp.Diagnostics.HasError() {
		return
	}
	if !withinResultCaps(&resp.Diagnostics, "skills", results, "`max_results`, a narrower `query`, or `tags`") {
		return
	}
	m.Skills = skillsResults.List(results)
	resp.Diagnostics.Append(resp.State.Set(ctx, &m)...)
}

// agentSkills are the skills of the registry's agents that the query and
// tags select, in agent name and card order.
func (d *skillsDataSource) agentSkills(ctx context.Context, m *skillsDataSourceModel, query string, tags []string, limit int, diags *diag.Diagnostics) []skillsResultModel {
	q, err := searchquery.Parse(query, searchquery.Agents)
	if err != nil {
		diags.AddAttributeError(path.Root("query"), "Invalid Search Query", invalidQueryDetail(query, err))
		return nil
	}

	serverQuery := skillsServerQuery(query, q, tags)
	agents, err := d.data.Client.SearchAgents(ctx, d.data.parent(m.Project, m.Location), serverQuery, 0)
	if err != nil {
		addSearchError(diags, "skills", serverQuery, err, "a narrower `query`, or `tags`")
		return nil
	}
	dsSortAgents(agents)
	results := []skillsResultModel{}
collect:
	for _, a := range agents {
		card := dsAgentCard(a)
		urls := dsAgentURLs(a, card)
		for _, s := range dsAgentSkills(a, card) {
			if !q.Match(skillView{agent: a, skill: s}) || !hasAllTags(s.Tags, tags) {
				continue
			}
			if limit > 0 && len(results) >= limit {
				break collect
			}
			results = append(results, flattenAgentSkill(a, s, urls))
		}
	}
	return results
}

// skillsServerQuery is the agents:search string: the query, relaxed so that
// it selects every agent with at least one matching skill (see
// relaxForAgents), AND every tag as an exact skills.tags term. An unchanged
// query is sent as written, so that the registry's messages refer to the
// user's text.
func skillsServerQuery(query string, q searchquery.Query, tags []string) string {
	parts := []string{}
	root, changed := relaxForAgents(q.Root)
	switch {
	case root == nil:
	case !changed && len(tags) == 0:
		return query
	case !changed:
		parts = append(parts, "("+query+")")
	default:
		parts = append(parts, root.String())
	}
	for _, t := range tags {
		parts = append(parts, "skills.tags="+searchquery.Quote(t))
	}
	return strings.Join(parts, " AND ")
}

// agentLevelFields are the fields of an agent that every skill view shares.
var agentLevelFields = map[string]bool{"agentId": true, "name": true, "displayName": true, "description": true}

// relaxForAgents turns a query on one skill view into a query on whole agents
// that selects at least every agent having a skill the original matches (nil
// means every agent). Terms, AND and OR carry over: a value in a skill view is
// in its agent. A NOT over skill fields does not (an agent with skills "a" and
// "b" fails "NOT skills.id=a" while its skill "b" passes), so it becomes
// "everything", and the per-skill match decides.
func relaxForAgents(n searchquery.Node) (searchquery.Node, bool) {
	switch n := n.(type) {
	case *searchquery.And:
		l, lc := relaxForAgents(n.L)
		r, rc := relaxForAgents(n.R)
		switch {
		case l == nil:
			return r, true
		case r == nil:
			return l, true
		case lc || rc:
			return &searchquery.And{L: l, R: r}, true
		}
		return n, false
	case *searchquery.Or:
		l, lc := relaxForAgents(n.L)
		r, rc := relaxForAgents(n.R)
		switch {
		case l == nil || r == nil:
			return nil, true
		case lc || rc:
			return &searchquery.Or{L: l, R: r}, true
		}
		return n, false
	case *searchquery.Not:
		if agentLevelOnly(n.X) {
			return n, false
		}
		return nil, true
	}
	return n, false
}

func agentLevelOnly(n searchquery.Node) bool {
	switch n := n.(type) {
	case *searchquery.And:
		return agentLevelOnly(n.L) && agentLevelOnly(n.R)
	case *searchquery.Or:
		return agentLevelOnly(n.L) && agentLevelOnly(n.R)
	case *searchquery.Not:
		return agentLevelOnly(n.X)
	case *searchquery.Term:
		return agentLevelFields[n.Field]
	}
	return true
}

func hasAllTags(have, want []string) bool {
	for _, w := range want {
		found := false
		for _, h := range have {
			if strings.EqualFold(h, w) {
				found = true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// skillView is the document a query is matched against for one skill: the
// agent's own fields plus that single skill.
type skillView struct {
	agent *agentregistry.Agent
	skill spec.Skill
}

func (v skillView) Values(field string) []string {
	switch field {
	case "agentId":
		return []string{v.agent.AgentId}
	case "name":
		return []string{v.agent.Name}
	case "displayName":
		return []string{v.agent.DisplayName}
	case "description":
		return []string{v.agent.Description}
	case "skills.id":
		return []string{v.skill.ID}
	case "skills.name":
		return []string{v.skill.Name}
	case "skills.description":
		return []string{v.skill.Description}
	case "skills.tags":
		return v.skill.Tags
	case "skills.examples":
		return v.skill.Examples
	}
	return nil
}

// flattenAgentSkill is the result of the skill s of the agent a, whose
// endpoint URLs are urls.
func flattenAgentSkill(a *agentregistry.Agent, s spec.Skill, urls []string) skillsResultModel {
	return skillsResultModel{
		a2aSkillModel:    flattenSkill(s),
		AgentName:        types.StringValue(a.Name),
		AgentID:          types.StringValue(a.AgentId),
		AgentDisplayName: types.StringValue(a.DisplayName),
		AgentURLs:        urls,
		Source:           "agent",
		SkillName:        types.StringNull(),
	}
}
