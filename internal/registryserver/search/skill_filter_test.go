package search

import (
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
)

// filterSkills are three skills: alfa ACTIVE created at 00:00 and updated at
// 03:00, bravo DRAFT at 01:00, charlie DEPRECATED at 02:00.
var filterSkills = []*resource.Skill{
	{Name: "alfa", State: "STATE_ACTIVE", TargetState: "TARGET_STATE_ACTIVE", CreateTime: "2026-01-01T00:00:00Z", UpdateTime: "2026-01-01T03:00:00Z"},
	{Name: "bravo", State: "STATE_DRAFT", TargetState: "TARGET_STATE_DRAFT", CreateTime: "2026-01-01T01:00:00Z", UpdateTime: "2026-01-01T01:00:00Z"},
	{Name: "charlie", State: "STATE_DEPRECATED", TargetState: "TARGET_STATE_DEPRECATED", CreateTime: "2026-01-01T02:00:00Z", UpdateTime: "2026-01-01T02:00:00Z"},
}

// selected are the names of the skills f selects, comma-separated.
func selected(f SkillFilter) string {
	var out []string
	for _, sk := range filterSkills {
		if f == nil || f(sk) {
			out = append(out, sk.Name)
		}
	}
	return strings.Join(out, ",")
}

// The filter of skills.list and skills:search: state and targetState by =
// (the enum's prefix may be left out), times by =, < and > (as times, in
// any offset), joined by AND or juxtaposition, OR, NOT and parentheses.
func TestSkillFilterSelects(t *testing.T) {
	for filter, want := range map[string]string{
		"state=ACTIVE": "alfa",
		"state=STATE_DRAFT OR state = DEPRECATED":                           "bravo,charlie",
		"targetState=TARGET_STATE_DRAFT":                                    "bravo",
		"target_state=DRAFT":                                                "bravo",
		"NOT state=ACTIVE":                                                  "bravo,charlie",
		`createTime > "2026-01-01T00:30:00Z"`:                               "bravo,charlie",
		"createTime<2026-01-01T01:00:00Z":                                   "alfa",
		"create_time=2026-01-01T01:00:00Z":                                  "bravo",
		"updateTime>2026-01-01T02:30:00Z":                                   "alfa",
		"update_time < 2026-01-01T02:30:00+01:00":                           "bravo",
		"(state=ACTIVE OR state=DRAFT) AND createTime>2026-01-01T00:30:00Z": "bravo",
		"state=DEPRECATED createTime>2026-01-01T00:00:00Z":                  "charlie",
		"NOT (state=ACTIVE OR state=DRAFT)":                                 "charlie",
		"  ":                                                                "alfa,bravo,charlie",
		"":                                                                  "alfa,bravo,charlie",
		`state="ACTIVE"`:                                                    "alfa",
		`state="ACT\IVE"`:                                                   "alfa",
		"updateTime=2026-01-01T03:00:00.000Z":                               "alfa",
	} {
		f, err := ParseSkillFilter(filter)
		if err != nil {
			t.Errorf("%q: %v", filter, err)
		} else if got := selected(f); got != want {
			t.Errorf("%q selects %s, want %s", filter, got, want)
		}
	}
	// A time the filter cannot read selects nothing, whatever the operator.
	broken := &resource.Skill{CreateTime: "not a time"}
	for _, filter := range []string{"createTime>2026-01-01T00:00:00Z", "createTime<2026-01-01T00:00:00Z", "createTime=2026-01-01T00:00:00Z"} {
		if f, err := ParseSkillFilter(filter); err != nil || f(broken) {
			t.Errorf("%q on an unreadable time: selected (%v)", filter, err)
		}
	}
}

// A malformed filter is a *searchquery.Error that says what is wrong, at
// the position it is wrong; the limits are those of a search string.
func TestSkillFilterRefuses(t *testing.T) {
	for filter, want := range map[string]string{
		"x) OR (zz":                        `position 0: expected a comparison of state, targetState, createTime or updateTime (such as state=ACTIVE), found "x"`,
		"state=ACTIVE) OR (state=DRAFT":    `position 12: unexpected ")"`,
		"displayName:x":                    "expected a comparison",
		"shared":                           "expected a comparison",
		"state<ACTIVE":                     "position 5: state takes only =, not <",
		"targetState>DRAFT":                "targetState takes only =, not >",
		"state!=ACTIVE":                    "state takes only =, not !=",
		"createTime<=2026-01-01T00:00:00Z": "position 10: operator <= is not allowed",
		"createTime>=2026-01-01T00:00:00Z": "operator >= is not allowed",
		"createTime!=2026-01-01T00:00:00Z": "operator != is not allowed",
		"state=RUNNING":                    `position 6: state value "RUNNING" is not one of STATE_CREATING`,
		"targetState=STATE_ACTIVE":         `targetState value "STATE_ACTIVE" is not one of TARGET_STATE_DRAFT`,
		"createTime>yesterday":             `position 11: createTime value "yesterday" is not an RFC 3339 timestamp`,
		"state":                            "expected =, < or > after state, found end of filter",
		"state=":                           "expected a value, found end of filter",
		"state=(ACTIVE)":                   `expected a value, found "("`,
		`state="ACTIVE`:                    "the quoted value is never closed",
		`state="ACTIVE\`:                   "the quoted value is never closed",
		"(state=ACTIVE":                    "expected ) to close the (",
		"(state=ACTIVE x":                  `expected a comparison of state, targetState, createTime or updateTime (such as state=ACTIVE), found "x"`,
		"state=ACTIVE OR":                  "expected a comparison",
		"NOT":                              "expected a comparison",
		"=ACTIVE":                          `expected a comparison of state, targetState, createTime or updateTime (such as state=ACTIVE), found "="`,
		strings.Repeat("(", 33) + "state=ACTIVE" + strings.Repeat(")", 33): "more than 32 levels deep",
		strings.Repeat("NOT ", 33) + "state=ACTIVE":                        "more than 32 levels deep",
		strings.Repeat("state=ACTIVE OR ", 64) + "state=DRAFT":             "more than 64 comparisons",
		"state=" + strings.Repeat("é", 4091):                               "is 4097 characters long; the limit is 4096",
	} {
		_, err := ParseSkillFilter(filter)
		var qe *queryError
		if !errors.As(err, &qe) || !strings.Contains(err.Error(), want) {
			t.Errorf("%.60q: %v, want %q", filter, err, want)
		}
	}
	// At the limits: 32 levels, 64 comparisons and 4096 characters are
	// accepted; NOTs and groups side by side are no deeper than one.
	for _, filter := range []string{
		strings.Repeat("(", 32) + "state=ACTIVE" + strings.Repeat(")", 32),
		strings.Repeat("NOT ", 31) + "state=DRAFT",
		strings.Repeat("state=DELETING OR ", 63) + "state=ACTIVE",
		"state=ACTIVE" + strings.Repeat(" ", 4096-len("state=ACTIVE")),
		strings.Repeat("NOT state=DELETING AND ", 40) + "state=ACTIVE",
		strings.Repeat("(state=DELETING) OR ", 40) + "state=ACTIVE",
	} {
		f, err := ParseSkillFilter(filter)
		if err != nil || !slices.Contains([]string{"alfa", "alfa,charlie"}, selected(f)) {
			t.Errorf("%.60q: %v", filter, err)
		}
	}
}
