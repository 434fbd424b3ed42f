package state

// The skill archives: files of their own beside the data file, written
// before the lock, one per revision, deleted with their revisions, and
// checked at start.

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime/debug"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	bolt "go.etcd.io/bbolt"

	"github.com/agentregistry/terraform-provider-agentregistry/internal/registryserver/resource"
)

// withRevision is a skill to create with its first revision.
func withRevision(t *testing.T, desc string) *resource.Skill {
	sk := activeSkill()
	sk.InitialRevision = revision(t, desc)
	return sk
}

// With a data file and an operation delay, a skill created with its first
// revision keeps that revision's archive (it was deleted as soon as the
// call returned once, since the revision counted as committed only when
// its delayed operation was done); and a start that finds a revision
// without its archive refuses to serve, naming it.
func TestDelayedSkillCreateKeepsItsArchive(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	s, err := Open(Options{DataPath: path, OperationDelay: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	view(t)(s.CreateSkill("", parent, "pdf-tools", withRevision(t, "first")))
	if files := archiveFiles(t, path); len(files) != 1 {
		t.Errorf("after an acknowledged create with its first revision, the archives are %v, want one", files)
	}
	mustClose(t, s)
	s = openFile(t, path) // every committed record is visible after a restart
	if _, err := s.Revision(parent + "/skills/pdf-tools/revisions/rev-1"); err != nil {
		t.Fatalf("the revision after a restart: %v", err)
	}
	mustClose(t, s)

	for _, f := range archiveFiles(t, path) {
		if err := os.Remove(filepath.Join(path+".archives", f)); err != nil {
			t.Fatal(err)
		}
	}
	s, err = Open(Options{DataPath: path})
	if err == nil {
		mustClose(t, s)
		t.Fatal("a start with a revision whose archive is missing served as healthy")
	}
	if msg := err.Error(); !strings.Contains(msg, parent+"/skills/pdf-tools/revisions/rev-1") || !strings.Contains(msg, "archive") {
		t.Errorf("the start's error does not name the revision and its archive: %v", err)
	}
}

// The start's error names the first ten revisions whose archive is missing,
// and says when there are more.
func TestMissingArchivesNamedTenAtMost(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	s := openFile(t, path)
	view(t)(s.CreateSkill("", parent, "pdf-tools", activeSkill()))
	for i := range 11 {
		view(t)(s.CreateRevision("", parent+"/skills/pdf-tools", "", revision(t, "d"+strconv.Itoa(i))))
	}
	mustClose(t, s)
	files := archiveFiles(t, path)
	if len(files) != 11 {
		t.Fatalf("%d archives, want 11", len(files))
	}
	for i, f := range files {
		if err := os.Remove(filepath.Join(path+".archives", f)); err != nil {
			t.Fatal(err)
		}
		if i < 9 {
			continue
		}
		s, err := Open(Options{DataPath: path})
		if err == nil {
			mustClose(t, s)
			t.Fatalf("%d archives missing: the start served as healthy", i+1)
		}
		more := strings.Contains(err.Error(), ", ...)")
		if !strings.Contains(err.Error(), ": "+strconv.Itoa(i+1)+" skill revisions have no archive") || more != (i+1 > 10) {
			t.Errorf("%d archives missing: %v", i+1, err)
		}
	}
}

// A skill archive is written, and synced, before the state's lock is
// taken: the test holds the write lock, as a long write would, and the
// upload's archive is in its folder meanwhile; once the lock is released the
// upload completes. (Archives were written in the data file under the write
// lock once: a large upload held every request for its fsync.)
func TestArchiveWrittenBeforeTheLock(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	s := openFile(t, path)
	defer mustClose(t, s)
	view(t)(s.CreateSkill("", parent, "pdf-tools", activeSkill()))
	s.mu.Lock()
	uploaded := make(chan error, 1)
	go func() {
		_, err := s.CreateRevision("", parent+"/skills/pdf-tools", "", revision(t, "d"))
		uploaded <- err
	}()
	deadline := time.Now().Add(10 * time.Second)
	for len(archiveFiles(t, path)) == 0 && time.Now().Before(deadline) {
		time.Sleep(5 * time.Millisecond)
	}
	written := len(archiveFiles(t, path)) == 1
	s.mu.Unlock()
	if !written {
		t.Error("the upload's archive was not written while another call held the lock")
	}
	if err := <-uploaded; err != nil {
		t.Errorf("the upload, once the lock was released: %v", err)
	}
	// What is kept is the archive uploaded, byte for byte.
	files := archiveFiles(t, path)
	if len(files) != 1 {
		t.Fatalf("archives %v, want one", files)
	}
	got, err := os.ReadFile(filepath.Join(path+".archives", files[0]))
	if err != nil || !bytes.Equal(got, revisionArchive(t, "d")) {
		t.Errorf("the stored archive is %d bytes (%v), not the %d uploaded", len(got), err, len(revisionArchive(t, "d")))
	}
}

// The archives folder holds one archive per revision, under its uid: deleting
// a revision, or a skill with force, deletes theirs, a refused upload leaves
// none, and an archive no revision names (left by a crash between its write
// and its revision's commit) is deleted at the next start. A data file of an
// earlier version, with its archives in the skillArchives bucket by name,
// has them deleted with their revisions.
func TestArchivesFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "data.db")
	s := openFile(t, path)
	for _, id := range []string{"pdf-tools", "csv-tools"} {
		view(t)(s.CreateSkill("", parent, id, withRevision(t, "first")))
	}
	skill := parent + "/skills/pdf-tools"
	view(t)(s.CreateRevision("", skill, "", revision(t, "second")))
	// Refused after its archive was written: the skill does not exist, the id is taken.
	_, err := s.CreateRevision("", parent+"/skills/none-such", "", revision(t, "x"))
	wantCode(t, err, NotFound)
	_, err = s.CreateRevision("", skill, "rev-2", revision(t, "x"))
	wantCode(t, err, AlreadyExists)
	uids := map[string]string{}
	s.mu.RLock()
	for name, rev := range s.skills.revisions.byName {
		uids[name] = rev.Uid
	}
	s.mu.RUnlock()
	view(t)(s.DeleteRevision("", skill+"/revisions/rev-1"))
	view(t)(s.DeleteSkill("", parent+"/skills/csv-tools", true))
	mustClose(t, s)
	want := []string{uids[skill+"/revisions/rev-2"]}
	if got := archiveFiles(t, path); !slices.Equal(got, want) {
		t.Fatalf("archives %v, want only rev-2's %v (of %v)", got, want, uids)
	}

	// An orphan, and an archive of an earlier version in the data file.
	if err := os.WriteFile(filepath.Join(path+".archives", "orphan-uid"), []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	old := skill + "/revisions/r1"
	oldRev, _ := json.Marshal(&resource.SkillRevision{Name: old, Uid: "old-uid", State: "ACTIVE"})
	db, err := bolt.Open(path, 0o600, nil)
	if err == nil {
		err = db.Update(func(tx *bolt.Tx) error {
			if err := tx.Bucket([]byte(bucketSkillRevisions)).Put([]byte(old), oldRev); err != nil {
				return err
			}
			return tx.Bucket([]byte(bucketSkillArchives)).Put([]byte(old), []byte("an old archive"))
		})
		mustClose(t, db)
	}
	if err != nil {
		t.Fatal(err)
	}
	s = openFile(t, path)
	if _, err := s.Revision(old); err != nil {
		t.Errorf("a revision of an earlier version, r1: %v", err)
	}
	view(t)(s.DeleteRevision("", old))
	mustClose(t, s)
	if got := archiveFiles(t, path); !slices.Equal(got, want) {
		t.Errorf("after a restart, archives %v, want %v: the orphan stayed", got, want)
	}
	if got := bucketKeys(t, path, bucketSkillArchives); len(got) != 0 {
		t.Errorf("the data file's old archives %v, want none once their revision is deleted", got)
	}
}

// Writing an archive opens its file and its folder and closes both: 90
// uploads leave no more files open than there were. (Only Linux lists
// a process's open files in /proc/self/fd.)
func TestArchivesLeaveNoFileOpen(t *testing.T) {
	if _, err := os.Stat("/proc/self/fd"); err != nil {
		t.Skip("no /proc/self/fd to count open files:", err)
	}
	openFiles := func() int {
		entries, err := os.ReadDir("/proc/self/fd")
		if err != nil {
			t.Fatal(err)
		}
		return len(entries)
	}
	s := openFile(t, filepath.Join(t.TempDir(), "data.db"))
	defer mustClose(t, s)
	view(t)(s.CreateSkill("", parent, "pdf-tools", activeSkill()))
	// Without a collection no finalizer closes a file left open.
	defer debug.SetGCPercent(debug.SetGCPercent(-1))
	before := openFiles()
	const uploads = 90 // of the 100 revisions a skill may have
	for range uploads {
		view(t)(s.CreateRevision("", parent+"/skills/pdf-tools", "", revision(t, "d")))
	}
	if after := openFiles(); after > before+2 {
		t.Errorf("%d files open before %d uploads, %d after", before, uploads, after)
	}
}
