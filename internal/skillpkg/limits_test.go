package skillpkg

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// allocated returns the bytes allocated while fn ran.
func allocated(fn func()) uint64 {
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	fn()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func problemsOf(t *testing.T, err error) *ValidationError {
	t.Helper()
	var ve *ValidationError
	if !errors.As(err, &ve) {
		t.Fatalf("want *ValidationError, got %v", err)
	}
	return ve
}

// The front matter's size is checked before it is parsed: a 2 MB flow
// sequence was once parsed into a YAML node tree (about
// 400 MB allocated) before any check.
func TestFrontmatterBoundedBeforeParsing(t *testing.T) {
	bomb := []byte("---\nname: x\ndescription: d\nmetadata: [" + strings.Repeat("a,", 1<<20) + "a]\n---\n")
	var err error
	if n := allocated(func() { _, err = ParseFrontmatter(bomb, "") }); n > 1<<20 {
		t.Errorf("parsing a %d-byte front matter allocated %d bytes; its size must be refused before it is parsed", len(bomb), n)
	}
	ve := problemsOf(t, err)
	if len(ve.Problems) != 1 || !strings.Contains(ve.Problems[0].Msg, "16384 bytes") {
		t.Errorf("problems %v, want one naming the 16384-byte limit", ve.Problems)
	}
}

// The limit is on the bytes between the two fences: exactly
// MaxFrontmatterBytes is accepted, one more is refused. The body after the
// front matter is not bounded by it.
func TestFrontmatterSizeLimit(t *testing.T) {
	header := func(n int) string {
		h := "name: x\ndescription: d\nlicense: "
		return h + strings.Repeat("l", n-len(h)-1) + "\n"
	}
	body := strings.Repeat("body line\n", 100_000)
	for _, c := range []struct {
		size int
		ok   bool
	}{{MaxFrontmatterBytes, true}, {MaxFrontmatterBytes + 1, false}} {
		md := "---\n" + header(c.size) + "---\n" + body
		_, err := ParseFrontmatter([]byte(md), "")
		if (err == nil) != c.ok {
			t.Errorf("front matter of %d bytes: %v, want accepted %v", c.size, err, c.ok)
		}
	}
	// CRLF line ends count as written, and the fence may carry a CR and blanks.
	md := "---\r\nname: x\r\ndescription: d\r\n--- \r\nbody\r\n"
	if fm, err := ParseFrontmatter([]byte(md), ""); err != nil || fm.Description != "d" {
		t.Errorf("CRLF front matter: %+v %v", fm, err)
	}
	// A closing fence at the very end of the file, without a newline.
	if _, err := ParseFrontmatter([]byte("---\nname: x\ndescription: d\n---"), ""); err != nil {
		t.Errorf("fence at the end of the file: %v", err)
	}
	if _, err := ParseFrontmatter([]byte("---"), ""); err == nil || !strings.Contains(err.Error(), "never closed") {
		t.Errorf("a lone fence: %v", err)
	}
}

// Metadata is bounded in entries and bytes before it is kept.
func TestMetadataLimits(t *testing.T) {
	md := func(entries []string) []byte {
		return []byte("---\nname: x\ndescription: d\nmetadata:\n" + strings.Join(entries, "") + "---\n")
	}
	entries := func(n int) []string {
		var out []string
		for i := range n {
			out = append(out, fmt.Sprintf("  k%d: v\n", i))
		}
		return out
	}
	if fm, err := ParseFrontmatter(md(entries(MaxMetadataEntries)), ""); err != nil || len(fm.Metadata) != MaxMetadataEntries {
		t.Errorf("%d entries: %v", MaxMetadataEntries, err)
	}
	ve := problemsOf(t, func() error { _, err := ParseFrontmatter(md(entries(MaxMetadataEntries+1)), ""); return err }())
	if len(ve.Problems) != 1 || !strings.Contains(ve.Problems[0].String(), "has 65 entries; the limit is 64") {
		t.Errorf("%d entries: %v", MaxMetadataEntries+1, ve)
	}
	// Keys and values together: "k" + a value, exactly at the limit, then one byte over.
	for _, c := range []struct {
		size int
		ok   bool
	}{{MaxMetadataBytes, true}, {MaxMetadataBytes + 1, false}} {
		_, err := ParseFrontmatter(md([]string{"  k: " + strings.Repeat("v", c.size-1) + "\n"}), "")
		if (err == nil) != c.ok {
			t.Errorf("metadata of %d bytes: %v, want accepted %v", c.size, err, c.ok)
		}
		if err != nil && !strings.Contains(err.Error(), fmt.Sprintf("holds %d bytes", c.size)) {
			t.Errorf("metadata of %d bytes: %v", c.size, err)
		}
	}
	for text, want := range map[string]string{
		"  ? [a]\n  : v\n":   "metadata: keys must be strings",
		"  k: v\n  k: w\n":   "metadata.k: appears more than once",
		"  k: ~\n":           "metadata.k: must be a string",
		"  k: [v]\n  j: v\n": "metadata.k: must be a string",
	} {
		if _, err := ParseFrontmatter(md([]string{text}), ""); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%q: %v, want %q", text, err, want)
		}
	}
}

