package provider

import (
	"context"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/skillpkg"
)

// seedStandaloneSkill registers a standalone skill through the official client.
func seedStandaloneSkill(t *testing.T, r *testRegistry, id, description string) {
	t.Helper()
	archive, err := skillpkg.Zip(map[string][]byte{"SKILL.md": []byte("---\nname: " + id + "\ndescription: " + description + "\n---\n")})
	if err != nil {
		t.Fatal(err)
	}
	op, err := r.api.Projects.Locations.Skills.Create(testParent, &agentregistry.Skill{
		Type: "SIMPLE", TargetState: "TARGET_STATE_ACTIVE", InitialRevision: registryclient.ArchiveRevision(archive),
	}).SkillId(id).Context(context.Background()).Do()
	if err != nil || !op.Done {
		t.Fatalf("seed skill %s: %v", id, err)
	}
}

func TestAccSkillsDataSource_standalone(t *testing.T) {
	reg := startRegistry(t)
	seedCatalog(reg)
	seedStandaloneSkill(t, reg, "fx-report", "Writes a report on exchange rates.")
	seedStandaloneSkill(t, reg, "pdf-tools", "Fills PDF forms; rates nothing.")
	config := reg.config(`
data "agentregistry_skills" "default" {
  query = "history"
}
data "agentregistry_skills" "standalone" {
  query  = "frontmatter.description:report"
  source = "standalone"
}
data "agentregistry_skills" "semantic" {
  query       = "exchange rates report"
  source      = "standalone"
  search_type = "SEMANTIC"
}
data "agentregistry_skills" "all" {
  query  = "history OR report"
  source = "all"
}
output "default" {
  value = [for s in data.agentregistry_skills.default.skills : "${s.source}/${s.id}"]
}
output "standalone" {
  value = [for s in data.agentregistry_skills.standalone.skills : "${s.source}/${s.id}/${s.skill_name}"]
}
output "semantic" {
  value = [for s in data.agentregistry_skills.semantic.skills : s.id]
}
output "all" {
  value = [for s in data.agentregistry_skills.all.skills : "${s.source}/${s.id}"]
}
`)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: config,
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownOutputValue("default", skillRefs("agent/history")),
					statecheck.ExpectKnownOutputValue("standalone", skillRefs("standalone/fx-report/"+testParent+"/skills/fx-report")),
					statecheck.ExpectKnownOutputValue("semantic", skillRefs("fx-report", "pdf-tools")),
					statecheck.ExpectKnownOutputValue("all", skillRefs("agent/history", "standalone/fx-report")),
				},
			},
		},
	})
}

// A query with an agent-only field is refused at plan when it goes to skills:search.
func TestAccSkillsDataSource_standaloneInvalidQuery(t *testing.T) {
	reg := startRegistry(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{
				Config: reg.config(`
data "agentregistry_skills" "bad" {
  query  = "skills.tags=fx"
  source = "standalone"
}
`),
				ExpectError: regexp.MustCompile(`also sent to skills:search`),
			},
		},
	})
}
