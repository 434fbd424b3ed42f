package registryserver

import (
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/state"
)

// TestSkillPageTokenOffsets: a skills page token carries the offset of the
// page it asks for and the hash of its query. Offset 0 (the first page) is
// a valid offset although the server never issues it (a page token follows
// a page of at least one); a negative one and a token of another query are
// refused.
func TestSkillPageTokenOffsets(t *testing.T) {
	qh := queryHash("skills", "projects/p1/locations/global", "KEYWORD", "pdf")
	for _, c := range []struct {
		token string
		want  int // -1: refused
	}{
		{"", 0},
		{encodeOffset(0, qh), 0},
		{encodeOffset(40, qh), 40},
		{encodeOffset(-1, qh), -1},
		{encodeOffset(state.MaxSkillsPerParent, qh), state.MaxSkillsPerParent},
		{encodeOffset(state.MaxSkillsPerParent+1, qh), -1},
		{encodeOffset(0, qh+1), -1},
		{"not base64!", -1},
	} {
		got, err := decodeOffset(c.token, qh)
		if c.want < 0 {
			if err == nil {
				t.Errorf("token %q: offset %d, want refused", c.token, got)
			}
			continue
		}
		if err != nil || got != c.want {
			t.Errorf("token %q: offset %d (%v), want %d", c.token, got, err, c.want)
		}
	}
}
