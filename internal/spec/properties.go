package spec

import (
	"fmt"
	"strings"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/jsoncanon"
)

// ValidateAgentProperties checks an apphub.googleapis.com/AgentProperties document.
func ValidateAgentProperties(doc []byte) *Result {
	return cached(KindAgentProperties, doc, validateAgentProperties)
}

func validateAgentProperties(doc []byte) *Result {
	c, done := begin(KindAgentProperties, doc)
	if done != nil {
		return done
	}
	c.validateSchema(schemaProperties, schemaPolicy{
		unknownSeverity: SeverityError,
		unknownWhat:     "unknown property %q: the AgentProperties schema does not allow it (misspelt keys are rejected, not dropped)",
	})
	return c.finish("")
}

// AgentPropertiesFromCard derives an AgentProperties document from an agent card:
// display name, description, version, framework, agentCardUri (when non-empty)
// and skills. The result is valid against the AgentProperties schema by construction.
//
// framework, like agentCardUri, is left out when empty. The card must be a valid
// agent card (warnings allowed); otherwise the error lists its problems. The
// result is in normal form (see Normalize).
func AgentPropertiesFromCard(card []byte, framework, cardURI string) ([]byte, error) {
	if r := ValidateAgentCard(card); !r.Valid() {
		errs := r.Errors()
		msgs := make([]string, 0, len(errs))
		for _, p := range errs {
			msgs = append(msgs, p.String())
		}
		return nil, fmt.Errorf("invalid agent card: %s", strings.Join(msgs, "; "))
	}
	c, err := ParseAgentCard(card)
	if err != nil {
		return nil, err
	}
	props := map[string]any{
		"displayName": c.Name,
		"description": c.Description,
		"version":     c.Version,
	}
	if framework != "" {
		props["framework"] = framework
	}
	if cardURI != "" {
		props["agentCardUri"] = cardURI
	}
	skills := make([]any, 0, len(c.Skills))
	for _, s := range c.Skills {
		tags := make([]any, 0, len(s.Tags))
		for _, t := range s.Tags {
			tags = append(tags, t)
		}
		m := map[string]any{"id": s.ID, "name": s.Name, "description": s.Description, "tags": tags}
		if len(s.Examples) > 0 {
			ex := make([]any, 0, len(s.Examples))
			for _, e := range s.Examples {
				ex = append(ex, e)
			}
			m["examples"] = ex
		}
		skills = append(skills, m)
	}
	props["skills"] = skills
	return jsoncanon.AppendCompact(nil, props), nil
}
