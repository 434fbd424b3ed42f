package searchquery

import (
	"reflect"
	"testing"
)

func TestMatchAgent(t *testing.T) {
	a := Agent{DisplayName: "FX agent", Description: "Converts amounts between currencies.", Skills: []AgentSkill{
		{ID: "convert", Name: "Convert", Description: "Converts an amount.", Tags: []string{"fx"}},
		{ID: "rates", Name: "Rates", Description: "Lists exchange rates.", Tags: []string{"fx", "rates"}, Examples: []string{"EUR to USD today?"}},
	}}
	for _, c := range []struct {
		query string
		match bool
		ids   []string
	}{
		{"", true, []string{"convert", "rates"}},
		{"skills.tags=rates", true, []string{"rates"}},
		{"displayName:fx", true, []string{"convert", "rates"}},
		{"exchange", true, []string{"rates"}},
		{"skills.examples:usd", true, []string{"rates"}},
		{"skills.id=convert AND skills.tags=rates", true, []string{}}, // the agent matches, no single skill does
		{"NOT skills.tags=fx", false, nil},
		{"weather", false, nil},
	} {
		q, err := Parse(c.query, Agents)
		if err != nil {
			t.Fatalf("%q: %v", c.query, err)
		}
		ok, skills := MatchAgent(q, a)
		var ids []string
		if ok {
			ids = []string{}
			for _, s := range skills {
				ids = append(ids, s.ID)
			}
		}
		if ok != c.match || !reflect.DeepEqual(ids, c.ids) {
			t.Errorf("%q: MatchAgent = %v %v, want %v %v", c.query, ok, ids, c.match, c.ids)
		}
		// The agent's document, as the server indexes it, agrees.
		if got := q.Match(a.Fields()); got != c.match {
			t.Errorf("%q: Match(Fields) = %v, want %v", c.query, got, c.match)
		}
	}
}
