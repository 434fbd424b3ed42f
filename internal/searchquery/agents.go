package searchquery

// The searchable view of an agent: the fields agents:search matches, built
// from the agent's names and its card's skills. The bundled server indexes
// agents with it, and the provider's search_cards function matches the cards
// of a configuration with it, so that both answer a query alike.

// AgentSkill is one skill of an agent's card.
type AgentSkill struct {
	ID, Name, Description string
	Tags, Examples        []string
}

// Agent is what agents:search sees of one agent. AgentID and Name are the
// registry's (empty for a card that is not registered yet); DisplayName and
// Description are the card's name and description.
type Agent struct {
	AgentID, Name, DisplayName, Description string
	Skills                                  []AgentSkill
}

// Fields is the agent's document for Match: every skill's values under the
// skills.* fields.
func (a Agent) Fields() Fields {
	d := Fields{"agentId": {a.AgentID}, "name": {a.Name}, "displayName": {a.DisplayName}, "description": {a.Description}}
	for _, sk := range a.Skills {
		d["skills.id"] = append(d["skills.id"], sk.ID)
		d["skills.name"] = append(d["skills.name"], sk.Name)
		d["skills.description"] = append(d["skills.description"], sk.Description)
		d["skills.tags"] = append(d["skills.tags"], sk.Tags...)
		d["skills.examples"] = append(d["skills.examples"], sk.Examples...)
	}
	return d
}

// SkillView is the document of one skill: the agent's own fields plus that
// single skill, so that a query on skill fields selects skills, not agents.
type SkillView struct {
	Agent *Agent
	Skill AgentSkill
}

// Values implements Doc.
func (v SkillView) Values(field string) []string {
	switch field {
	case "agentId":
		return []string{v.Agent.AgentID}
	case "name":
		return []string{v.Agent.Name}
	case "displayName":
		return []string{v.Agent.DisplayName}
	case "description":
		return []string{v.Agent.Description}
	case "skills.id":
		return []string{v.Skill.ID}
	case "skills.name":
		return []string{v.Skill.Name}
	case "skills.description":
		return []string{v.Skill.Description}
	case "skills.tags":
		return v.Skill.Tags
	case "skills.examples":
		return v.Skill.Examples
	}
	return nil
}

// MatchAgent reports whether the agent matches q, as agents:search answers
// it, and which of its skills match q on their own (a skill view each), as
// the skills data source selects them. An agent can match with no skill of
// its own matching (a NOT over skill fields, or a query on fields that no
// single skill carries alone).
func MatchAgent(q Query, a Agent) (bool, []AgentSkill) {
	if !q.Match(a.Fields()) {
		return false, nil
	}
	skills := []AgentSkill{}
	for _, sk := range a.Skills {
		if q.Match(SkillView{Agent: &a, Skill: sk}) {
			skills = append(skills, sk)
		}
	}
	return true, skills
}
