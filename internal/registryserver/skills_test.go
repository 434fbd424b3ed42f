package registryserver_test

import (
	"archive/tar"
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"google.golang.org/api/agentregistry/v1"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver"
	"github.com/agentregistry/terraform-provider-agentregistry/internal/skillpkg"
)

func skillMD(name, desc string) string {
	return "---\nname: " + name + "\ndescription: " + desc + "\nmetadata:\n  team: docs\n---\n# " + name + "\n"
}

func zipOf(t *testing.T, files map[string]string) string {
	t.Helper()
	m := map[string][]byte{}
	for k, v := range files {
		m[k] = []byte(v)
	}
	b, err := skillpkg.Zip(m)
	if err != nil {
		t.Fatal(err)
	}
	return base64.StdEncoding.EncodeToString(b)
}

func (e *env) createSkill(t *testing.T, id, desc string, rev *agentregistry.SkillRevision) *agentregistry.Skill {
	t.Helper()
	op, err := e.ar.Projects.Locations.Skills.Create(parent, &agentregistry.Skill{
		Type: "SIMPLE", TargetState: "TARGET_STATE_ACTIVE", Description: desc, InitialRevision: rev,
	}).SkillId(id).Do()
	if err != nil {
		t.Fatal(err)
	}
	var sk agentregistry.Skill
	if err := json.Unmarshal(waitDone(t, e, op.Name).Response, &sk); err != nil {
		t.Fatal(err)
	}
	return &sk
}

func upload(t *testing.T, name, desc string) *agentregistry.SkillRevision {
	return &agentregistry.SkillRevision{ArchiveUploadSource: &agentregistry.ArchiveUploadSource{
		ArchiveContent: zipOf(t, map[string]string{"SKILL.md": skillMD(name, desc), "scripts/a.sh": "echo\n"})}}
}

func TestSkillLifecycle(t *testing.T) {
	e := start(t, registryserver.Options{})
	sk := e.createSkill(t, "pdf-tools", "PDF things", upload(t, "pdf-tools", "Fill PDF forms."))
	if sk.State != "STATE_ACTIVE" || sk.DefaultRevision != parent+"/skills/pdf-tools/revisions/rev-1" || sk.Frontmatter.Name != "pdf-tools" {
		t.Fatalf("created %+v", sk)
	}
	rev, err := e.ar.Projects.Locations.Skills.Revisions.Get(sk.DefaultRevision).Do()
	if err != nil {
		t.Fatal(err)
	}
	if len(rev.Sha256Hash) != 64 || rev.SizeBytes == 0 || rev.State != "ACTIVE" || rev.ArchiveUploadSource != nil {
		t.Errorf("revision %+v", rev)
	}
	if rev.ScanResult.ScanState != "DISABLED" || len(rev.ScanResult.Findings) > 0 || !strings.Contains(rev.ScanResult.ErrorMessage, "no scanner") {
		t.Errorf("scan result must say plainly it was not scanned: %+v", rev.ScanResult)
	}
	// A second revision becomes the default.
	op, err := e.ar.Projects.Locations.Skills.Revisions.Create(sk.Name, upload(t, "pdf-tools", "Fill and merge PDF forms.")).Do()
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, e, op.Name)
	got, err := e.ar.Projects.Locations.Skills.Get(sk.Name).Do()
	if err != nil || !strings.HasSuffix(got.DefaultRevision, "/rev-2") || got.Frontmatter.Description != "Fill and merge PDF forms." {
		t.Fatalf("after revision: %+v %v", got, err)
	}
	op, err = e.ar.Projects.Locations.Skills.Patch(sk.Name, &agentregistry.Skill{TargetState: "TARGET_STATE_DEPRECATED", DisplayName: "PDF"}).
		UpdateMask("targetState,displayName").Do()
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, e, op.Name)
	if got, _ = e.ar.Projects.Locations.Skills.Get(sk.Name).Do(); got.State != "STATE_DEPRECATED" || got.DisplayName != "PDF" {
		t.Fatalf("after patch: %+v", got)
	}
	_, err = e.ar.Projects.Locations.Skills.Delete(sk.Name).Do()
	apiErr(t, err, 400, "FAILED_PRECONDITION")
	if op, err = e.ar.Projects.Locations.Skills.Delete(sk.Name).Force(true).Do(); err != nil {
		t.Fatal(err)
	}
	waitDone(t, e, op.Name)
	_, err = e.ar.Projects.Locations.Skills.Revisions.Get(sk.DefaultRevision).Do()
	apiErr(t, err, 404, "NOT_FOUND")
}

