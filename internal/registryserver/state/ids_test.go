package state

import (
	"strings"
	"testing"
)

// Every id is checked against its rule before anything else sees it: an
// id that is not UTF-8, holds a control character, is a relative path, is
// too long or breaks the rule is an INVALID_ARGUMENT on its field, quoting
// at most its first 64 bytes; the ids the rules allow pass.
func TestIDRules(t *testing.T) {
	long := strings.Repeat("x", 40000)
	for _, c := range []struct {
		rule     IDRule
		id, why  string
		accepted bool
	}{
		{ProjectRule, long, "is 40000 characters long; the limit is 30", false},
		{ProjectRule, "\xff\xfe", "is not valid UTF-8", false},
		{ProjectRule, "a\x00b", "contains a control character", false},
		{ProjectRule, "..", "is a relative path", false},
		{ProjectRule, "Upper", "must be a project id", false},
		{ProjectRule, "p1", "", true},
		{ProjectRule, "123456789012", "", true},
		{ProjectRule, strings.Repeat("p", 30), "", true},
		{ProjectRule, strings.Repeat("p", 31), "is 31 characters long; the limit is 30", false},
		{LocationRule, strings.Repeat("l", 64), "the limit is 63", false},
		{LocationRule, "glöbal", "must be a location id", false},
		{LocationRule, "us-central1", "", true},
		{ServiceRule, "abc-", "must be 4 to 63", false},
		{ServiceRule, "a..b", "must be 4 to 63", false},
		{ServiceRule, "a-b1", "", true},
		{OperationRule, strings.Repeat("o", 129), "the limit is 128", false},
		{OperationRule, "operation-1_a", "", true},
		{WorkloadRule, "w-", "must be lower-case letters", false},
		{ApplicationRule, "app", "", true},
		{SchemaRule, "apphub.googleapis.com/../x", "is a relative path", false},
		{SchemaRule, "../x", "is a relative path", false},
		{SchemaRule, "x/..", "is a relative path", false},
		{SchemaRule, ".", "is a relative path", false},
		{SchemaRule, AgentPropertiesKey, "", true},
		{DiscoveredRule, "app.v1_x-y", "", true},
		{BindingRule, "b-1", "must be 4 to 63", false},
		{SkillRule, "pdf-tools", "", true},
		{RevisionRule, "r1", "", true},
		{RevisionRule, "-r1", "must be lower-case letters", false},
	} {
		err := c.rule.Check(c.id)
		if c.accepted {
			if err != nil {
				t.Errorf("%s %.20q: %v", c.rule.field, c.id, err)
			}
			continue
		}
		v := violationsOf(t, err)
		if !strings.Contains(v[c.rule.field], c.why) {
			t.Errorf("%s %.20q: %v, want %q", c.rule.field, c.id, v, c.why)
		}
		wantCode(t, err, InvalidArgument, "the "+c.rule.field+" ")
	}
	// An id of 64 bytes is quoted whole; a longer one up to 64 bytes, and cut there.
	if err := ProjectRule.Check(strings.Repeat("y", 64)); !strings.Contains(err.Error(), `"`+strings.Repeat("y", 64)+`"`) {
		t.Errorf("an id of 64 bytes quoted as %.200s", err)
	}
	if err := ProjectRule.Check(long); !strings.Contains(err.Error(), `"`+strings.Repeat("x", 64)+`..."`) {
		t.Errorf("a long id quoted as %.200s", err)
	}
}
