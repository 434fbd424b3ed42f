package skillpkg

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"io/fs"
	"strings"
	"testing"
)

// entry is one member of a test archive: a name, its content and its kind.
type entry struct {
	name, body string
	mode       fs.FileMode // 0: a regular file; fs.ModeDir, fs.ModeSymlink...
}

// rawZip writes entries as given: duplicates, absolute names and links
// included, which Zip never writes.
func rawZip(t *testing.T, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, e := range entries {
		h := &zip.FileHeader{Name: e.name, Method: zip.Store}
		h.SetMode(e.mode | 0o644)
		w, err := zw.CreateHeader(h)
		if err == nil && e.mode&fs.ModeDir == 0 {
			_, err = w.Write([]byte(e.body))
		}
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := zw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// rawTar writes entries with the tar type of their mode.
func rawTar(t *testing.T, entries ...entry) []byte {
	t.Helper()
	var buf bytes.Buffer
	tw := tar.NewWriter(&buf)
	for _, e := range entries {
		h := &tar.Header{Name: e.name, Mode: 0o644, Typeflag: tar.TypeReg, Size: int64(len(e.body)), Format: tar.FormatPAX}
		switch {
		case e.mode&fs.ModeDir != 0:
			h.Typeflag, h.Size = tar.TypeDir, 0
		case e.mode&fs.ModeSymlink != 0:
			h.Typeflag, h.Linkname, h.Size = tar.TypeSymlink, e.body, 0
		case e.mode&fs.ModeNamedPipe != 0:
			h.Typeflag, h.Size = tar.TypeFifo, 0
		case e.mode&fs.ModeIrregular != 0: // stands for a hard link here
			h.Typeflag, h.Linkname, h.Size = tar.TypeLink, e.body, 0
		}
		if h.Name == "pax_global_header" {
			h = &tar.Header{Typeflag: tar.TypeXGlobalHeader, Name: h.Name, PAXRecords: map[string]string{"comment": "abc"}, Format: tar.FormatPAX}
		}
		if err := tw.WriteHeader(h); err != nil {
			t.Fatal(err)
		}
		if h.Typeflag == tar.TypeReg {
			if _, err := tw.Write([]byte(e.body)); err != nil {
				t.Fatal(err)
			}
		}
	}
	if err := tw.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

const badMD = "---\nname: Not A Name\n---\n"

// The archive check agrees with any consumer. Before it did, with two
// SKILL.md entries the last was validated, an absolute /SKILL.md was taken
// as the root file (skipping the folder-name check), names such as
// ../../etc/passwd and non-UTF-8 ones were stored, and a zip symlink named
// SKILL.md had its link text parsed as SKILL.md.
func TestReadSkillFileRefusesAmbiguousArchives(t *testing.T) {
	for _, c := range []struct {
		name    string
		entries []entry
		want    string
	}{
		{"two SKILL.md, the invalid one first", []entry{{name: "SKILL.md", body: badMD}, {name: "SKILL.md", body: goodMD}}, `"SKILL.md" appears more than once`},
		{"./SKILL.md beside SKILL.md", []entry{{name: "./SKILL.md", body: badMD}, {name: "SKILL.md", body: goodMD}}, `"SKILL.md" appears more than once`},
		{"an absolute SKILL.md", []entry{{name: "/SKILL.md", body: "---\nname: anything-goes\ndescription: d\n---\n"}}, "is an absolute path"},
		{"a path out of the archive", []entry{{name: "SKILL.md", body: goodMD}, {name: "../../etc/passwd", body: "x"}}, "is not a clean relative path"},
		{"a .. inside", []entry{{name: "SKILL.md", body: goodMD}, {name: "a/../b", body: "x"}}, "is not a clean relative path"},
		{"an empty part", []entry{{name: "SKILL.md", body: goodMD}, {name: "a//b", body: "x"}}, "is not a clean relative path"},
		{"a . part", []entry{{name: "SKILL.md", body: goodMD}, {name: "a/./b", body: "x"}}, "is not a clean relative path"},
		{"a backslash", []entry{{name: "SKILL.md", body: goodMD}, {name: `..\..\x`, body: "x"}}, "contains a backslash"},
		{"a control character", []entry{{name: "SKILL.md", body: goodMD}, {name: "a\x01b", body: "x"}}, "contains a control character"},
		{"a non-UTF-8 name", []entry{{name: "SKILL.md", body: goodMD}, {name: "caf\xe9", body: "x"}}, "is not valid UTF-8"},
		{"a symlink named SKILL.md", []entry{{name: "SKILL.md", body: "/etc/passwd", mode: fs.ModeSymlink}}, "is a symbolic link"},
		{"a symlink elsewhere", []entry{{name: "SKILL.md", body: goodMD}, {name: "leak", body: "/etc/passwd", mode: fs.ModeSymlink}}, "is a symbolic link"},
		{"a named pipe", []entry{{name: "SKILL.md", body: goodMD}, {name: "fifo", mode: fs.ModeNamedPipe}}, "is a special file"},
		{"a file inside a file", []entry{{name: "SKILL.md", body: goodMD}, {name: "a", body: "x"}, {name: "a/b", body: "y"}}, `"a/b" is inside "a", which is a file`},
		{"a folder and a file of one name", []entry{{name: "SKILL.md", body: goodMD}, {name: "a/", mode: fs.ModeDir}, {name: "a", body: "x"}}, `"a" appears more than once`},
		{"an entry beside the skill's folder", []entry{{name: "pdf-tools/SKILL.md", body: goodMD}, {name: "other.txt", body: "x"}}, `"other.txt" is not`},
		{"two skill folders", []entry{{name: "a/SKILL.md", body: goodMD}, {name: "b/SKILL.md", body: goodMD}}, "found none at the root and 2 in top-level folders [a/SKILL.md b/SKILL.md]"},
		{"no SKILL.md", []entry{{name: "README.md", body: "x"}}, "found none at the root and 0"},
		{"only a deeper SKILL.md", []entry{{name: "a/b/SKILL.md", body: goodMD}}, "found none at the root and 0"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := ReadSkillFile(rawZip(t, c.entries...))
			if err == nil || !strings.Contains(err.Error(), c.want) {
				t.Errorf("zip: %v, want %q", err, c.want)
			}
		})
	}
}

func TestReadSkillFileRefusesTarLinks(t *testing.T) {
	for _, c := range []struct {
		name string
		e    entry
		want string
	}{
		{"symlink", entry{name: "SKILL.md", body: "/etc/passwd", mode: fs.ModeSymlink}, "is a link"},
		{"hard link", entry{name: "SKILL.md", body: "other", mode: fs.ModeIrregular}, "is a link"},
		{"fifo", entry{name: "fifo", mode: fs.ModeNamedPipe}, "of tar type '6'"},
		{"a file named .", entry{name: ".", body: "x"}, `"." is not a file name`},
	} {
		_, _, err := ReadSkillFile(rawTar(t, entry{name: "other", body: goodMD}, c.e))
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want %q", c.name, err, c.want)
		}
	}
}

// What stays accepted: a tar of "." (entries "./" and "./SKILL.md", as
// `tar -C dir -cf x.tar .` writes them), a git archive's global header, a
// single top-level folder with its own folders, and SKILL.md files deeper
// than the skill's, which are ordinary files.
func TestReadSkillFileAcceptsCommonLayouts(t *testing.T) {
	for _, c := range []struct {
		name    string
		archive []byte
		folder  string
	}{
		{"tar of .", rawTar(t, entry{name: "./", mode: fs.ModeDir}, entry{name: "./SKILL.md", body: goodMD}, entry{name: "./scripts/", mode: fs.ModeDir}, entry{name: "./scripts/a.sh", body: "x"}), ""},
		{"git archive", rawTar(t, entry{name: "pax_global_header"}, entry{name: "SKILL.md", body: goodMD}), ""},
		{"one folder", rawZip(t, entry{name: "pdf-tools/", mode: fs.ModeDir}, entry{name: "pdf-tools/SKILL.md", body: goodMD}, entry{name: "pdf-tools/ref/", mode: fs.ModeDir}, entry{name: "pdf-tools/ref/SKILL.md", body: badMD}), "pdf-tools"},
		{"nested SKILL.md at the root layout", rawZip(t, entry{name: "SKILL.md", body: goodMD}, entry{name: "examples/other/SKILL.md", body: badMD}, entry{name: "examples/SKILL.md", body: badMD}), ""},
	} {
		md, folder, err := ReadSkillFile(c.archive)
		if err != nil || string(md) != goodMD || folder != c.folder {
			t.Errorf("%s: %q in %q, %v; want the good SKILL.md in %q", c.name, md, folder, err, c.folder)
		}
	}
}
