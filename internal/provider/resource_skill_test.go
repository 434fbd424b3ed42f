package provider

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/hashicorp/terraform-plugin-framework/types"
	"github.com/hashicorp/terraform-plugin-testing/helper/resource"
	"github.com/hashicorp/terraform-plugin-testing/knownvalue"
	"github.com/hashicorp/terraform-plugin-testing/plancheck"
	"github.com/hashicorp/terraform-plugin-testing/statecheck"
	"github.com/hashicorp/terraform-plugin-testing/terraform"
	"github.com/hashicorp/terraform-plugin-testing/tfjsonpath"
	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryclient"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/skillpkg"
)

// resSkillDir writes a skill folder named name with the given SKILL.md
// description and a script, and returns its path.
func resSkillDir(t *testing.T, name, description string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(filepath.Join(dir, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	resWriteFile(t, filepath.Join(dir, "SKILL.md"), "---\nname: "+name+"\ndescription: "+description+"\nlicense: Apache-2.0\n---\n# "+name+"\n")
	resWriteFile(t, filepath.Join(dir, "scripts", "fill.py"), "print('fill')\n")
	return dir
}

func resWriteFile(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func resSkillConfig(r *testRegistry, dir, targetState, displayName string) string {
	return r.config(fmt.Sprintf(`
resource "agentregistry_skill" "test" {
  skill_id     = "pdf-tools"
  source_dir   = %q
  target_state = %q
  display_name = %q
}
`, dir, targetState, displayName))
}

func resFolderHash(t *testing.T, dir string) string {
	t.Helper()
	p, err := skillpkg.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return p.SHA256
}

func TestAccSkillResource_lifecycle(t *testing.T) {
	r := startRegistry(t)
	const addr = "agentregistry_skill.test"
	name := testParent + "/skills/pdf-tools"
	dir := resSkillDir(t, "pdf-tools", "Fill PDF forms.")
	hashA := resFolderHash(t, dir)
	cfg := resSkillConfig(r, dir, "ACTIVE", "PDF tools")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		CheckDestroy: func(*terraform.State) error {
			if _, err := r.client.GetSkill(context.Background(), name); !registryclient.IsNotFound(err) {
				return fmt.Errorf("skill %s still exists (err %v)", name, err)
			}
			return nil
		},
		Steps: []resource.TestStep{
			{ // create: the content hash is known at plan
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionCreate),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("content_hash"), knownvalue.StringExact(hashA)),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("id"), knownvalue.StringExact(name)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("skill_urn"), knownvalue.StringExact("urn:skill:projects-test-project:locations:global:pdf-tools")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("default_revision"), knownvalue.StringExact(name+"/revisions/rev-1")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("revision_sha256"), knownvalue.StringExact(hashA)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("state"), knownvalue.StringExact("ACTIVE")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("scan_state"), knownvalue.StringExact("DISABLED")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("scan_message"), knownvalue.StringRegexp(regexp.MustCompile("no scanner"))),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("scan_findings"), knownvalue.ListSizeExact(0)),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("description"), knownvalue.Null()),
				},
			},
			{ // editing a file plans an in-place update that uploads a new revision
				PreConfig: func() {
					resWriteFile(t, filepath.Join(dir, "scripts", "fill.py"), "print('fill v2')\n")
					r.srv.ResetRequests()
				},
				Config: cfg,
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
					plancheck.ExpectUnknownValue(addr, tfjsonpath.New("default_revision")),
					plancheck.ExpectKnownValue(addr, tfjsonpath.New("skill_urn"), knownvalue.NotNull()),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("default_revision"), knownvalue.StringExact(name+"/revisions/rev-2")),
					resWritesCheck{r, []string{"POST /v1/" + name + "/revisions"}},
				},
			},
			{ // the skill's own fields: one PATCH, no revision
				PreConfig: r.srv.ResetRequests,
				Config:    resSkillConfig(r, dir, "DEPRECATED", "PDF tools (old)"),
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("state"), knownvalue.StringExact("DEPRECATED")),
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("default_revision"), knownvalue.StringExact(name+"/revisions/rev-2")),
					resWritesCheck{r, []string{"PATCH /v1/" + name}},
				},
			},
			{ // import by name, with the folder: nothing to plan after
				ResourceName:            addr,
				ImportState:             true,
				ImportStateId:           "pdf-tools," + dir,
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts"},
			},
			{Config: resSkillConfig(r, dir, "DEPRECATED", "PDF tools (old)"), PlanOnly: true},
			{ // import by bare id: the folder is not in the state
				ResourceName:            addr,
				ImportState:             true,
				ImportStateId:           "pdf-tools",
				ImportStateVerify:       true,
				ImportStateVerifyIgnore: []string{"timeouts", "source_dir", "content_hash"},
			},
			{ // drift: a revision uploaded behind Terraform's back
				PreConfig: func() {
					other := resSkillDir(t, "pdf-tools", "Something else.")
					p, err := skillpkg.Load(other)
					if err != nil {
						t.Fatal(err)
					}
					if _, err := r.client.CreateSkillRevision(context.Background(), name, registryclient.ArchiveRevision(p.Archive)); err != nil {
						t.Fatal(err)
					}
				},
				Config:             resSkillConfig(r, dir, "DEPRECATED", "PDF tools (old)"),
				PlanOnly:           true,
				ExpectNonEmptyPlan: true,
			},
			{ // drift: the target state changed behind Terraform's back, then put back
				PreConfig: func() {
					if _, err := r.client.UpdateSkill(context.Background(), &agentregistry.Skill{Name: name, TargetState: "TARGET_STATE_DISABLED"}, []string{"targetState"}); err != nil {
						t.Fatal(err)
					}
				},
				Config: resSkillConfig(r, dir, "DEPRECATED", "PDF tools (old)"),
				ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
					plancheck.ExpectResourceAction(addr, plancheck.ResourceActionUpdate),
				}},
				ConfigStateChecks: []statecheck.StateCheck{
					statecheck.ExpectKnownValue(addr, tfjsonpath.New("state"), knownvalue.StringExact("DEPRECATED")),
				},
				// The folder's hash as edited in step 2: the folder's content is uploaded again.
				Check: resource.TestCheckResourceAttrWith(addr, "revision_sha256", func(v string) error {
					if want := resFolderHash(t, dir); v != want || v == hashA {
						return fmt.Errorf("revision_sha256 %s, want the edited folder's %s", v, want)
					}
					return nil
				}),
			},
		},
	})
}

