package provider

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/hashicorp/terraform-plugin-framework/function"
	"github.com/hashicorp/terraform-plugin-framework/types"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/searchquery"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/spec"
)

// NewSearchCardsFunction is provider::agentregistry::search_cards.
func NewSearchCardsFunction() function.Function { return &searchCardsFunction{} }

type searchCardsFunction struct{}

// searchCardsResultModel is what search_cards returns for one matching card.
type searchCardsResultModel struct {
	SkillIDs []string        `tfsdk:"skill_ids"`
	Skills   []a2aSkillModel `tfsdk:"skills"`
}

var searchCardsResultObjectType = objectTypeOf[searchCardsResultModel]()

func (f *searchCardsFunction) Metadata(_ context.Context, _ function.MetadataRequest, resp *function.MetadataResponse) {
	resp.Name = "search_cards"
}

func (f *searchCardsFunction) Definition(_ context.Context, _ function.DefinitionRequest, resp *function.DefinitionResponse) {
	resp.Definition = function.Definition{
		Summary: "Searches the agent cards a configuration holds, with the registry's search grammar, at plan",
		MarkdownDescription: "Searches a map of agent cards (key to card JSON, as a module holds them) with the " +
			"registry's search grammar (bare words, `field:value`, `field=value`, a trailing `*`, `AND`, `OR`, `NOT`, " +
			"parentheses), evaluated by the same code the bundled server answers `agents:search` with. It returns a map " +
			"of the matching keys to `{ skill_ids, skills }`: the skills of that card that the query selects on their " +
			"own (`skills` objects carry `id`, `name`, `description`, `tags` and `examples`), in card order.\n\n" +
			"The result is known at plan whenever the cards and the query are, so it can drive `for_each` and never " +
			"defers anything to apply. Use it to find among what the configuration itself registers; use the " +
			"`agentregistry_skills` and `agentregistry_agents` data sources for what other configurations registered.\n\n" +
			"A card's `name` is searched as `displayName` and its `description` as `description`. The registry's own " +
			"fields `agentId` and `name` do not exist before registration: a term on them is an error. An empty query " +
			"matches every card. Each card must be a valid A2A Agent Card (`validate_agent_card` rules); an invalid " +
			"one is an error naming its key.",
		Parameters: []function.Parameter{
			function.MapParameter{Name: "cards", ElementType: types.StringType,
				MarkdownDescription: "The agent cards, as a map of key (a service id, a file name...) to card JSON string."},
			function.StringParameter{Name: "query", MarkdownDescription: "The search string, in the registry's grammar (`\"\"` matches everything)."},
		},
		Return: function.MapReturn{ElementType: searchCardsResultObjectType},
	}
}

func (f *searchCardsFunction) Run(ctx context.Context, req function.RunRequest, resp *function.RunResponse) {
	var cards map[string]string
	var query string
	resp.Error = req.Arguments.Get(ctx, &cards, &query)
	if resp.Error != nil {
		return
	}
	matches, ferr := searchCards(cards, query)
	if ferr != nil {
		resp.Error = ferr
		return
	}
	out := make(map[string]searchCardsResultModel, len(matches))
	for k, skills := range matches {
		r := searchCardsResultModel{SkillIDs: make([]string, 0, len(skills)), Skills: make([]a2aSkillModel, 0, len(skills))}
		for _, s := range skills {
			r.SkillIDs = append(r.SkillIDs, s.ID)
			r.Skills = append(r.Skills, flattenSkill(spec.Skill(s)))
		}
		out[k] = r
	}
	resp.Error = resp.Result.Set(ctx, out)
}

// searchCards returns the keys of the cards that match query, as
// agents:search matches an agent, each with the skills the query selects on
// their own.
func searchCards(cards map[string]string, query string) (map[string][]searchquery.AgentSkill, *function.FuncError) {
	q, err := searchquery.Parse(query, searchquery.Agents)
	if err != nil {
		return nil, function.NewArgumentFuncError(1, "Invalid search query: "+invalidQueryDetail(query, err))
	}
	if field := registryOnlyField(q.Root); field != "" {
		return nil, function.NewArgumentFuncError(1, fmt.Sprintf("Invalid search query: the field %s is the registry's and "+
			"a card has none before it is registered; search_cards searches the cards themselves: use displayName "+
			"(the card's name), description, skills or skills.* (id, name, description, tags, examples).", field))
	}
	keys := make([]string, 0, len(cards))
	for k := range cards {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	out := map[string][]searchquery.AgentSkill{}
	for _, k := range keys {
		if errs := spec.ValidateAgentCard([]byte(cards[k])).Errors(); len(errs) > 0 {
			msgs := make([]string, len(errs))
			for i, e := range errs {
				msgs[i] = e.String()
			}
			return nil, function.NewArgumentFuncError(0, fmt.Sprintf("Invalid agent card %q: %s", k, strings.Join(msgs, "; ")))
		}
		card, err := spec.ParseAgentCard([]byte(cards[k]))
		if err != nil {
			return nil, function.NewArgumentFuncError(0, fmt.Sprintf("Invalid agent card %q: %v", k, err))
		}
		a := searchquery.Agent{DisplayName: card.Name, Description: card.Description}
		for _, s := range card.Skills {
			a.Skills = append(a.Skills, searchquery.AgentSkill{ID: s.ID, Name: s.Name, Description: s.Description, Tags: s.Tags, Examples: s.Examples})
		}
		if ok, skills := searchquery.MatchAgent(q, a); ok {
			out[k] = skills
		}
	}
	return out, nil
}

// registryOnlyField is the first field of the query that only a registered
// agent has (agentId, name), or "".
func registryOnlyField(n searchquery.Node) string {
	switch n := n.(type) {
	case *searchquery.And:
		if f := registryOnlyField(n.L); f != "" {
			return f
		}
		return registryOnlyField(n.R)
	case *searchquery.Or:
		if f := registryOnlyField(n.L); f != "" {
			return f
		}
		return registryOnlyField(n.R)
	case *searchquery.Not:
		return registryOnlyField(n.X)
	case *searchquery.Term:
		if n.Field == "agentId" || n.Field == "name" {
			return n.Field
		}
	}
	return ""
}
