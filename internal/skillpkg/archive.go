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

// collect reads every regular file under dir, by slash-separated relative path.
func collect(dir string) (map[string][]byte, error) {
	root, err := filepath.EvalSymlinks(dir)
	if err != nil {
		return nil, fmt.Errorf("cannot read the skill folder: %w", err)
	}
	files := map[string][]byte{}
	total := 0
	err = filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.IsDir() {
			return nil
		}
		data, err := readInside(root, p, rel)
		if err != nil || data == nil {
			return err
		}
		if len(files) >= MaxFiles {
			return fmt.Errorf("the skill folder has more than %d files", MaxFiles)
		}
		if total += len(data); total > maxFolderBytes {
			return fmt.Errorf("the skill folder holds more than %d bytes; its archive could not stay under %d bytes (MaxArchiveBytes)", maxFolderBytes, MaxArchiveBytes)
		}
		files[filepath.ToSlash(rel)] = data
		return nil
	})
	return files, err
}

// readInside reads p, following a symlink only when its target is inside
// root. It returns nil data for entries that are neither files nor links to
// files (sockets, devices), which a skill never needs.
func readInside(root, p, rel string) ([]byte, error) {
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
	return os.ReadFile(p)
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
func ReadSkillFile(archive []byte) (content []byte, folder string, err error) {
	if len(archive) > MaxArchiveBytes {
		return nil, "", fmt.Errorf("the archive is %d bytes; the limit is %d", len(archive), MaxArchiveBytes)
	}
	var entries map[string][]byte
	if bytes.HasPrefix(archive, []byte("PK\x03\x04")) || bytes.HasPrefix(archive, []byte("PK\x05\x06")) {
		entries, err = readZip(archive)
	} else {
		entries, err = readTar(archive)
	}
	if err != nil {
		return nil, "", err
	}
	if b, ok := entries[SkillFile]; ok {
		return b, "", nil
	}
	// Several top-level folders with a SKILL.md would make the choice
	// arbitrary: exactly one is required.
	var found []string
	for name := range entries {
		if dir, file := path.Split(name); file == SkillFile && strings.Count(dir, "/") == 1 {
			found = append(found, name)
		}
	}
	if len(found) != 1 {
		return nil, "", fmt.Errorf("the archive must have one %s, at its root or in a single top-level folder; found %d in top-level folders", SkillFile, len(found))
	}
	return entries[found[0]], strings.TrimSuffix(path.Dir(found[0]), "/"), nil
}

// errNotArchive says what was expected, for a payload that is neither format.
var errNotArchive = errors.New("the archive is neither a ZIP nor a TAR file")

func readZip(b []byte) (map[string][]byte, error) {
	zr, err := zip.NewReader(bytes.NewReader(b), int64(len(b)))
	if err != nil {
		return nil, fmt.Errorf("%w: %v", errNotArchive, err)
	}
	if len(zr.File) > MaxFiles {
		return nil, fmt.Errorf("the archive has %d entries; the limit is %d", len(zr.File), MaxFiles)
	}
	out := map[string][]byte{}
	budget := int64(MaxArchiveBytes)
	for _, f := range zr.File {
		if f.FileInfo().IsDir() || path.Base(f.Name) != SkillFile {
			continue // only SKILL.md is read; the rest is stored as uploaded
		}
		rc, err := f.Open()
		if err != nil {
			return nil, fmt.Errorf("archive entry %s: %v", f.Name, err)
		}
		data, err := readBounded(rc, &budget)
		rc.Close()
		if err != nil {
			return nil, fmt.Errorf("archive entry %s: %v", f.Name, err)
		}
		out[strings.TrimPrefix(f.Name, "./")] = data
	}
	return out, nil
}

func readTar(b []byte) (map[string][]byte, error) {
	tr := tar.NewReader(bytes.NewReader(b))
	out := map[string][]byte{}
	budget := int64(MaxArchiveBytes)
	for n := 0; ; n++ {
		h, err := tr.Next()
		if err == io.EOF {
			if n == 0 {
				return nil, errNotArchive
			}
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("%w: %v", errNotArchive, err)
		}
		if n >= MaxFiles {
			return nil, fmt.Errorf("the archive has more than %d entries", MaxFiles)
		}
		if h.Typeflag != tar.TypeReg || path.Base(h.Name) != SkillFile {
			continue
		}
		data, err := readBounded(tr, &budget)
		if err != nil {
			return nil, fmt.Errorf("archive entry %s: %v", h.Name, err)
		}
		out[strings.TrimPrefix(h.Name, "./")] = data
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