// resWritesCheck fails unless exactly these writes reached the server since
// the step's PreConfig reset the request log.
type resWritesCheck struct {
	r    *testRegistry
	want []string
}

func (c resWritesCheck) CheckState(_ context.Context, _ statecheck.CheckStateRequest, resp *statecheck.CheckStateResponse) {
	if got := c.r.writes(); fmt.Sprint(got) != fmt.Sprint(c.want) {
		resp.Error = fmt.Errorf("writes: got %v, want %v", got, c.want)
	}
}

func TestAccSkillResource_badSkillRejectedAtPlan(t *testing.T) {
	r := startRegistry(t)
	dir := filepath.Join(t.TempDir(), "pdf-tools")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	resWriteFile(t, filepath.Join(dir, "SKILL.md"), "---\nname: PDF--tools\ndescription: \"\"\n---\n")
	outside := filepath.Join(t.TempDir(), "secret.txt")
	resWriteFile(t, outside, "secret")
	linked := resSkillDir(t, "linked-skill", "Has a link out.")
	if err := os.Symlink(outside, filepath.Join(linked, "secret.txt")); err != nil {
		t.Fatal(err)
	}
	// A file too large for the folder is refused from its size, unread (a
	// sparse 1.5 GB file was once read whole first), and an
	// error lists 20 problems and counts the others.
	sparse := resSkillDir(t, "sparse-skill", "Holds a huge sparse file.")
	if f, err := os.Create(filepath.Join(sparse, "huge.bin")); err != nil || f.Truncate(1536<<20) != nil {
		t.Skip("sparse files unsupported:", err)
	} else if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	many := filepath.Join(t.TempDir(), "many-problems")
	if err := os.Mkdir(many, 0o755); err != nil {
		t.Fatal(err)
	}
	keys := ""
	for i := range 30 {
		keys += fmt.Sprintf("k%d: 1\n", i)
	}
	resWriteFile(t, filepath.Join(many, "SKILL.md"), "---\n"+keys+"---\n")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{
			{
				Config:      resSkillConfig(r, dir, "ACTIVE", "x"),
				ExpectError: regexp.MustCompile(`(?s)Invalid Skill Package.*SKILL.md:2: name.*SKILL.md:3: description`),
			},
			{
				Config:      resSkillConfig(r, linked, "ACTIVE", "x"),
				ExpectError: regexp.MustCompile(`points outside the skill folder`),
			},
			{
				Config:      resSkillConfig(r, sparse, "ACTIVE", "x"),
				ExpectError: regexp.MustCompile(`the skill folder holds more than 83886080 bytes`),
			},
			{
				Config:      resSkillConfig(r, many, "ACTIVE", "x"),
				ExpectError: regexp.MustCompile(`(?s)\(32 problems\).*and 12 more problems \(only the first 20 are listed\)`),
			},
			{
				Config: r.config(`
resource "agentregistry_skill" "test" {
  skill_id = "no"
  gcs_uri  = "gs://bucket/skill.zip"
}
`),
				ExpectError: regexp.MustCompile(`4 to 64 lower-case letters and hyphens`),
			},
		},
	})
	r.expectNoWrites(t)
}

