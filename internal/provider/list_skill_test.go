package provider

import (
	"regexp"
	"slices"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/querycheck"
	"github.com/hashicorp/terraform-plugin-testing/querycheck/queryfilter"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
)

func skillIdentity(id string) map[string]knownvalue.Check {
	return map[string]knownvalue.Check{"skill_id": knownvalue.StringExact(id),
		"project": knownvalue.StringExact("test-project"), "location": knownvalue.StringExact("global")}
}

// The skill list takes skills.list's filter, in the search grammar.
func TestSkillListResource_filter(t *testing.T) {
	r := startRegistry(t)
	seedStandaloneSkill(t, r, "pdf-tools", "Fills PDF forms.")
	seedStandaloneSkill(t, r, "fx-report", "Writes a report on exchange rates.")
	l := newListRPC(t, r.URL)
	for filter, want := range map[string][]string{
		"":                               {"fx-report", "pdf-tools"},
		"frontmatter.description:report": {"fx-report"},
		"skillId=pdf-tools":              {"pdf-tools"},
	} {
		got := l.list("agentregistry_skill", map[string]string{"filter": filter}, true, 100, 0)
		if ids := ids(got); !slices.Equal(ids, want) || len(errorsOf(got)) > 0 {
			t.Errorf("filter %q: %v, errors %v; want %v", filter, ids, errorsOf(got), want)
		}
	}
}

func TestAccSkillListResource_query(t *testing.T) {
	r := startRegistry(t)
	seedStandaloneSkill(t, r, "pdf-tools", "Fills PDF forms.")
	pdf := queryfilter.ByResourceIdentity(skillIdentity("pdf-tools"))
	resource.ParallelTest(t, resource.TestCase{
		TerraformVersionChecks:   requires(capQuery),
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{Config: r.config("")},
			{
				Query: true,
				Config: `
list "agentregistry_skill" "all" {
  provider         = agentregistry
  include_resource = true
}
`,
				QueryResultChecks: []querycheck.QueryResultCheck{
					querycheck.ExpectLength("agentregistry_skill.all", 1),
					querycheck.ExpectIdentity("agentregistry_skill.all", skillIdentity("pdf-tools")),
					querycheck.ExpectResourceKnownValues("agentregistry_skill.all", pdf, []querycheck.KnownValueCheck{
						// The registry cannot give the folder back: the result has no source.
						{Path: tfjsonpath.New("source_dir"), KnownValue: knownvalue.Null()},
						{Path: tfjsonpath.New("gcs_uri"), KnownValue: knownvalue.Null()},
						{Path: tfjsonpath.New("target_state"), KnownValue: knownvalue.StringExact("ACTIVE")},
						{Path: tfjsonpath.New("revision_sha256"), KnownValue: knownvalue.StringRegexp(regexp.MustCompile(`^[0-9a-f]{64}$`))},
					}),
				},
			},
		},
	})
}
