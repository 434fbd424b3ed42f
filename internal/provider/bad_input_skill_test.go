package provider

// The agentregistry_skill rows of the bad-input table (bad_input_test.go):
// attribute rules, and skill folders written to disk for the checks that read them.

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// badSkill is an agentregistry_skill block with the given attribute lines.
func badSkill(attrs string) string {
	return "\nresource \"agentregistry_skill\" \"test\" {\n  " + attrs + "\n}\n"
}

// badSkillDir writes a folder name/ with SKILL.md content md and returns its path.
func badSkillDir(t *testing.T, name, md string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if md != "" {
		resWriteFile(t, filepath.Join(dir, "SKILL.md"), md)
	}
	return dir
}

func badSkillFolder(dir string) string {
	return badSkill(fmt.Sprintf("skill_id   = \"pdf-tools\"\n  source_dir = %q", dir))
}

func badSkillInputCases(t *testing.T) []badInputCase {
	const gcs = `gcs_uri = "gs://bucket/skill.zip"`
	const pkg = "Invalid Skill Package"
	good := "---\nname: pdf-tools\ndescription: Fills PDF forms.\n---\n"
	linked := badSkillDir(t, "pdf-tools", good)
	outside := filepath.Join(t.TempDir(), "secret")
	resWriteFile(t, outside, "s")
	if err := os.Symlink(outside, filepath.Join(linked, "secret")); err != nil {
		t.Fatal(err)
	}
	return []badInputCase{
		{"skill/id-uppercase", badSkill("skill_id = \"PDF-tools\"\n  " + gcs), []string{"Attribute skill_id must be 4 to 64 lower-case letters and hyphens"}},
		{"skill/id-digit", badSkill("skill_id = \"pdf-tools2\"\n  " + gcs), []string{"Attribute skill_id must be 4 to 64 lower-case letters and hyphens"}},
		{"skill/id-too-long", badSkill("skill_id = \"" + strings.Repeat("a", 65) + "\"\n  " + gcs), []string{"Attribute skill_id must be 4 to 64"}},
		{"skill/no-source", badSkill(`skill_id = "pdf-tools"`), []string{"Missing Skill Source", "neither source_dir nor gcs_uri is set"}},
		{"skill/both-sources", badSkill("skill_id = \"pdf-tools\"\n  source_dir = \"x\"\n  " + gcs), []string{"Invalid Attribute Combination", "gcs_uri"}},
		{"skill/gcs-uri-not-gs", badSkill(`skill_id = "pdf-tools"
  gcs_uri  = "https://storage.googleapis.com/b/o"`), []string{"Attribute gcs_uri must be gs://{bucket}/{object}"}},
		{"skill/generation-not-a-number", badSkill("skill_id = \"pdf-tools\"\n  generation = \"latest\"\n  " + gcs), []string{"Attribute generation must be a decimal generation number"}},
		{"skill/generation-without-gcs", badSkill("skill_id = \"pdf-tools\"\n  source_dir = \"x\"\n  generation = \"1\""), []string{"gcs_uri", "must be specified"}},
		{"skill/target-state-unknown", badSkill("skill_id = \"pdf-tools\"\n  target_state = \"LIVE\"\n  " + gcs), []string{"Attribute target_state value must be one of", "DECOMMISSIONED"}},
		{"skill/scanning-policy-unknown", badSkill("skill_id = \"pdf-tools\"\n  scanning_policy = \"ON\"\n  " + gcs), []string{"Attribute scanning_policy value must be one of"}},
		{"skill/display-name-129", badSkill("skill_id = \"pdf-tools\"\n  display_name = \"" + strings.Repeat("x", 129) + "\"\n  " + gcs), []string{"Attribute display_name UTF-8 character count must be between 1 and 128, got: 129"}},
		{"skill/no-skill-md", badSkillFolder(badSkillDir(t, "pdf-tools", "")), []string{pkg, "has no SKILL.md"}},
		{"skill/folder-missing", badSkillFolder(filepath.Join(t.TempDir(), "pdf-tools")), []string{pkg, "Cannot package the skill"}},
		{"skill/no-front-matter", badSkillFolder(badSkillDir(t, "pdf-tools", "# PDF tools\n")), []string{pkg, "SKILL.md:1: must start with a YAML front matter block"}},
		{"skill/name-not-folder", badSkillFolder(badSkillDir(t, "pdf-forms", good)), []string{pkg, `SKILL.md:2: name: "pdf-tools" must equal the name of the skill's folder, "pdf-forms"`}},
		{"skill/every-problem-at-once", badSkillFolder(badSkillDir(t, "pdf-tools", "---\nname: pdf--tools\nlicence: MIT\nmetadata:\n  tags: [a]\n---\n")),
			[]string{pkg, "4 problems", "SKILL.md:1: description: is required", "SKILL.md:2: name", "SKILL.md:3: licence: is not a field", "SKILL.md:5: metadata.tags: must be a string"}},
		{"skill/description-1025", badSkillFolder(badSkillDir(t, "pdf-tools", "---\nname: pdf-tools\ndescription: "+strings.Repeat("d", 1025)+"\n---\n")),
			[]string{pkg, "SKILL.md:3: description: is 1025 characters long; the limit is 1024"}},
		{"skill/symlink-out-of-folder", badSkillFolder(linked), []string{pkg, "symlink secret points outside the skill folder"}},
	}
}