// source_dir may be a symlink to the skill folder (it was once refused:
// "symlink . points to a directory"); the name checked against the
// front matter is the link's, and the content hash is the folder's.
func TestAccSkillResource_sourceDirSymlink(t *testing.T) {
	r := startRegistry(t)
	folder := resSkillDir(t, "build-output", "Fill PDF forms.")
	// The folder's SKILL.md names the skill as the link is named.
	resWriteFile(t, filepath.Join(folder, "SKILL.md"), "---\nname: pdf-tools\ndescription: Fill PDF forms.\n---\n")
	link := filepath.Join(t.TempDir(), "pdf-tools")
	if err := os.Symlink(folder, link); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: resSkillConfig(r, link, "ACTIVE", "PDF"),
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("agentregistry_skill.test", tfjsonpath.New("content_hash"), knownvalue.StringExact(resFolderHash(t, link))),
				statecheck.ExpectKnownValue("agentregistry_skill.test", tfjsonpath.New("revision_sha256"), knownvalue.StringExact(resFolderHash(t, link))),
			},
		}},
	})
}

// After an import without the folder, a folder whose content is the
// registered revision plans no upload; another content does.
func TestSkillNewRevisionAfterImport(t *testing.T) {
	imported := skillModel{ContentHash: types.StringNull(), SourceDir: types.StringNull(), RevisionSHA256: types.StringValue("aa"),
		GcsURI: types.StringNull(), Generation: types.StringNull()}
	plan := imported
	plan.SourceDir, plan.ContentHash = types.StringValue("skills/x"), types.StringValue("aa")
	if newRevision(&plan, &imported) {
		t.Error("same content: no new revision expected")
	}
	plan.ContentHash = types.StringValue("bb")
	if !newRevision(&plan, &imported) {
		t.Error("other content: a new revision expected")
	}
}

// A folder known only at apply (from another resource) is hashed and
// uploaded at apply.
func TestAccSkillResource_folderKnownAtApply(t *testing.T) {
	r := startRegistry(t)
	dir := resSkillDir(t, "pdf-tools", "Fill PDF forms.")
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: r.config(fmt.Sprintf(`
resource "terraform_data" "dir" {
  input = %q
}
resource "agentregistry_skill" "test" {
  skill_id   = "pdf-tools"
  source_dir = terraform_data.dir.output
}
`, dir)),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectUnknownValue("agentregistry_skill.test", tfjsonpath.New("content_hash")),
			}},
			ConfigStateChecks: []statecheck.StateCheck{
				statecheck.ExpectKnownValue("agentregistry_skill.test", tfjsonpath.New("content_hash"), knownvalue.StringExact(resFolderHash(t, dir))),
				statecheck.ExpectKnownValue("agentregistry_skill.test", tfjsonpath.New("revision_sha256"), knownvalue.StringExact(resFolderHash(t, dir))),
			},
		}},
	})
}

// A Cloud Storage source is sent as gcsSource; the bundled server, which
// cannot read Cloud Storage, refuses it in words that say so.
func TestAccSkillResource_gcsSourceReachesTheRegistry(t *testing.T) {
	r := startRegistry(t)
	resource.ParallelTest(t, resource.TestCase{
		ProtoV6ProviderFactories: testAccProviderFactories,
		Steps: []resource.TestStep{{
			Config: r.config(`
resource "agentregistry_skill" "test" {
  skill_id   = "pdf-tools"
  gcs_uri    = "gs://skills/pdf-tools.zip"
  generation = "42"
}
`),
			ConfigPlanChecks: resource.ConfigPlanChecks{PreApply: []plancheck.PlanCheck{
				plancheck.ExpectKnownValue("agentregistry_skill.test", tfjsonpath.New("content_hash"), knownvalue.Null()),
			}},
			ExpectError: regexp.MustCompile(`(?s)Cannot Create Skill.*cannot\s+read\s+Cloud\s+Storage`),
		}},
	})
	if w := r.writes(); len(w) != 1 || w[0] != "POST /v1/"+testParent+"/skills" {
		t.Errorf("writes %v, want the one refused create", w)
	}
}
