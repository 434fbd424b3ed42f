package provider

// The standalone part of agentregistry_skills: skills registered on their own
// (agentregistry_skill, skills:search) rather than inside an agent's card.

import (
	"context"

	"github.com/hashicorp/terraform-plugin-framework-validators/stringvalidator"
	"github.com/hashicorp/terraform-plugin-framework/datasource/schema"
	"github.com/hashicorp/terraform-plugin-framework/diag"
	"github.com/hashicorp/terraform-plugin-framework/schema/validator"
	"github.com/hashicorp/terraform-plugin-framework/types"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

const (
	skillsSourceAgents     = "agents"
	skillsSourceStandalone = "standalone"
	skillsSourceAll        = "all"
)

func skillsSourceAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "Which skills to search: `agents` (the default: skills in the A2A cards of the registry's " +
			"agents), `standalone` (skills registered on their own, as `agentregistry_skill` does, found with " +
			"`skills:search`), or `all` (agents' skills first, then standalone ones). For standalone skills the query's " +
			"fields are `skillId`, `name`, `displayName`, `description`, `frontmatter` (any of `frontmatter.name`, " +
			"`frontmatter.description`, `frontmatter.license`, `frontmatter.compatibility`, `frontmatter.metadata`); with " +
			"`all`, the query must be valid for both kinds (bare words always are). Standalone skills have no tags: when " +
			"`tags` is set, none is returned.",
		Validators: []validator.String{stringvalidator.OneOf(skillsSourceAgents, skillsSourceStandalone, skillsSourceAll)},
	}
}

func skillsSearchTypeAttribute() schema.StringAttribute {
	return schema.StringAttribute{
		Optional: true,
		MarkdownDescription: "The `searchType` of `skills:search` for standalone skills: `KEYWORD` (the default; the " +
			"query grammar) or `SEMANTIC` (ranked by the registry; the bundled server ranks lexically with BM25 and " +
			"has no embeddings). Ignored for agents' skills.",
		Validators: []validator.String{stringvalidator.OneOf("KEYWORD", "SEMANTIC")},
	}
}

// addStandaloneResultAttributes adds the result fields that tell the two kinds apart.
func addStandaloneResultAttributes(attrs map[string]schema.Attribute) {
	attrs["source"] = schema.StringAttribute{Computed: true,
		MarkdownDescription: "`agent` for a skill of an agent's card, `standalone` for a skill registered on its own."}
	attrs["skill_name"] = schema.StringAttribute{Computed: true,
		MarkdownDescription: "For a standalone skill, its full resource name `projects/{project}/locations/{location}/skills/{skill_id}`; null for an agent's skill."}
}

// skillsQuerySchemas are the schemas a query must be valid in for source.
func skillsQuerySchemas(source string) []*searchquery.Schema {
	switch source {
	case skillsSourceStandalone:
		return []*searchquery.Schema{searchquery.Skills}
	case skillsSourceAll:
		return []*searchquery.Schema{searchquery.Agents, searchquery.Skills}
	}
	return []*searchquery.Schema{searchquery.Agents}
}

func schemaHint(s *searchquery.Schema) string {
	if s == searchquery.Skills {
		return "\n\nThis query is also sent to skills:search (source is standalone or all), whose fields are skillId, name, " +
			"displayName, description and frontmatter.*."
	}
	return ""
}

// standaloneSkills runs skills:search; limit <= 0 with max_results set means
// the agents' skills already filled it.
func (d *skillsDataSource) standaloneSkills(ctx context.Context, m *skillsDataSourceModel, query string, tags []string, limit int, diags *diag.Diagnostics) []skillsResultModel {
	if len(tags) > 0 || (!m.MaxResults.IsNull() && m.MaxResults.ValueInt64() > 0 && limit <= 0) {
		return nil
	}
	if m.MaxResults.IsNull() || m.MaxResults.ValueInt64() <= 0 {
		limit = 0
	}
	found, err := d.data.Client.SearchSkills(ctx, d.data.parent(m.Project, m.Location), query, m.SearchType.ValueString(), limit)
	if err != nil {
		addSearchError(diags, "skills", query, err, "`max_results` or a narrower `query`")
		return nil
	}
	results := make([]skillsResultModel, 0, len(found))
	for _, sk := range found {
		results = append(results, flattenStandaloneSkill(sk))
	}
	return results
}

// flattenStandaloneSkill is the result of a Skill record: no tags, examples
// or agent.
func flattenStandaloneSkill(sk *agentregistry.Skill) skillsResultModel {
	name, desc := sk.DisplayName, sk.Description
	if fm := sk.Frontmatter; fm != nil {
		name = fm.Name
		if desc == "" {
			desc = fm.Description
		}
	}
	return skillsResultModel{
		a2aSkillModel:    flattenSkill(spec.Skill{ID: lastSegment(sk.Name), Name: name, Description: desc}),
		AgentName:        types.StringNull(),
		AgentID:          types.StringNull(),
		AgentDisplayName: types.StringNull(),
		AgentURLs:        []string{},
		Source:           "standalone",
		SkillName:        types.StringValue(sk.Name),
	}
}