func TestSkillRejectsBadInput(t *testing.T) {
	e := start(t, registryserver.Options{})
	skills := e.ar.Projects.Locations.Skills
	for id, want := range map[string]string{"ab": "skill_id", "has9digit": "skill_id", strings.Repeat("a", 65): "skill_id"} {
		_, err := skills.Create(parent, &agentregistry.Skill{Type: "SIMPLE", TargetState: "TARGET_STATE_ACTIVE"}).SkillId(id).Do()
		if v := violations(t, asAPIErr(t, err, 400, "INVALID_ARGUMENT")); v[want] == "" {
			t.Errorf("id %q: violations %v", id, v)
		}
	}
	_, err := skills.Create(parent, &agentregistry.Skill{Type: "COMPOSITE", DisplayName: strings.Repeat("x", 129)}).SkillId("good-id").Do()
	v := violations(t, asAPIErr(t, err, 400, "INVALID_ARGUMENT"))
	if v["type"] == "" || v["target_state"] == "" || v["display_name"] == "" {
		t.Errorf("violations %v", v)
	}
	bad := upload(t, "Bad--Name", "")
	_, err = skills.Create(parent, &agentregistry.Skill{Type: "SIMPLE", TargetState: "TARGET_STATE_ACTIVE", InitialRevision: bad}).SkillId("good-id").Do()
	v = violations(t, asAPIErr(t, err, 400, "INVALID_ARGUMENT"))
	if !strings.Contains(v["frontmatter.name"], "SKILL.md:2") || !strings.Contains(v["frontmatter.description"], "SKILL.md:3") {
		t.Errorf("violations %v", v)
	}
	garbage := &agentregistry.SkillRevision{ArchiveUploadSource: &agentregistry.ArchiveUploadSource{ArchiveContent: base64.StdEncoding.EncodeToString([]byte("nope"))}}
	_, err = skills.Create(parent, &agentregistry.Skill{Type: "SIMPLE", TargetState: "TARGET_STATE_ACTIVE", InitialRevision: garbage}).SkillId("good-id").Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
	_, err = skills.Search(parent).SearchType("FUZZY").Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
	_, err = skills.Search(parent).SearchString("(unclosed").Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
}

func TestSkillRevisionFromTarInFolder(t *testing.T) {
	e := start(t, registryserver.Options{})
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	md := skillMD("tar-skill", "From a tarball.")
	_ = tw.WriteHeader(&tar.Header{Name: "tar-skill/SKILL.md", Mode: 0o644, Size: int64(len(md)), Typeflag: tar.TypeReg})
	_, _ = tw.Write([]byte(md))
	_ = tw.Close()
	rev := &agentregistry.SkillRevision{ArchiveUploadSource: &agentregistry.ArchiveUploadSource{ArchiveContent: base64.StdEncoding.EncodeToString(buf.Bytes())}}
	if sk := e.createSkill(t, "tar-skill", "", rev); sk.Frontmatter.Description != "From a tarball." {
		t.Fatalf("%+v", sk.Frontmatter)
	}
	// The folder name must equal the front matter name.
	_, err := e.ar.Projects.Locations.Skills.Create(parent, &agentregistry.Skill{Type: "SIMPLE", TargetState: "TARGET_STATE_ACTIVE", InitialRevision: rev}).SkillId("other-skill").Do()
	if err != nil {
		t.Fatalf("the skill id need not equal the folder name: %v", err)
	}
}

