package state

// The skill archives, as files of their own in a folder beside the data file
// (<data>.archives/), one per revision, named by its uid.
//
// An archive of up to 10 MiB takes time to write and fsync (a second and
// more on a busy disk). The data file's writes happen under the state's
// write lock, so an archive written there made every request wait for it;
// and bbolt has one writer per file, so an archive written to the data file
// outside the lock would still hold up the next locked write. As a file of
// its own, an archive is written before the lock is taken and deleted after
// it is released, and no other request waits for it. (Not a second bbolt
// file: bbolt maps its file into memory, and the pages of every archive
// written stayed resident, 400 MB of RSS under the hostile uploads.)
//
// Order keeps a crash harmless: an archive is written and synced, with its
// folder, before its revision is committed (an acknowledged revision always
// has its archive), and deleted after its revision is. A crash in between
// leaves a file no revision names, which the next start deletes. Archives are
// stored, never read back: the server has no download. Data files of earlier
// versions keep their archives in the data file's skillArchives bucket, by
// revision name; deletes remove those too.

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
)

// archiveStore is the archives folder. A nil *archiveStore (in-memory mode)
// keeps nothing.
type archiveStore struct{ dir string }

// openArchives opens (or creates) the archives folder beside the data file
// at dataPath, and deletes the archives of no revision (keep says which are
// named by one).
func openArchives(dataPath string, keep func(uid string) bool) (*archiveStore, error) {
	dir := dataPath + ".archives"
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("open the skill archives folder %s: %w", dir, err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return nil, fmt.Errorf("read the skill archives folder %s: %w", dir, err)
	}
	for _, e := range entries {
		if !keep(e.Name()) {
			if err := os.Remove(filepath.Join(dir, e.Name())); err != nil {
				return nil, fmt.Errorf("delete an archive no revision names: %w", err)
			}
		}
	}
	return &archiveStore{dir: dir}, nil
}

// put stores the archive of the revision uid, durably: the file and the
// folder's entry are synced before it returns.
func (a *archiveStore) put(uid string, archive []byte) error {
	if a == nil {
		return nil
	}
	err := writeSynced(filepath.Join(a.dir, uid), archive)
	if err == nil {
		err = syncDir(a.dir)
	}
	if err != nil {
		return errInternal("cannot persist the skill archive: %v", err)
	}
	return nil
}

// has reports whether the archive of the revision uid is in the folder.
func (a *archiveStore) has(uid string) bool {
	_, err := os.Stat(filepath.Join(a.dir, uid))
	return err == nil
}

func writeSynced(path string, b []byte) error {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(b)
	if err == nil {
		err = f.Sync()
	}
	return errors.Join(err, f.Close())
}

func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	return errors.Join(d.Sync(), d.Close())
}

// delete removes the archives of the revisions uids. A failure leaves
// archives that no revision names, which the next start deletes: it is not
// the request's failure.
func (a *archiveStore) delete(uids []string) {
	if a == nil {
		return
	}
	for _, uid := range uids {
		_ = os.Remove(filepath.Join(a.dir, uid))
	}
}

// archiveChange is what one write does to the archives folder around its
// commit: an archive written before the lock is taken (deleted again unless
// the write commits) and the archives of the revisions it deletes (deleted
// once it has). Defer finish before taking the lock, so that it runs after
// the lock is released.
type archiveChange struct {
	store     *archiveStore
	added     string   // uid of the archive written by add
	removed   []string // uids of the archives to delete once committed
	committed bool     // set when the write is committed (under the lock)
}

func (s *State) archiveChange() *archiveChange { return &archiveChange{store: s.skills.archives} }

// add writes the archive of the revision uid.
func (c *archiveChange) add(uid string, archive []byte) error {
	if err := c.store.put(uid, archive); err != nil {
		return err
	}
	c.added = uid
	return nil
}

func (c *archiveChange) finish() {
	switch {
	case c.committed:
		c.store.delete(c.removed)
	case c.added != "":
		c.store.delete([]string{c.added})
	}
}