// An error lists at most MaxProblems problems and counts the rest,
// and quotes at most 64 bytes of a key. Once, 900,000 unknown keys gave
// 900,000 problems.
func TestProblemsAreCapped(t *testing.T) {
	var keys strings.Builder
	const n = 1000
	for i := range n {
		fmt.Fprintf(&keys, "k%d: 1\n", i)
	}
	md := "---\n" + keys.String() + strings.Repeat("z", 300) + ": 1\n---\n"
	_, err := ParseFrontmatter([]byte(md), "")
	ve := problemsOf(t, err)
	// n unknown keys, the long one, and the missing name and description.
	if len(ve.Problems) != MaxProblems || ve.Total() != n+3 || ve.Omitted != n+3-MaxProblems {
		t.Fatalf("%d problems listed, %d omitted, total %d; want %d listed of %d", len(ve.Problems), ve.Omitted, ve.Total(), MaxProblems, n+3)
	}
	if !strings.HasSuffix(err.Error(), fmt.Sprintf("and %d more problems (only the first %d are listed)", n+3-MaxProblems, MaxProblems)) {
		t.Errorf("the message does not end with the count of the rest:\n%s", err)
	}
	if len(err.Error()) > 8<<10 {
		t.Errorf("the message is %d bytes", len(err.Error()))
	}
	// Exactly MaxProblems: all listed, nothing counted.
	var few strings.Builder
	for i := range MaxProblems - 2 {
		fmt.Fprintf(&few, "k%d: 1\n", i)
	}
	_, err = ParseFrontmatter([]byte("---\n"+few.String()+"---\n"), "")
	if ve := problemsOf(t, err); len(ve.Problems) != MaxProblems || ve.Omitted != 0 || strings.Contains(err.Error(), "more problems") {
		t.Errorf("%d problems: %d listed, %d omitted:\n%s", MaxProblems, len(ve.Problems), ve.Omitted, err)
	}
	long := "---\nname: x\ndescription: d\n" + strings.Repeat("é", 100) + ": 1\n---\n"
	_, err = ParseFrontmatter([]byte(long), "")
	if want := strings.Repeat("é", 32) + "...: is not a field"; !strings.Contains(err.Error(), want) {
		t.Errorf("a long key is quoted whole or cut inside a character: %v", err)
	}
}

// A field given twice is refused: YAML readers differ on which value wins.
func TestFrontmatterDuplicateField(t *testing.T) {
	_, err := ParseFrontmatter([]byte("---\nname: x\ndescription: d\nname: y\n---\n"), "")
	if ve := problemsOf(t, err); len(ve.Problems) != 1 || ve.Problems[0].String() != "SKILL.md:4: name: appears more than once" {
		t.Errorf("problems %v", ve.Problems)
	}
}

// A folder's file sizes are checked before the files are read. On
// main a sparse file just over the folder limit was read whole (80 MiB
// allocated) before the refusal.
func TestLoadChecksSizesBeforeReading(t *testing.T) {
	dir := writeSkill(t, "pdf-tools")
	f, err := os.Create(filepath.Join(dir, "sparse.bin"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(maxFolderBytes + 1); err != nil {
		t.Skip("sparse files unsupported:", err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
	var lerr error
	if n := allocated(func() { _, lerr = Load(dir) }); n > 4<<20 {
		t.Errorf("Load allocated %d bytes for a folder over its %d-byte limit; sizes must be checked before reading", n, maxFolderBytes)
	}
	if lerr == nil || !strings.Contains(lerr.Error(), "holds more than") {
		t.Fatalf("got %v", lerr)
	}
	// At the budget a file is read; one byte over, it is refused unread.
	p := filepath.Join(dir, "scripts", "run.sh")
	for _, c := range []struct {
		budget int64
		ok     bool
	}{{8, true}, {7, false}} {
		budget := c.budget
		data, err := readInside(dir, p, "scripts/run.sh", &budget)
		if c.ok && (err != nil || string(data) != "echo hi\n" || budget != 0) {
			t.Errorf("budget %d: %q, %v, %d left", c.budget, data, err, budget)
		}
		if !c.ok && (err == nil || budget != c.budget) {
			t.Errorf("budget %d: %q, %v, %d left; want refused before reading", c.budget, data, err, budget)
		}
	}
}

// Source_dir may be a symlink to the skill folder; the folder name
// checked is the link's, the name the user wrote.
func TestLoadFolderThroughSymlink(t *testing.T) {
	dir := writeSkill(t, "real-folder")
	link := filepath.Join(t.TempDir(), "pdf-tools")
	if err := os.Symlink(dir, link); err != nil {
		t.Skip("symlinks unsupported:", err)
	}
	p, err := Load(link)
	if err != nil {
		t.Fatalf("a source_dir that is a symlink to the folder: %v", err)
	}
	direct, err := Load(writeSkill(t, "pdf-tools"))
	if err != nil || p.SHA256 != direct.SHA256 {
		t.Errorf("through the link, hash %s; directly %s (%v)", p.SHA256, direct.SHA256, err)
	}
}