func TestSkillSearch(t *testing.T) {
	e := start(t, registryserver.Options{})
	e.createSkill(t, "pdf-tools", "Work with PDF documents", upload(t, "pdf-tools", "Fill PDF forms and merge PDF files."))
	e.createSkill(t, "csv-tools", "Spreadsheets", upload(t, "csv-tools", "Clean CSV files; export to PDF."))
	e.createSkill(t, "web-fetch", "HTTP", upload(t, "web-fetch", "Fetch web pages."))
	names := func(r *agentregistry.SearchSkillsResponse, err error) string {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, s := range r.Skills {
			out = append(out, filepath.Base(s.Name))
		}
		return strings.Join(out, ",")
	}
	s := e.ar.Projects.Locations.Skills
	if got := names(s.Search(parent).SearchString("pdf").Do()); got != "csv-tools,pdf-tools" {
		t.Errorf("KEYWORD pdf = %s", got)
	}
	if got := names(s.Search(parent).SearchString("frontmatter.description:merge OR skillId=urn:skill:projects-p1:locations:global:web-fetch").SearchType("KEYWORD").Do()); got != "pdf-tools,web-fetch" {
		t.Errorf("KEYWORD fields = %s", got)
	}
	// BM25: pdf-tools says "pdf" four times, csv-tools once; web-fetch never.
	if got := names(s.Search(parent).SearchString("merge pdf").SearchType("SEMANTIC").Do()); got != "pdf-tools,csv-tools" {
		t.Errorf("SEMANTIC = %s", got)
	}
	first, err := s.Search(parent).SearchString("pdf").SearchType("SEMANTIC").PageSize(1).Do()
	if err != nil || len(first.Skills) != 1 || first.NextPageToken == "" {
		t.Fatalf("page 1: %+v %v", first, err)
	}
	if got := names(s.Search(parent).SearchString("pdf").SearchType("SEMANTIC").PageSize(1).PageToken(first.NextPageToken).Do()); got != "csv-tools" {
		t.Errorf("page 2 = %s", got)
	}
	l, err := s.List(parent).Filter("state=ACTIVE").Do()
	if err != nil || len(l.Skills) != 3 {
		t.Errorf("list filter: %+v %v", l, err)
	}
}

func TestSkillsSurviveRestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	srv, err := registryserver.New(registryserver.Options{DataPath: path})
	if err != nil {
		t.Fatal(err)
	}
	e := startOn(t, srv)
	sk := e.createSkill(t, "pdf-tools", "d", upload(t, "pdf-tools", "Fill PDF forms."))
	e.close()
	mustClose(t, srv)
	srv, err = registryserver.New(registryserver.Options{DataPath: path})
	if err != nil {
		t.Fatal(err)
	}
	defer mustClose(t, srv)
	e = startOn(t, srv)
	if _, err := e.ar.Projects.Locations.Skills.Revisions.Get(sk.DefaultRevision).Do(); err != nil {
		t.Fatal(err)
	}
}

// Bounded inputs: an archive over the limit, a body over the limit, bad ids
// and unknown paths are 4xx answers that say why, never a 500.
func TestSkillBoundedInputs(t *testing.T) {
	t.Parallel() // overlaps with the other slow tests: every mutant of make mutation runs the package
	e := start(t, registryserver.Options{})
	sk := e.createSkill(t, "pdf-tools", "d", nil)
	big := make([]byte, skillpkg.MaxArchiveBytes+1)
	copy(big, "PK\x03\x04")
	rev := &agentregistry.SkillRevision{ArchiveUploadSource: &agentregistry.ArchiveUploadSource{ArchiveContent: base64.StdEncoding.EncodeToString(big)}}
	_, err := e.ar.Projects.Locations.Skills.Revisions.Create(sk.Name, rev).Do()
	if ge := asAPIErr(t, err, 400, "INVALID_ARGUMENT"); !strings.Contains(ge.Message, "limit") {
		t.Errorf("message %q", ge.Message)
	}
	huge := strings.Repeat("A", 15<<20)
	rev.ArchiveUploadSource.ArchiveContent = huge
	_, err = e.ar.Projects.Locations.Skills.Revisions.Create(sk.Name, rev).Do()
	apiErr(t, err, 413, "OUT_OF_RANGE")
	_, err = e.ar.Projects.Locations.Skills.Revisions.Get(sk.Name + "/revisions/-bad").Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
	_, err = e.ar.Projects.Locations.Skills.Revisions.Create(sk.Name, upload(t, "pdf-tools", "x")).SkillRevisionId("Bad_Id").Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
	gcs := &agentregistry.SkillRevision{GcsSource: &agentregistry.GcsSource{Uri: "gs://b/o.zip"}}
	_, err = e.ar.Projects.Locations.Skills.Revisions.Create(sk.Name, gcs).Do()
	apiErr(t, err, 501, "UNIMPLEMENTED")
	_, err = e.ar.Projects.Locations.Skills.Revisions.List(parent + "/skills/none-such").Do()
	apiErr(t, err, 404, "NOT_FOUND")
	_, err = e.ar.Projects.Locations.Skills.Search(parent).PageToken("garbage").Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
	_, err = e.ar.Projects.Locations.Skills.Patch(sk.Name, &agentregistry.Skill{}).UpdateMask("uid").Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
	_, err = e.ar.Projects.Locations.Skills.Patch(sk.Name, &agentregistry.Skill{DefaultRevision: parent + "/skills/other/revisions/r1"}).UpdateMask("defaultRevision").Do()
	apiErr(t, err, 400, "INVALID_ARGUMENT")
}

