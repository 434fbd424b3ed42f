package skillpkg

import (
	"archive/tar"
	"archive/zip"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/termsafe"
)

// MaxArchiveBytes is the largest archive of a skill accepted. The registry
// does not document a limit yet; 10 MiB keeps an upload (base64 in a JSON
// body) reasonable and is what both the provider and the bundled server apply.
const MaxArchiveBytes = 10 << 20

// maxFolderBytes bounds what is read of a folder before it is compressed:
// the archive limit applies to the compressed bytes, so the folder may be
// larger, but not without bound (it is held in memory while archived).
const maxFolderBytes = 8 * MaxArchiveBytes

// MaxFiles bounds the entries of one skill, so that a folder or archive with
// a huge number of tiny files cannot cost unbounded work.
const MaxFiles = 4096

// epoch is the modification time of every entry: a fixed time makes the
// archive depend on the folder's content only, never on when it was edited.
var epoch = time.Date(1980, 1, 1, 0, 0, 0, 0, time.UTC)

// Package is a skill folder ready to upload.
type Package struct {
	Frontmatter *Frontmatter
	// Archive is a ZIP of the folder's files at the archive root, in sorted
	// order, with fixed times and modes: the same content gives the same bytes.
	Archive []byte
	// SHA256 is the hex SHA-256 of Archive.
	SHA256 string
}

// Load validates the skill in dir and archives it. Symlinks are followed
// only when they stay inside dir; one that leaves it is an error, as is an
// archive over MaxArchiveBytes.
func Load(dir string) (*Package, error) {
	files, err := collect(dir)
	if err != nil {
		return nil, err
	}
	md, ok := files[SkillFile]
	if !ok {
		return nil, fmt.Errorf("%s has no %s: a skill folder must contain one at its top", dir, SkillFile)
	}
	fm, err := ParseFrontmatter(md, filepath.Base(filepath.Clean(dir)))
	if err != nil {
		return nil, err
	}
	archive, err := Zip(files)
	if err != nil {
		return nil, err
	}
	sum := sha256.Sum256(archive)
	return &Package{Frontmatter: fm, Archive: archive, SHA256: hex.EncodeToString(sum[:])}, nil
}

// collect reads every regular file under dir, by slash-separated relative
// path. dir may itself be a symlink to the folder. Sizes are checked before
// anything is read, so that a huge (or sparse) file is refused at once.
func collect(dir string) (map[string][]byte, error) {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot read the skill folder: %w", err)
	}
	files := map[string][]byte{}
	budget := int64(maxFolderBytes)
	err = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		if d.IsDir() {
			return nil
		}
		if len(files) >= MaxFiles {
			return fmt.Errorf("the skill folder has more than %d files", MaxFiles)
		}
		data, err := readInside(root, p, rel, &budget)
		if err != nil || data == nil {
			return err
		}
		files[filepath.ToSlash(rel)] = data
		return nil
	})
	return files, err
}

// errFolderTooLarge is the refusal of a folder over maxFolderBytes.
var errFolderTooLarge = fmt.Errorf("the skill folder holds more than %d bytes; its archive could not stay under %d bytes (MaxArchiveBytes)", maxFolderBytes, MaxArchiveBytes)

// readInside reads p, following a symlink only when its target is inside
// root, charging its size to budget before reading it. It returns nil data
// for entries that are neither files nor links to files (sockets, devices),
// which a skill never needs.
func readInside(root, p, rel string, budget *int64) ([]byte, error) {
	info, err := os.Lstat(p)
	if err != nil {
		return nil, err
	}
	if info.Mode()&fs.ModeSymlink != 0 {
		target, err := filepath.EvalSymlinks(p)
		if err != nil {
			return nil, fmt.Errorf("symlink %s cannot be resolved: %w", rel, err)
		}
		if r, err := filepath.Rel(root, target); err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
			return nil, fmt.Errorf("symlink %s points outside the skill folder (to %s); copy the file into the folder instead", rel, target)
		}
		if info, err = os.Stat(target); err != nil {
			return nil, err
		}
		if info.IsDir() {
			return nil, fmt.Errorf("symlink %s points to a directory; only files may be linked", rel)
		}
	}
	if !info.Mode().IsRegular() {
		return nil, nil
	}
	if info.Size() > *budget {
		return nil, errFolderTooLarge
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer func() { _ = f.Close() }() // opened to read: closing cannot lose data
	// The file may have grown since it was measured: read no more than the budget.
	data, err := io.ReadAll(io.LimitReader(f, *budget+1))
	if err != nil {
		return nil, err
	}
	if *budget -= int64(len(data)); *budget < 0 {
		return nil, errFolderTooLarge
	}
	return data, nil
}

