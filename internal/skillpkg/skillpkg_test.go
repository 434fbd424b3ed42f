package skillpkg

import (
	"crypto/rand"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

const goodMD = "---\nname: pdf-tools\ndescription: Fill and merge PDF forms.\nlicense: Apache-2.0\nmetadata:\n  author: me\n---\n# PDF tools\n"

// writeSkill makes dir/<name> with goodMD as SKILL.md and a script; it
// returns the folder.
func writeSkill(t *testing.T, name string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), name)
	if err := os.MkdirAll(filepath.Join(dir, "scripts"), 0o755); err != nil {
		t.Fatal(err)
	}
	write(t, filepath.Join(dir, SkillFile), goodMD)
	write(t, filepath.Join(dir, "scripts", "run.sh"), "echo hi\n")
	return dir
}

func write(t *testing.T, p, s string) {
	t.Helper()
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestParseFrontmatterValid(t *testing.T) {
	fm, err := ParseFrontmatter([]byte(goodMD), "pdf-tools")
	if err != nil {
		t.Fatal(err)
	}
	if fm.Name != "pdf-tools" || fm.License != "Apache-2.0" || fm.Metadata["author"] != "me" {
		t.Errorf("got %+v", fm)
	}
}

func TestParseFrontmatterReportsEveryProblemWithLines(t *testing.T) {
	md := "---\nname: Bad--Name\ndescription: \"\"\ncompatibility: " + strings.Repeat("x", 501) + "\nmetadata:\n  n: [1]\nextra: 1\n---\n"
	_, err := ParseFrontmatter([]byte(md), "bad-name")
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want *ValidationError, got %v", err)
	}
	want := []string{"SKILL.md:2: name", "SKILL.md:3: description", "SKILL.md:4: compatibility", "SKILL.md:6: metadata.n", "SKILL.md:7: extra"}
	if len(ve.Problems) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%v", len(ve.Problems), len(want), err)
	}
	for i, w := range want {
		if !strings.HasPrefix(ve.Problems[i].String(), w) {
			t.Errorf("problem %d = %q, want prefix %q", i, ve.Problems[i], w)
		}
	}
}

func TestParseFrontmatterNameRules(t *testing.T) {
	for name, want := range map[string]string{
		"-lead": "hyphen", "trail-": "hyphen", "a--b": "hyphen", "UP": "lower-case",
		strings.Repeat("a", 65): "limit is 64", "other": "folder",
	} {
		md := "---\nname: " + name + "\ndescription: d\n---\n"
		_, err := ParseFrontmatter([]byte(md), "folder")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("name %q: got %v, want %q", name, err, want)
		}
	}
}

func TestParseFrontmatterMissingBlock(t *testing.T) {
	for _, md := range []string{"# no front matter\n", "---\nname: x\n"} {
		if _, err := ParseFrontmatter([]byte(md), ""); err == nil || !strings.Contains(err.Error(), "SKILL.md:1") {
			t.Errorf("%q: got %v", md, err)
		}
	}
}

func TestLoadIsDeterministic(t *testing.T) {
	dir := writeSkill(t, "pdf-tools")
	a, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	// A different mtime and a copy elsewhere must give the same bytes.
	old := time.Now().Add(-48 * time.Hour)
	if err := os.Chtimes(filepath.Join(dir, "scripts", "run.sh"), old, old); err != nil {
		t.Fatal(err)
	}
	other := writeSkill(t, "pdf-tools")
	for _, d := range []string{dir, other} {
		b, err := Load(d)
		if err != nil {
			t.Fatal(err)
		}
		if b.SHA256 != a.SHA256 || string(b.Archive) != string(a.Archive) {
			t.Errorf("%s: hash %s, want %s", d, b.SHA256, a.SHA256)
		}
	}
	write(t, filepath.Join(dir, "scripts", "run.sh"), "echo bye\n")
	if c, err := Load(dir); err != nil || c.SHA256 == a.SHA256 {
		t.Errorf("an edited file must change the hash (err %v)", err)
	}
}

func TestLoadSymlinks(t *testing.T) {
	dir := writeSkill(t, "pdf-tools")
	outside := filepath.Join(t.TempDir(), "secret")
	write(t, outside, "s3cret")
	if err := os.Symlink(outside, filepath.Join(dir, "leak")); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "outside the skill folder") {
		t.Fatalf("got %v", err)
	}
	if err := os.Remove(filepath.Join(dir, "leak")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("scripts/run.sh", filepath.Join(dir, "inside")); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err != nil {
		t.Fatalf("a link inside the folder is fine: %v", err)
	}
}

func TestLoadRefusesOversize(t *testing.T) {
	dir := writeSkill(t, "pdf-tools")
	// Random bytes do not compress: the archive is over the limit.
	big := make([]byte, MaxArchiveBytes+1)
	_, _ = rand.Read(big)
	if err := os.WriteFile(filepath.Join(dir, "big.bin"), big, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err == nil || !strings.Contains(err.Error(), "the skill's archive is") {
		t.Fatalf("got %v", err)
	}
	// The same size of compressible content is within the limit.
	if err := os.WriteFile(filepath.Join(dir, "big.bin"), make([]byte, MaxArchiveBytes+1), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := Load(dir); err != nil {
		t.Fatalf("a folder that compresses under the limit: %v", err)
	}
}

func TestReadSkillFileRoundTrip(t *testing.T) {
	p, err := Load(writeSkill(t, "pdf-tools"))
	if err != nil {
		t.Fatal(err)
	}
	md, folder, err := ReadSkillFile(p.Archive)
	if err != nil || string(md) != goodMD || folder != "" {
		t.Fatalf("got %q %q %v", md, folder, err)
	}
	if _, _, err := ReadSkillFile([]byte("not an archive")); err == nil {
		t.Fatal("want an error for garbage")
	}
}

// goldenHash is the archive hash of the folder written by writeSkill with
// goodMD. It is fixed in the test so that a change in the archive's layout or
// in the compressor (a Go upgrade) is noticed: it would change content_hash
// for every user and plan a new revision of every skill.
const goldenHash = "4050404b0149e47f8c440477f97543c48357a9a166a44fe46b43b28c64f6ae05"

func TestLoadGoldenHash(t *testing.T) {
	p, err := Load(writeSkill(t, "pdf-tools"))
	if err != nil {
		t.Fatal(err)
	}
	if p.SHA256 != goldenHash {
		t.Errorf("hash %s, want %s", p.SHA256, goldenHash)
	}
}