// TestSkillFieldLimits: display_name and description are bounded in
// characters (here two-byte ones): a value at the limit is stored, one
// character more is refused with a violation of that field.
func TestSkillFieldLimits(t *testing.T) {
	e := start(t, registryserver.Options{})
	for i, c := range []struct {
		displayName, description string
		violation                string // "" when the skill is created
	}{
		{displayName: strings.Repeat("é", 128)},
		{displayName: strings.Repeat("é", 129), violation: "display_name"},
		{description: strings.Repeat("é", 2048)},
		{description: strings.Repeat("é", 2049), violation: "description"},
	} {
		id := "limit-" + string(rune('a'+i))
		op, err := e.ar.Projects.Locations.Skills.Create(parent, &agentregistry.Skill{Type: "SIMPLE", TargetState: "TARGET_STATE_ACTIVE",
			DisplayName: c.displayName, Description: c.description}).SkillId(id).Do()
		if c.violation != "" {
			if v := violations(t, asAPIErr(t, err, 400, "INVALID_ARGUMENT")); len(v) != 1 || v[c.violation] == "" {
				t.Errorf("case %d: violations %v, want one of %s", i, v, c.violation)
			}
			continue
		}
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		waitDone(t, e, op.Name)
		sk, err := e.ar.Projects.Locations.Skills.Get(parent + "/skills/" + id).Do()
		if err != nil {
			t.Fatalf("case %d: %v", i, err)
		}
		if sk.DisplayName != c.displayName || sk.Description != c.description {
			t.Errorf("case %d: stored a display name of %d bytes and a description of %d", i, len(sk.DisplayName), len(sk.Description))
		}
	}
}

// TestSkillPatchMask: a patch without update_mask changes the mutable
// fields the body carries and only those (AIP-134, as services, bindings and
// workloads do); with a mask, only the masked fields: a body without
// target_state is accepted, and one with only a display name keeps the
// description.
func TestSkillPatchMask(t *testing.T) {
	e := start(t, registryserver.Options{})
	skills := e.ar.Projects.Locations.Skills
	op, err := skills.Create(parent, &agentregistry.Skill{Type: "SIMPLE", TargetState: "TARGET_STATE_ACTIVE", DisplayName: "Old", Description: "old",
		ScanningConfig: &agentregistry.ScanningConfig{Policy: "ENABLED_BLOCKING"}, InitialRevision: upload(t, "pdf-tools", "Fill PDF forms.")}).SkillId("pdf-tools").Do()
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, e, op.Name)
	name := parent + "/skills/pdf-tools"
	op, err = skills.Revisions.Create(name, upload(t, "pdf-tools", "Second.")).Do()
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, e, op.Name)
	patch := func(in *agentregistry.Skill, mask string) *agentregistry.Skill {
		t.Helper()
		call := skills.Patch(name, in)
		if mask != "" {
			call = call.UpdateMask(mask)
		}
		op, err := call.Do()
		if err != nil {
			t.Fatalf("patch (mask %q): %v", mask, err)
		}
		waitDone(t, e, op.Name)
		sk, err := skills.Get(name).Do()
		if err != nil {
			t.Fatal(err)
		}
		return sk
	}
	sk := patch(&agentregistry.Skill{DisplayName: "New"}, "")
	if sk.DisplayName != "New" || sk.Description != "old" || sk.State != "STATE_ACTIVE" || sk.ScanningConfig == nil ||
		sk.ScanningConfig.Policy != "ENABLED_BLOCKING" || sk.DefaultRevision != name+"/revisions/rev-2" {
		t.Errorf("without a mask, the display name only: %+v", sk)
	}
	sk = patch(&agentregistry.Skill{Description: "new", TargetState: "TARGET_STATE_DEPRECATED",
		ScanningConfig: &agentregistry.ScanningConfig{Policy: "DISABLED"}, DefaultRevision: name + "/revisions/rev-1"}, "")
	if sk.DisplayName != "New" || sk.Description != "new" || sk.State != "STATE_DEPRECATED" || sk.ScanningConfig == nil ||
		sk.ScanningConfig.Policy != "DISABLED" || sk.DefaultRevision != name+"/revisions/rev-1" || sk.Frontmatter.Description != "Fill PDF forms." {
		t.Errorf("without a mask, every other field: %+v", sk)
	}
	_, err = skills.Patch(name, &agentregistry.Skill{DefaultRevision: name + "/revisions/none"}).Do()
	if v := violations(t, asAPIErr(t, err, 400, "INVALID_ARGUMENT")); v["default_revision"] == "" {
		t.Errorf("a default_revision that names no revision: %v", v)
	}
	// An empty body changes nothing (and is not refused for its missing target_state).
	if sk = patch(&agentregistry.Skill{}, ""); sk.DisplayName != "New" || sk.State != "STATE_DEPRECATED" {
		t.Errorf("an empty patch: %+v", sk)
	}
	sk = patch(&agentregistry.Skill{Description: "newer", TargetState: "TARGET_STATE_ACTIVE"}, "description")
	if sk.DisplayName != "New" || sk.Description != "newer" || sk.State != "STATE_DEPRECATED" || sk.ScanningConfig == nil {
		t.Errorf("with mask description: %+v", sk)
	}
}