// Zip archives files deterministically: entries sorted by path, every time
// set to epoch, every mode 0644, deflate compression.
func Zip(files map[string][]byte) ([]byte, error) {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, n := range names {
		h := &zip.FileHeader{Name: n, Method: zip.Deflate, Modified: epoch}
		h.SetMode(0o644)
		w, err := zw.CreateHeader(h)
		if err == nil {
			_, err = w.Write(files[n])
		}
		if err != nil {
			return nil, err
		}
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	if buf.Len() > MaxArchiveBytes {
		return nil, fmt.Errorf("the skill's archive is %d bytes; the limit is %d (MaxArchiveBytes)", buf.Len(), MaxArchiveBytes)
	}
	return buf.Bytes(), nil
}

// ReadSkillFile finds SKILL.md in a ZIP or TAR archive, at its root or in a
// single top-level folder (whose name it returns), reading at most
// MaxArchiveBytes of uncompressed data in MaxFiles entries.
//
// Every entry is checked, so that what the registry validates is what any
// consumer extracting the archive finds: names are valid UTF-8, relative and
// clean (no "..", ".", empty or absolute parts, no backslash; one leading
// "./" is allowed, as tar writes it), no two entries share a name, entries are
// files or folders (never links or special files), and there is exactly one
// SKILL.md at the root or, when the archive holds a single top-level folder,
// in it. Any other archive is refused.
func ReadSkillFile(archive []byte) (content []byte, folder string, err error) {
	if len(archive) > MaxArchiveBytes {
		return nil, "", fmt.Errorf("the archive is %d bytes; the limit is %d", len(archive), MaxArchiveBytes)
	}
	var l *listing
	if bytes.HasPrefix(archive, []byte("PK\x03\x04")) || bytes.HasPrefix(archive, []byte("PK\x05\x06")) {
		l, err = readZip(archive)
	} else {
		l, err = readTar(archive)
	}
	if err != nil {
		return nil, "", err
	}
	return l.skillFile()
}

// errNotArchive says what was expected, for a payload that is neither format.
var errNotArchive = errors.New("the archive is neither a ZIP nor a TAR file")

// listing is what ReadSkillFile learns of an archive: the clean name of
// every entry (true for a folder) and the content of each SKILL.md that
// could be the skill's (at the root or one folder down).
type listing struct {
	entries map[string]bool
	skill   map[string][]byte
	budget  int64 // uncompressed bytes left to read
}

func newListing() *listing {
	return &listing{entries: map[string]bool{}, skill: map[string][]byte{}, budget: MaxArchiveBytes}
}

// add records an entry; read, called only for a candidate SKILL.md, returns
// its content.
func (l *listing) add(raw string, dir bool, read func() (io.ReadCloser, error)) error {
	name, err := cleanEntryName(raw, dir)
	if err != nil || name == "" {
		return err // "" is the archive's root folder ("./")
	}
	if _, dup := l.entries[name]; dup {
		return fmt.Errorf("archive entry %q appears more than once (after removing a leading ./); a consumer would keep either", shown(name))
	}
	l.entries[name] = dir
	if dir || path.Base(name) != SkillFile || strings.Count(name, "/") > 1 {
		return nil // only SKILL.md is read; the rest is stored as uploaded
	}
	rc, err := read()
	if err != nil {
		return fmt.Errorf("archive entry %s: %v", shown(name), err)
	}
	defer func() { _ = rc.Close() }() // a bad entry fails the read, not the close
	if l.skill[name], err = readBounded(rc, &l.budget); err != nil {
		return fmt.Errorf("archive entry %s: %v", shown(name), err)
	}
	return nil
}

// cleanEntryName returns an entry's name without a leading "./" (and a
// folder's without its trailing "/"), or why it is refused.
func cleanEntryName(raw string, dir bool) (string, error) {
	name := strings.TrimPrefix(raw, "./")
	if dir {
		name = strings.TrimSuffix(name, "/")
	}
	var why string
	switch {
	case !utf8.ValidString(raw):
		why = "is not valid UTF-8"
	case termsafe.HasControl(raw):
		why = "contains a control character"
	case strings.Contains(raw, `\`):
		why = "contains a backslash; archive names separate folders with /"
	case name == "" || name == ".":
		if dir {
			return "", nil
		}
		why = "is not a file name"
	case strings.HasPrefix(name, "/"):
		why = "is an absolute path; names must be relative to the archive's root"
	case name == ".." || strings.HasPrefix(name, "../") || path.Clean(name) != name:
		why = "is not a clean relative path (it has a .., . or empty part)"
	default:
		return name, nil
	}
	return "", fmt.Errorf("archive entry %q %s", shown(raw), why)
}

// skillFile picks the one SKILL.md of the archive: at the root, or else in
// the single top-level folder, which must then hold every entry.
func (l *listing) skillFile() ([]byte, string, error) {
	names := make([]string, 0, len(l.entries))
	for name := range l.entries {
		names = append(names, name)
	}
	sort.Strings(names) // so that a message names the same entry every time
	for _, name := range names {
		for p := path.Dir(name); p != "."; p = path.Dir(p) {
			if isDir, ok := l.entries[p]; ok && !isDir {
				return nil, "", fmt.Errorf("archive entry %q is inside %q, which is a file", shown(name), shown(p))
			}
		}
	}
	if b, ok := l.skill[SkillFile]; ok {
		return b, "", nil
	}
	var found []string
	for name := range l.skill {
		found = append(found, name)
	}
	if len(found) != 1 {
		sort.Strings(found)
		return nil, "", fmt.Errorf("the archive must have one %s, at its root or in a single top-level folder; found none at the root and %d in top-level folders %v", SkillFile, len(found), found[:min(len(found), 5)])
	}
	folder := path.Dir(found[0])
	for _, name := range names {
		if name != folder && !strings.HasPrefix(name, folder+"/") {
			return nil, "", fmt.Errorf("the archive's %s is in the folder %s/, so every entry must be inside it; %q is not (or put %s at the archive's root)", SkillFile, shown(folder), shown(name), SkillFile)
		}
	}
	return l.skill[found[0]], folder, nil
}

func readZip(b []byte) (*listing, error) {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errNotArchive, err)
	}
	if len(zr.File) > MaxFiles {
		return nil, fmt.Errorf("the archive has %d entries; the limit is %d", len(zr.File), MaxFiles)
	}
	l := newListing()
	for _, f := range zr.File {
		switch mode := f.Mode(); {
		case mode&fs.ModeSymlink != 0:
			return nil, fmt.Errorf("archive entry %q is a symbolic link; a skill archive holds only files and folders", shown(f.Name))
		case !mode.IsRegular() && !mode.IsDir():
			return nil, fmt.Errorf("archive entry %q is a special file (%v); a skill archive holds only files and folders", shown(f.Name), mode.Type())
		}
		if err := l.add(f.Name, f.Mode().IsDir(), f.Open); err != nil {
			return nil, err
		}
	}
	return l, nil
}

func readTar(b []byte) (*listing, error) {
	tr := tar.NewReader(bytes.NewReader(b))
	l := newListing()
	for n := 0; ; n++ {
		h, err := tr.Next()
		if err == io.EOF {
			if n == 0 {
				return nil, errNotArchive
			}
			return l, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errNotArchive, err)
		}
		if n >= MaxFiles {
			return nil, fmt.Errorf("the archive has more than %d entries", MaxFiles)
		}
		switch h.Typeflag {
		case tar.TypeXGlobalHeader:
			continue // metadata of the archive (git archive writes one), not an entry
		case tar.TypeReg, tar.TypeDir:
		case tar.TypeSymlink, tar.TypeLink:
			return nil, fmt.Errorf("archive entry %q is a link; a skill archive holds only files and folders", shown(h.Name))
		default:
			return nil, fmt.Errorf("archive entry %q is of tar type %q, not a file or a folder; a skill archive holds only files and folders", shown(h.Name), h.Typeflag)
		}
		read := func() (io.ReadCloser, error) { return io.NopCloser(tr), nil }
		if err := l.add(h.Name, h.Typeflag == tar.TypeDir, read); err != nil {
			return nil, err
		}
	}
}

// readBounded reads r, charging budget, so that a compression bomb stops at
// the limit instead of filling memory.
func readBounded(r io.Reader, budget *int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, *budget+1))
	if err != nil {
		return nil, err
	}
	if *budget -= int64(len(data)); *budget < 0 {
		return nil, fmt.Errorf("uncompressed content exceeds %d bytes", MaxArchiveBytes)
	}
	return data, nil
}
