package provider

import (
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

// The skill list takes skills.list's filter, over the fields the discovery
// document lists for it.
func TestSkillListResource_filter(t *testing.T) {
	r := startRegistry(t)
	seedStandaloneSkill(t, r, "pdf-tools", "Fills PDF forms.")
	first, err := r.api.Projects.Locations.Skills.Get(testParent + "/skills/pdf-tools").Do()
	if err != nil {
		t.Fatal(err)
	}
	seedStandaloneSkill(t, r, "fx-report", "Writes a report on exchange rates.")
	l := newListRPC(t, r.URL)
	l.expectListed(t, "agentregistry_skill", nil, true, "fx-report", "pdf-tools")
	l.expectListed(t, "agentregistry_skill", map[string]string{"filter": "state=ACTIVE"}, true, "fx-report", "pdf-tools")
	l.expectListed(t, "agentregistry_skill", map[string]string{"filter": `createTime>"` + first.CreateTime + `"`}, true, "fx-report")
}

func TestAccSkillListResource_query(t *testing.T) {
	r := startRegistry(t)
	seedStandaloneSkill(t, r, "pdf-tools", "Fills PDF forms.")
	queryTest(t, r, `
list "agentregistry_skill" "all" {
  provider         = agentregistry
  include_resource = true
}
`,
		querycheck.ExpectLength("agentregistry_skill.all", 1),
		querycheck.ExpectIdentity("agentregistry_skill.all", recordIdentity("skill_id", "pdf-tools")),
		querycheck.ExpectResourceKnownValues("agentregistry_skill.all", queryfilter.ByResourceIdentity(recordIdentity("skill_id", "pdf-tools")),
			[]querycheck.KnownValueCheck{
				// The registry cannot give the folder back: the result has no source.
				{Path: tfjsonpath.New("source_dir"), KnownValue: knownvalue.Null()},
				{Path: tfjsonpath.New("gcs_uri"), KnownValue: knownvalue.Null()},
				{Path: tfjsonpath.New("target_state"), KnownValue: knownvalue.StringExact("ACTIVE")},
				{Path: tfjsonpath.New("revision_sha256"), KnownValue: knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f]{64}$`))},
			}),
	)
}