// TestSkillDeleteWithoutRevisions: force is needed only when revisions would
// go with the skill; a skill without any is deleted without it.
func TestSkillDeleteWithoutRevisions(t *testing.T) {
	e := start(t, registryserver.Options{})
	sk := e.createSkill(t, "bare-skill", "no revisions", nil)
	op, err := e.ar.Projects.Locations.Skills.Delete(sk.Name).Do()
	if err != nil {
		t.Fatalf("delete without force: %v", err)
	}
	waitDone(t, e, op.Name)
	_, err = e.ar.Projects.Locations.Skills.Get(sk.Name).Do()
	apiErr(t, err, 404, "NOT_FOUND")
}

// TestSkillRevisionLimit: a skill holds at most 100 revisions (the initial
// one counts); the 101st is RESOURCE_EXHAUSTED. The 100 page like any list,
// and a forced delete takes every one of them: a new skill of the same id
// starts with none.
func TestSkillRevisionLimit(t *testing.T) {
	e := start(t, registryserver.Options{})
	revs := e.ar.Projects.Locations.Skills.Revisions
	in := upload(t, "pdf-tools", "Fill PDF forms.")
	sk := e.createSkill(t, "pdf-tools", "d", in)
	for i := 2; i <= 100; i++ {
		op, err := revs.Create(sk.Name, in).Do()
		if err != nil {
			t.Fatalf("revision %d: %v", i, err)
		}
		if !op.Done {
			waitDone(t, e, op.Name)
		}
	}
	_, err := revs.Create(sk.Name, in).Do()
	apiErr(t, err, 429, "RESOURCE_EXHAUSTED")

	var sizes []int
	err = revs.List(sk.Name).PageSize(40).Pages(context.Background(), func(r *agentregistry.ListSkillRevisionsResponse) error {
		sizes = append(sizes, len(r.SkillRevisions))
		return nil
	})
	if err != nil || !slices.Equal(sizes, []int{40, 40, 20}) {
		t.Fatalf("pages of 40: %v (%v), want [40 40 20]", sizes, err)
	}

	op, err := e.ar.Projects.Locations.Skills.Delete(sk.Name).Force(true).Do()
	if err != nil {
		t.Fatal(err)
	}
	waitDone(t, e, op.Name)
	e.createSkill(t, "pdf-tools", "again", nil)
	if l, err := revs.List(sk.Name).Do(); err != nil || len(l.SkillRevisions) != 0 {
		t.Fatalf("revisions of the new skill: %d (%v), want none", len(l.SkillRevisions), err)
	}
}
